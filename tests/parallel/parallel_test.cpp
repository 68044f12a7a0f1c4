// parallel_for splits a range as PyTorch's OpenMP build does (Note [How parallel_for splits a
// range]), runs the caller as thread 0, rethrows a chunk's exception, and set_num_threads
// resizes the team. Runs under ThreadSanitizer in scripts/test.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/parallel/parallel.h"
#include "core/util/error.h"

using namespace ipt;

namespace {

// The chunks parallel_for gave out, sorted.
std::vector<std::pair<int64_t, int64_t>> chunks(int64_t begin, int64_t end, int64_t grain) {
  std::mutex m;
  std::vector<std::pair<int64_t, int64_t>> seen;
  parallel_for(begin, end, grain, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(m);
    seen.emplace_back(b, e);
  });
  std::sort(seen.begin(), seen.end());
  return seen;
}

struct Threads {
  int saved = get_num_threads();
  explicit Threads(int n) { set_num_threads(n); }
  ~Threads() { set_num_threads(saved); }
};

}  // namespace

TEST(ParallelFor, SplitsIntoPyTorchsChunks) {
  Threads t(2);
  using C = std::vector<std::pair<int64_t, int64_t>>;
  // More than one grain: two chunks of ceil(n / 2).
  EXPECT_EQ(chunks(0, 100001, 32768), (C{{0, 50001}, {50001, 100001}}));
  // At most one grain: inline, one chunk.
  EXPECT_EQ(chunks(0, 32768, 32768), (C{{0, 32768}}));
  EXPECT_EQ(chunks(5, 5, 1), C{});
  Threads four(4);
  // Threads capped by ceil(n / grain): 3 chunks for 3 grains' worth on 4 threads.
  EXPECT_EQ(chunks(0, 30, 10), (C{{0, 10}, {10, 20}, {20, 30}}));
  // ceil(10 / 4) = 3: chunks of 3, the last one short, none empty.
  EXPECT_EQ(chunks(0, 10, 1), (C{{0, 3}, {3, 6}, {6, 9}, {9, 10}}));
}

TEST(ParallelFor, TheCallerIsThreadZeroAndNestedLoopsRunInline) {
  Threads t(2);
  std::atomic<int> nested_inline{0}, caller_saw_zero{0};
  const auto caller = std::this_thread::get_id();
  parallel_for(0, 2, 1, [&](int64_t b, int64_t) {
    EXPECT_TRUE(in_parallel_region());
    if (std::this_thread::get_id() == caller) caller_saw_zero += get_thread_num() == 0;
    parallel_for(0, 1000, 1, [&](int64_t nb, int64_t ne) { nested_inline += nb == 0 && ne == 1000; });
    EXPECT_EQ(get_thread_num(), static_cast<int>(b));
  });
  EXPECT_EQ(caller_saw_zero.load(), 1);
  EXPECT_EQ(nested_inline.load(), 2);
  EXPECT_FALSE(in_parallel_region());
}

TEST(ParallelFor, AChunksExceptionReachesTheCallerAfterEveryChunkEnded) {
  Threads t(2);
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(0, 2, 1,
                            [&](int64_t b, int64_t) {
                              ++ran;
                              if (b == 1) throw std::runtime_error("chunk 1");
                            }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 2);
  // The team still works.
  int64_t sum = 0;
  std::mutex m;
  parallel_for(0, 100, 1, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(m);
    for (int64_t i = b; i < e; ++i) sum += i;
  });
  EXPECT_EQ(sum, 4950);
}

TEST(ParallelFor, SetNumThreadsResizesTheTeamAndRefusesNonPositive) {
  Threads t(3);
  EXPECT_EQ(get_num_threads(), 3);
  EXPECT_EQ(chunks(0, 9, 1).size(), 3u);
  set_num_threads(1);
  EXPECT_EQ(chunks(0, 9, 1).size(), 1u);
  try {
    set_num_threads(0);
    FAIL() << "set_num_threads(0) did not throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "set_num_threads expects a positive integer");
  }
  EXPECT_EQ(get_num_threads(), 1);
}

TEST(ParallelFor, ManyJobsInARowFromTwoCallers) {
  Threads t(2);
  std::atomic<int64_t> total{0};
  auto job = [&] {
    for (int r = 0; r < 200; ++r) parallel_for(0, 64, 1, [&](int64_t b, int64_t e) { total += e - b; });
  };
  std::thread other(job);
  job();
  other.join();
  EXPECT_EQ(total.load(), 2 * 200 * 64);
}
