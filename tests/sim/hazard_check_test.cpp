// The simulated GPU's race check (Note [Streams, vector clocks and races] in
// backends/sim/hazard_check.h), through Gpu::launch as the kernels use it: what is ordered
// (one stream, events, the legacy default stream, a host synchronize) is never reported, what
// is not is reported with both accesses, and a reported launch enqueues nothing.
#include <gtest/gtest.h>

#include <atomic>

#include "backends/sim/sim_gpu.h"
#include "core/util/error.h"

namespace ipt::sim {
namespace {

const KernelCost kShort = {0, 4.8e6, MathMode::FP32};  // 1 us of traffic + latency

int g_x = 0, g_y = 0;  // two "buffers": the check keys memory by its data pointer

Access read_x() { return {&g_x, 0x1000, false, "self"}; }
Access write_x() { return {&g_x, 0x1000, true, "out"}; }
Access read_y() { return {&g_y, 0x2000, false, "other"}; }
Access write_y() { return {&g_y, 0x2000, true, "out"}; }

// The report of launching on s, or "" when it was enqueued.
std::string launch(Gpu& g, StreamId s, const char* kernel, std::vector<Access> a) {
  try {
    g.launch(
        s, kernel, kShort, [] {}, DeviceOp::Kind::Kernel, a);
  } catch (const ipt::Error& e) {
    return e.what();
  }
  return "";
}

TEST(HazardCheck, AWriteThenAnUnorderedReadOnAnotherStreamIsReportedWithBothAccesses) {
  Gpu g;
  g.set_hazard_check(true);
  const StreamId s1 = g.pool_stream(), s2 = g.pool_stream();
  ASSERT_EQ(launch(g, s1, "producer", {write_x()}), "");
  const std::string r = launch(g, s2, "consumer", {read_x(), read_y()});
  EXPECT_NE(r.find("CSAN detected a possible data race on tensor with data pointer 4096"), std::string::npos) << r;
  EXPECT_NE(
      r.find("Access by stream " + std::to_string(s2) + " during kernel:\nconsumer\nreading from argument(s) self"),
      std::string::npos)
      << r;
  EXPECT_NE(r.find("Previous access by stream " + std::to_string(s1) +
                   " during kernel:\nproducer\nwriting to argument(s) out"),
            std::string::npos)
      << r;
  g.synchronize();
}

TEST(HazardCheck, AReadThenAnUnorderedWriteIsReportedToo) {
  Gpu g;
  g.set_hazard_check(true);
  const StreamId s1 = g.pool_stream(), s2 = g.pool_stream();
  ASSERT_EQ(launch(g, s1, "reader", {read_x()}), "");
  const std::string r = launch(g, s2, "writer", {write_x()});
  EXPECT_NE(r.find("writer\nwriting to argument(s) out"), std::string::npos) << r;
  EXPECT_NE(r.find("reader\nreading from argument(s) self"), std::string::npos) << r;
  g.synchronize();
}

TEST(HazardCheck, ReadsOnTwoStreamsAndWorkOnOneStreamAreNoRace) {
  Gpu g;
  g.set_hazard_check(true);
  const StreamId s1 = g.pool_stream(), s2 = g.pool_stream();
  EXPECT_EQ(launch(g, s1, "a", {read_x()}), "");
  EXPECT_EQ(launch(g, s2, "b", {read_x()}), "");
  EXPECT_EQ(launch(g, s1, "c", {write_y()}), "");
  EXPECT_EQ(launch(g, s1, "d", {read_y()}), "");
  g.synchronize();
}

TEST(HazardCheck, AnEventRecordedAfterTheWriteAndWaitedForOrdersTheRead) {
  Gpu g;
  g.set_hazard_check(true);
  const StreamId s1 = g.pool_stream(), s2 = g.pool_stream();
  ASSERT_EQ(launch(g, s1, "producer", {write_x()}), "");
  const EventId done = g.create_event(false);
  g.record_event(done, s1);
  g.stream_wait_event(s2, done);
  EXPECT_EQ(launch(g, s2, "consumer", {read_x()}), "");
  // Writing x again on s1 races with s2's read, which nothing orders before it.
  EXPECT_NE(launch(g, s1, "producer again", {write_x()}), "");
  // An event recorded before a write orders nothing about it.
  const EventId early = g.create_event(false);
  g.record_event(early, s1);
  ASSERT_EQ(launch(g, s1, "producer of y", {write_y()}), "");
  g.stream_wait_event(s2, early);
  EXPECT_NE(launch(g, s2, "consumer of y", {read_y()}), "");
  g.synchronize();
}

TEST(HazardCheck, TheHostsSynchronizeOrdersWhatComesAfterIt) {
  Gpu g;
  g.set_hazard_check(true);
  const StreamId s1 = g.pool_stream(), s2 = g.pool_stream();
  ASSERT_EQ(launch(g, s1, "producer", {write_x()}), "");
  g.stream_synchronize(s1);
  EXPECT_EQ(launch(g, s2, "consumer", {read_x()}), "");
  g.synchronize();
}

TEST(HazardCheck, TheLegacyDefaultStreamOrdersBlockingStreamsButNotPoolStreams) {
  Gpu g;
  g.set_hazard_check(true);
  const StreamId blocking = g.create_stream(true);
  ASSERT_EQ(launch(g, blocking, "producer", {write_x()}), "");
  EXPECT_EQ(launch(g, 0, "consumer on the default stream", {read_x()}), "");
  const StreamId pool = g.pool_stream();  // non-blocking, as PyTorch's pool streams
  ASSERT_EQ(launch(g, pool, "producer on a pool stream", {write_y()}), "");
  EXPECT_NE(launch(g, 0, "consumer on the default stream", {read_y()}), "");
  g.synchronize();
}

TEST(HazardCheck, AReportedLaunchEnqueuesNothingAndTheCheckCanBeOff) {
  Gpu g;
  g.set_hazard_check(true);
  const StreamId s1 = g.pool_stream(), s2 = g.pool_stream();
  ASSERT_EQ(launch(g, s1, "producer", {write_x()}), "");
  const size_t ops = g.ops().size();
  std::atomic<bool> ran{false};
  EXPECT_THROW(g.launch(s2, "consumer", kShort, [&] { ran = true; }, DeviceOp::Kind::Kernel, {read_x()}), ipt::Error);
  g.synchronize();
  EXPECT_FALSE(ran.load());
  EXPECT_EQ(g.ops().size(), ops + 1);  // + the synchronize; the consumer is not there
  g.set_hazard_check(false);
  EXPECT_FALSE(g.hazard_check());
  ASSERT_EQ(launch(g, s1, "producer", {write_x()}), "");
  EXPECT_EQ(launch(g, s2, "consumer", {read_x()}), "");
  g.synchronize();
}

}  // namespace
}  // namespace ipt::sim
