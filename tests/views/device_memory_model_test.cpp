// The Timeline's device memory (Note [Three moments of a device tensor]): allocated/reserved
// samples, each block's life from alloc to free_completed with the call that wrote it
// returning and its work ending in between, a block reused after free, record_stream's
// later reuse, and lanes that never overlap.
#include <gtest/gtest.h>

#include <vector>

#include "core/views/device_memory_model.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::views {
namespace {

using trace::Category;
using trace::Event;
using trace::Phase;

struct Events {
  std::vector<Event> v;
  void add(int64_t t, uint32_t tid, Phase p, Category c, const char* name, trace::Payload pl = {}) {
    v.push_back(trace::testing::make_event(v.size(), t, tid, p, c, name, std::move(pl)));
  }
  void memory(int64_t t, const char* action, uint64_t addr, int64_t size, int64_t allocated, int64_t reserved) {
    trace::DeviceMemory m;
    m.action = action;
    m.addr = addr;
    m.size = size;
    m.allocated = allocated;
    m.reserved = reserved;
    add(t, 0, Phase::Instant, Category::GpuMemory, action, m);
  }
  // A launch writing `addr`: the host's call [t, t + 5], the kernel [k0, k1] on stream s.
  void launch(int64_t t, int64_t k0, int64_t k1, uint64_t addr, int s = 0) {
    trace::DeviceWork w;
    w.correlation = v.size() + 1;
    w.stream = s;
    w.addr = addr;
    add(t, 0, Phase::Begin, Category::CudaRuntime, "cudaLaunchKernel", w);
    add(t + 5, 0, Phase::End, Category::CudaRuntime, "cudaLaunchKernel");
    add(k0, trace::device_track(0, s), Phase::Begin, Category::Kernel, "kernel", w);
    add(k1, trace::device_track(0, s), Phase::End, Category::Kernel, "kernel");
  }
};

TEST(DeviceMemoryModel, ABlocksThreeMomentsComeFromItsWorkAndTheAllocator) {
  Events e;
  e.memory(0, "segment_alloc", 0x1000, 2 << 20, 0, 2 << 20);
  e.memory(10, "alloc", 0x1000, 512, 512, 2 << 20);
  e.launch(11, 100, 400, 0x1000);
  e.memory(50, "free_requested", 0x1000, 512, 0, 2 << 20);
  e.memory(50, "free_completed", 0x1000, 512, 0, 2 << 20);
  const auto index = trace::build_trace_index(e.v);
  const DeviceMemoryModel m = device_memory_model(e.v, index);
  ASSERT_EQ(m.blocks.size(), 1u);
  const BlockLife& b = m.blocks[0];
  EXPECT_EQ(b.addr, 0x1000u);
  EXPECT_EQ(b.size, 512);
  EXPECT_EQ(b.alloc_ns, 10);
  EXPECT_EQ(b.host_returned_ns, 16);
  EXPECT_EQ(b.work_done_ns, 400);
  EXPECT_EQ(b.free_requested_ns, 50);
  EXPECT_EQ(b.reusable_ns, 50);  // on its own stream only: reusable at once, before the kernel ends
  EXPECT_EQ(m.samples.size(), 4u);
  EXPECT_EQ(m.peak, 2 << 20);
  ASSERT_NE(sample_at(m, 12), nullptr);
  EXPECT_EQ(sample_at(m, 12)->allocated, 512);
  EXPECT_EQ(sample_at(m, 60)->allocated, 0);
  EXPECT_EQ(sample_at(m, -1), nullptr);
}

TEST(DeviceMemoryModel, AReusedAddressStartsANewLifeAndWorkGoesToTheLiveOne) {
  Events e;
  e.memory(10, "alloc", 0x1000, 512, 512, 2 << 20);
  e.launch(11, 20, 30, 0x1000);
  e.memory(40, "free_requested", 0x1000, 512, 0, 2 << 20);
  e.memory(40, "free_completed", 0x1000, 512, 0, 2 << 20);
  e.memory(50, "alloc", 0x1000, 512, 512, 2 << 20);
  e.launch(51, 60, 90, 0x1000);
  e.launch(52, 90, 95, 0x1000);  // a second write does not move the first's moments
  const auto index = trace::build_trace_index(e.v);
  const DeviceMemoryModel m = device_memory_model(e.v, index);
  ASSERT_EQ(m.blocks.size(), 2u);
  EXPECT_EQ(m.blocks[0].work_done_ns, 30);
  EXPECT_EQ(m.blocks[1].alloc_ns, 50);
  EXPECT_EQ(m.blocks[1].host_returned_ns, 56);
  EXPECT_EQ(m.blocks[1].work_done_ns, 90);
  EXPECT_EQ(m.blocks[1].free_requested_ns, -1);
  EXPECT_EQ(m.blocks[1].reusable_ns, -1);       // still live at the trace's end
  EXPECT_EQ(m.blocks[0].row, m.blocks[1].row);  // one after the other: one lane
}

TEST(DeviceMemoryModel, RecordStreamMakesTheFreeWaitAndOverlappingBlocksTakeLanes) {
  Events e;
  e.memory(10, "alloc", 0x1000, 512, 512, 2 << 20);
  e.memory(12, "alloc", 0x1200, 512, 1024, 2 << 20);
  e.launch(13, 20, 500, 0x1000, 7);
  e.memory(30, "free_requested", 0x1000, 512, 512, 2 << 20);
  e.memory(14, "alloc", 0x1400, 512, 1024, 2 << 20);
  e.memory(600, "free_completed", 0x1000, 512, 512, 2 << 20);  // after s7's event completed
  const auto index = trace::build_trace_index(e.v);
  const DeviceMemoryModel m = device_memory_model(e.v, index, 2);
  ASSERT_EQ(m.blocks.size(), 3u);
  EXPECT_EQ(m.blocks[0].free_requested_ns, 30);
  EXPECT_EQ(m.blocks[0].reusable_ns, 600);
  EXPECT_EQ(m.blocks[0].work_done_ns, 500);
  EXPECT_NE(m.blocks[0].row, m.blocks[1].row);
  EXPECT_EQ(m.rows, 2u);  // the third shares a lane: max_rows is 2
  // Samples are in time order even when recorded out of it.
  for (size_t k = 1; k < m.samples.size(); ++k) EXPECT_LE(m.samples[k - 1].t, m.samples[k].t);
}

TEST(DeviceMemoryModel, ATraceWithoutDeviceMemoryIsEmpty) {
  Events e;
  e.add(0, 0, Phase::Begin, Category::Dispatch, "aten::add");
  e.add(5, 0, Phase::End, Category::Dispatch, "aten::add");
  const auto index = trace::build_trace_index(e.v);
  EXPECT_TRUE(device_memory_model(e.v, index).empty());
}

}  // namespace
}  // namespace ipt::views
