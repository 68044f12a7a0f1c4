// Recorder: ordering, seq, timestamps, tids, multi-thread safety, off = nothing recorded,
// ScopedTrace, clear(), intern(), and the cost of one recorded event.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <thread>

#include "core/trace/recorder.h"

namespace ipt::trace {
namespace {

TEST(Recorder, OffByDefaultAndRecordsNothingWhenOff) {
  EXPECT_FALSE(tracing_enabled());
  EXPECT_FALSE(Recorder::current().enabled());
  Recorder r;
  r.begin(Category::Dispatch, "a");
  r.instant(Category::Note, "b", Text{"x"});
  r.end(Category::Dispatch, "a");
  EXPECT_EQ(r.size(), 0u);
  EXPECT_TRUE(r.events().empty());
  r.set_enabled(true);
  r.instant(Category::Note, "c");
  r.set_enabled(false);
  r.instant(Category::Note, "d");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_STREQ(r.events()[0].name, "c");
}

// Note [A bounded trace]: a runaway program stops at the limit with one marker, and the spans
// still open then keep their ends.
TEST(Recorder, StopsAtTheEventLimitWithAMarkerAndClosesOpenSpans) {
  Recorder::set_max_events(5);
  Recorder r;
  r.set_enabled(true);
  r.begin(Category::Dispatch, "outer");
  for (int i = 0; i < 1000; ++i) r.instant(Category::Note, "tick");
  r.begin(Category::Dispatch, "late");  // past the limit: dropped, and so is its end
  r.end(Category::Dispatch, "late");
  r.end(Category::Dispatch, "outer");  // closes a span opened before the limit: kept
  const auto ev = r.events();
  Recorder::set_max_events(Recorder::kDefaultMaxEvents);
  ASSERT_EQ(ev.size(), 7u);
  EXPECT_TRUE(r.truncated());
  EXPECT_STREQ(ev[5].name, "trace truncated");
  EXPECT_NE(std::get<Text>(ev[5].payload).text.find("after 5 events"), std::string::npos);
  EXPECT_STREQ(ev[6].name, "outer");
  EXPECT_EQ(ev[6].phase, Phase::End);
  r.clear();
  EXPECT_FALSE(r.truncated());
}

TEST(Recorder, SeqTidAndTimestampsInOrder) {
  Recorder r;
  r.set_enabled(true);
  r.begin(Category::Dispatch, "outer", ScriptLine{1, 2});
  r.instant(Category::Kernel, "work");
  r.end(Category::Dispatch, "outer");
  auto ev = r.events();
  ASSERT_EQ(ev.size(), 3u);
  for (size_t i = 0; i < ev.size(); ++i) {
    EXPECT_EQ(ev[i].seq, i);
    EXPECT_EQ(ev[i].tid, 0u);
    EXPECT_GE(ev[i].ts_ns, 0);
    if (i) {
      EXPECT_GE(ev[i].ts_ns, ev[i - 1].ts_ns);
    }
  }
  EXPECT_EQ(ev[0].phase, Phase::Begin);
  EXPECT_EQ(ev[1].phase, Phase::Instant);
  EXPECT_EQ(ev[2].phase, Phase::End);
  EXPECT_EQ(ev[1].category, Category::Kernel);
  EXPECT_EQ(std::get<ScriptLine>(ev[0].payload).col, 2);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(ev[2].payload));
}

// Note [The trace clock]: stamps are nanoseconds whichever clock ticks underneath. A gap
// measured with steady_clock around a sleep must show up as at least that gap, and not as
// wildly more (a tick rate off by a factor would): the bound is loose, the unit is the point.
TEST(Recorder, TimestampsAreNanosecondsOfTheSteadyClock) {
  Recorder r;
  r.set_enabled(true);
  r.instant(Category::Note, "before");
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const auto t1 = std::chrono::steady_clock::now();
  r.instant(Category::Note, "after");
  const auto t2 = std::chrono::steady_clock::now();
  const auto ev = r.events();
  ASSERT_EQ(ev.size(), 2u);
  const int64_t gap = ev[1].ts_ns - ev[0].ts_ns;
  const int64_t slept = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  const int64_t around = std::chrono::duration_cast<std::chrono::nanoseconds>(t2 - t0).count();
  EXPECT_GE(gap, slept * 99 / 100) << "tsc: " << clock_uses_tsc();
  EXPECT_LE(gap, around * 2 + 1'000'000) << "tsc: " << clock_uses_tsc();
  // A second read-out agrees (exactly once the tick rate is frozen, a second into the process).
  const auto again = r.events();
  EXPECT_NEAR(static_cast<double>(again[1].ts_ns - again[0].ts_ns), static_cast<double>(gap), gap * 1e-3);
}

TEST(Recorder, ClearRestartsSeqAndTids) {
  Recorder r;
  r.set_enabled(true);
  std::thread([&] { r.instant(Category::Note, "other thread first"); }).join();
  r.instant(Category::Note, "main");
  EXPECT_EQ(r.events()[1].tid, 1u);
  r.clear();
  EXPECT_EQ(r.size(), 0u);
  r.instant(Category::Note, "again");
  auto ev = r.events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].seq, 0u);
  EXPECT_EQ(ev[0].tid, 0u);
  EXPECT_TRUE(r.enabled());
}

