// The simulated GPU's caching allocator follows PyTorch's (Note [The caching allocator]):
// rounding, pools and segments, per-stream blocks, record_stream, merging, empty_cache.
#include <gtest/gtest.h>

#include <cstring>

#include "backends/sim/caching_allocator.h"
#include "core/util/error.h"

namespace ipt::sim {
namespace {

constexpr uint64_t MiB = uint64_t(1) << 20;
using A = CachingAllocator;

std::vector<std::string> actions(const A& a) {
  std::vector<std::string> out;
  for (const auto& t : a.trace()) out.push_back(t.action);
  return out;
}

TEST(CachingAllocator, RoundsAndSizesSegmentsAsPyTorch) {
  EXPECT_EQ(A::round_size(1), 512u);
  EXPECT_EQ(A::round_size(512), 512u);
  EXPECT_EQ(A::round_size(513), 1024u);
  EXPECT_EQ(A::segment_size(512), 2 * MiB);
  EXPECT_EQ(A::segment_size(1 * MiB), 2 * MiB);  // still small
  EXPECT_EQ(A::segment_size(1 * MiB + 512), 20 * MiB);
  EXPECT_EQ(A::segment_size(10 * MiB), 10 * MiB);  // its own segment, rounded to 2 MiB
  EXPECT_EQ(A::segment_size(11 * MiB), 12 * MiB);
}

TEST(CachingAllocator, SmallRequestsShareA2MiBSegment) {
  Gpu gpu;
  A a(gpu);
  void* p = a.allocate(1000, 0);
  void* q = a.allocate(4, 0);
  EXPECT_EQ(a.stats().allocated, 1024u + 512u);
  EXPECT_EQ(a.stats().requested, 1004u);
  EXPECT_EQ(a.stats().reserved, 2 * MiB);
  EXPECT_EQ(a.device_address(p), A::kBaseAddress);
  EXPECT_EQ(a.device_address(q), A::kBaseAddress + 1024);
  std::memset(p, 1, 1000);  // the bytes are real
  const auto snap = a.snapshot();
  ASSERT_EQ(snap.size(), 1u);
  EXPECT_EQ(snap[0].segment_type, "small");
  ASSERT_EQ(snap[0].blocks.size(), 3u);
  EXPECT_EQ(snap[0].blocks[0].state, "active_allocated");
  EXPECT_EQ(snap[0].blocks[2].state, "inactive");
  EXPECT_EQ(snap[0].blocks[2].size, 2 * MiB - 1536);
  a.deallocate(p);
  a.deallocate(q);
  EXPECT_EQ(a.stats().allocated, 0u);
  EXPECT_EQ(a.stats().reserved, 2 * MiB);  // cached, not returned
  EXPECT_EQ(a.stats().max_allocated, 1536u);
  EXPECT_EQ(a.snapshot()[0].blocks.size(), 1u);  // the free neighbours merged back
  EXPECT_EQ(actions(a), (std::vector<std::string>{"segment_alloc", "alloc", "alloc", "free_requested", "free_completed",
                                                  "free_requested", "free_completed"}));
}

TEST(CachingAllocator, AFreedBlockIsReusedOnItsOwnStreamOnly) {
  Gpu gpu;
  A a(gpu);
  const StreamId side = gpu.pool_stream();
  void* p = a.allocate(4096, 0);
  a.deallocate(p);
  EXPECT_EQ(a.allocate(4096, 0), p);  // the same block, at once
  void* q = a.allocate(4096, side);   // another stream: another segment
  EXPECT_NE(q, p);
  EXPECT_EQ(a.stats().reserved, 4 * MiB);
  EXPECT_EQ(a.snapshot()[1].stream, side);
}

TEST(CachingAllocator, LargeRequestsAndTheirSegments) {
  Gpu gpu;
  A a(gpu);
  void* p = a.allocate(5 * MiB, 0);
  EXPECT_EQ(a.stats().reserved, 20 * MiB);
  void* q = a.allocate(5 * MiB, 0);  // split from the same 20 MiB segment
  EXPECT_EQ(a.stats().reserved, 20 * MiB);
  EXPECT_EQ(a.device_address(q), a.device_address(p) + 5 * MiB);
  a.allocate(12 * MiB, 0);  // its own 12 MiB segment
  EXPECT_EQ(a.stats().reserved, 32 * MiB);
  a.allocate(100, 0);  // small requests never come from the large pool
  EXPECT_EQ(a.stats().reserved, 34 * MiB);
}

TEST(CachingAllocator, RecordStreamDelaysReuseUntilTheOtherStreamIsDone) {
  Gpu gpu;
  A a(gpu);
  const StreamId side = gpu.pool_stream();
  void* p = a.allocate(1 << 16, 0);
  // A long kernel on the side stream uses the block.
  gpu.launch(side, "uses p", {0, 4.8e9, MathMode::FP32}, {});
  a.record_stream(p, side);
  a.deallocate(p);
  EXPECT_EQ(a.stats().allocated, 0u);
  EXPECT_EQ(a.stats().active, uint64_t(1) << 16);
  EXPECT_EQ(a.snapshot()[0].blocks[0].state, "active_pending_free");
  void* q = a.allocate(1 << 16, 0);
  EXPECT_NE(q, p) << "reused while the side stream still used it";
  gpu.synchronize();
  a.deallocate(q);
  void* r = a.allocate(1 << 16, 0);
  EXPECT_EQ(r, p);  // after the side stream's work, the block came back
  const auto acts = actions(a);
  EXPECT_EQ(std::count(acts.begin(), acts.end(), "free_requested"), 2);
  EXPECT_EQ(std::count(acts.begin(), acts.end(), "free_completed"), 2);
}

TEST(CachingAllocator, WithoutRecordStreamTheBlockIsReusedAtOnce) {
  // What PyTorch does too: the hazard record_stream exists for.
  Gpu gpu;
  A a(gpu);
  const StreamId side = gpu.pool_stream();
  void* p = a.allocate(1 << 16, 0);
  gpu.launch(side, "uses p", {0, 4.8e9, MathMode::FP32}, {});
  a.deallocate(p);
  EXPECT_EQ(a.allocate(1 << 16, 0), p);
  gpu.synchronize();
}

TEST(CachingAllocator, EmptyCacheReturnsWholeFreeSegments) {
  Gpu gpu;
  A a(gpu);
  void* small = a.allocate(100, 0);
  void* large = a.allocate(30 * MiB, 0);
  a.deallocate(large);
  a.empty_cache();
  EXPECT_EQ(a.stats().reserved, 2 * MiB);  // the small segment still holds a block
  a.deallocate(small);
  a.empty_cache();
  EXPECT_EQ(a.stats().reserved, 0u);
  EXPECT_TRUE(a.snapshot().empty());
  EXPECT_EQ(actions(a).back(), "segment_free");
  EXPECT_EQ(a.stats().num_segment_frees, 2u);
}

TEST(CachingAllocator, OutOfMemoryIsAnErrorAndChangesNothing) {
  Gpu gpu;
  A a(gpu);
  void* p = a.allocate(100, 0);
  const DeviceMemoryStats before = a.stats();
  try {
    a.allocate(uint64_t(200) * 1000 * 1000 * 1000, 0);
    ADD_FAILURE() << "200 GB were allocated";
  } catch (const ipt::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("CUDA out of memory. Tried to allocate 186.26 GiB", 0), 0u) << e.what();
  }
  EXPECT_EQ(a.stats().allocated, before.allocated);
  EXPECT_EQ(a.stats().reserved, before.reserved);
  a.deallocate(p);
}

TEST(CachingAllocator, BadPointersAreRefused) {
  Gpu gpu;
  A a(gpu);
  int x = 0;
  EXPECT_THROW(a.deallocate(&x), ipt::Error);
  a.record_stream(&x, 0);  // ignored
  void* p = a.allocate(10, 0);
  a.deallocate(p);
  EXPECT_THROW(a.deallocate(p), ipt::Error);  // a double free
  a.deallocate(nullptr);
  EXPECT_EQ(a.allocate(0, 0), nullptr);
}

TEST(CachingAllocator, AddressesAreTheSameOnEveryRun) {
  auto run = [] {
    Gpu gpu;
    A a(gpu);
    std::vector<uint64_t> addrs;
    std::vector<void*> live;
    for (int k = 0; k < 40; ++k) {
      live.push_back(a.allocate(static_cast<uint64_t>(k * 37000 + 1), 0));
      addrs.push_back(a.device_address(live.back()));
      if (k % 4 == 3) {
        a.deallocate(live[live.size() - 2]);
        live.erase(live.end() - 2);
      }
    }
    return addrs;
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace ipt::sim