TEST(Recorder, ManyEventsAcrossChunks) {
  Recorder r;
  r.set_enabled(true);
  for (int i = 0; i < 10000; ++i) r.instant(Category::Note, "n", ScriptLine{i, 0});
  auto ev = r.events();
  ASSERT_EQ(ev.size(), 10000u);
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(ev[i].seq, static_cast<uint64_t>(i));
    ASSERT_EQ(std::get<ScriptLine>(ev[i].payload).line, i);
  }
}

TEST(Recorder, FourThreadsAtOnce) {
  Recorder r;
  r.set_enabled(true);
  constexpr int kThreads = 4, kPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&r, t] {
      for (int i = 0; i < kPerThread; ++i) {
        r.begin(Category::Dispatch, "op", ScriptLine{t, i});
        r.end(Category::Dispatch, "op");
      }
    });
  // Snapshots while writing must be safe too.
  for (int i = 0; i < 20; ++i) (void)r.events().size();
  for (auto& th : threads) th.join();

  auto ev = r.events();
  ASSERT_EQ(ev.size(), static_cast<size_t>(2 * kThreads * kPerThread));
  std::map<uint32_t, int> writer_of_tid;  // tid -> t
  std::map<uint32_t, int> next_i;
  std::map<uint32_t, int64_t> last_ts;
  for (size_t k = 0; k < ev.size(); ++k) {
    const Event& e = ev[k];
    ASSERT_EQ(e.seq, k);
    ASSERT_LT(e.tid, static_cast<uint32_t>(kThreads));
    if (k) {
      ASSERT_GE(e.ts_ns, ev[k - 1].ts_ns);
    }
    if (last_ts.count(e.tid)) {
      ASSERT_GE(e.ts_ns, last_ts[e.tid]);
    }
    last_ts[e.tid] = e.ts_ns;
    if (e.phase != Phase::Begin) continue;
    auto line = std::get<ScriptLine>(e.payload);
    if (!writer_of_tid.count(e.tid)) writer_of_tid[e.tid] = line.line;
    ASSERT_EQ(writer_of_tid[e.tid], line.line) << "one tid per OS thread";
    ASSERT_EQ(next_i[e.tid]++, line.col) << "a thread's events stay in its order";
  }
  EXPECT_EQ(writer_of_tid.size(), static_cast<size_t>(kThreads));
}

TEST(Recorder, CurrentAndScopedTrace) {
  Recorder& def = Recorder::current();
  EXPECT_FALSE(tracing_enabled());
  Recorder mine;
  {
    ScopedTrace scope(mine);
    EXPECT_EQ(&Recorder::current(), &mine);
    EXPECT_TRUE(tracing_enabled());
    if (tracing_enabled()) Recorder::current().instant(Category::Note, "inside");
    {
      Recorder inner;
      ScopedTrace nested(inner);
      EXPECT_EQ(&Recorder::current(), &inner);
      Recorder::current().instant(Category::Note, "inner");
      EXPECT_EQ(inner.size(), 1u);
    }
    EXPECT_EQ(&Recorder::current(), &mine);
    EXPECT_TRUE(tracing_enabled());
  }
  EXPECT_EQ(&Recorder::current(), &def);
  EXPECT_FALSE(tracing_enabled());
  EXPECT_FALSE(mine.enabled());
  EXPECT_EQ(mine.size(), 1u);

  // Enabling a recorder that is not current does not turn tracing on.
  mine.set_enabled(true);
  EXPECT_FALSE(tracing_enabled());
  Recorder::set_current(&mine);
  EXPECT_TRUE(tracing_enabled());
  mine.set_enabled(false);
  EXPECT_FALSE(tracing_enabled());
  Recorder::set_current(nullptr);
  EXPECT_EQ(&Recorder::current(), &def);
}

TEST(Recorder, DestroyingTheCurrentRecorderFallsBackToDefault) {
  Recorder& def = Recorder::current();
  {
    Recorder temp;
    Recorder::set_current(&temp);
    temp.set_enabled(true);
    EXPECT_TRUE(tracing_enabled());
  }
  EXPECT_EQ(&Recorder::current(), &def);
  EXPECT_FALSE(tracing_enabled());
}

TEST(Intern, SameTextSamePointerAcrossThreads) {
  const char* a = intern("aten::mul.Tensor");
  std::string copy = "aten::mul.Tensor";
  EXPECT_EQ(a, intern(copy));
  EXPECT_STREQ(a, "aten::mul.Tensor");
  EXPECT_STREQ(intern(""), "");
  EXPECT_NE(intern("x"), intern("y"));
  std::vector<const char*> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&got, t] {
      for (int i = 0; i < 1000; ++i) intern("k" + std::to_string(i));
      got[t] = intern("shared");
    });
  for (auto& th : threads) th.join();
  for (auto* p : got) EXPECT_EQ(p, got[0]);
}

TEST(Recorder, CostPerEvent) {
  // Fresh chunk memory pays first-touch page faults; clear() keeps up to 16 chunks (65536
  // events), so the second run (60000 events) measures the recording path itself.
  Recorder r;
  r.set_enabled(true);
  constexpr int kN = 60000;
  auto ns_per = [](auto a, auto b, int n) { return std::chrono::duration<double, std::nano>(b - a).count() / n; };
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kN; ++i) r.instant(Category::Dispatch, "op");
  auto t1 = std::chrono::steady_clock::now();
  r.clear();
  auto t2 = std::chrono::steady_clock::now();
  for (int i = 0; i < kN; ++i) r.instant(Category::Dispatch, "op");
  auto t3 = std::chrono::steady_clock::now();
  r.clear();
  DispatchStep d;
  d.op = "aten::add.Tensor";
  auto t4 = std::chrono::steady_clock::now();
  for (int i = 0; i < kN / 3; ++i) {  // a dispatcher-like Begin (with key sets) / Instant / End
    d.arg_key_sets = {1, 2};
    r.begin(Category::Dispatch, "aten::add.Tensor [CPU]", std::move(d));
    r.instant(Category::Kernel, "k");
    r.end(Category::Dispatch, "aten::add.Tensor [CPU]");
  }
  auto t5 = std::chrono::steady_clock::now();
  r.set_enabled(false);
  long hits = 0;
  auto t6 = std::chrono::steady_clock::now();
  for (int i = 0; i < kN; ++i)
    if (tracing_enabled()) ++hits;
  auto t7 = std::chrono::steady_clock::now();
  std::printf(
      "[ cost     ] per event: %.1f ns on fresh memory, %.1f ns on reused chunks, %.1f ns in a "
      "dispatch-like mix; tracing_enabled() when off: %.2f ns\n",
      ns_per(t0, t1, kN), ns_per(t2, t3, kN), ns_per(t4, t5, kN / 3 * 3), ns_per(t6, t7, kN));
  // The figures are reported, not asserted: a unit test never asserts a time (the sanitizer
  // build with fuzzing instrumentation records at about 5 us per event, a normal one at 0.2).
  EXPECT_EQ(hits, 0);
  EXPECT_EQ(r.size(), static_cast<size_t>(kN / 3 * 3));  // the mix, and nothing while disabled
}

}  // namespace
}  // namespace ipt::trace
