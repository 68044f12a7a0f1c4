// The simulated GPU keeps CUDA's semantics (Note [The simulated GPU] in sim_gpu.h): stream
// order, the legacy default stream, events, elapsed_time, and a modeled clock that depends
// only on the calls made.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include "backends/sim/sim_gpu.h"
#include "core/util/error.h"

namespace ipt::sim {
namespace {

// The order in which work really ran on the workers.
struct RunOrder {
  std::mutex mu;
  std::vector<int> order;
  std::function<void()> mark(int k) {
    return [this, k] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(k);
    };
  }
  std::vector<int> get() {
    std::lock_guard<std::mutex> lock(mu);
    return order;
  }
};

// Work that runs only once the test lets it.
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
  std::function<void()> wait_then(std::function<void()> then) {
    auto f = opened;
    return [f, then] {
      f.wait();
      then();
    };
  }
};

const KernelCost kMs = {0, 4.8e9, MathMode::FP32};  // 4.8 GB at 4.8 TB/s: 1 ms + latency

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ipt::Error& e) {
    return e.what();
  }
  return "";
}

TEST(SimGpu, ModeledDurationsUseTheH200Figures) {
  const GpuSpec h200 = GpuSpec::h200();
  // a + b on 16M floats: 192 MiB moved at 4.8 TB/s, plus 2 us.
  EXPECT_EQ(modeled_duration_ns(h200, {16.0 * (1 << 20), 3.0 * 4 * 16 * (1 << 20), MathMode::FP32}), 43944);
  // mm 4096^3: 2 * 4096^3 FLOPs at 66.9 (FP32), 494.7 (TF32), 989.4 (BF16) TFLOP/s.
  const double flops = 2.0 * 4096.0 * 4096.0 * 4096.0, bytes = 3.0 * 4 * 4096 * 4096;
  EXPECT_EQ(modeled_duration_ns(h200, {flops, bytes, MathMode::FP32}), 2056394);
  EXPECT_EQ(modeled_duration_ns(h200, {flops, bytes, MathMode::TF32}), 279823);
  EXPECT_EQ(modeled_duration_ns(h200, {flops, bytes, MathMode::BF16}), 140912);
  EXPECT_EQ(modeled_duration_ns(h200, {}), 2000);  // an empty kernel still pays its latency
}

TEST(SimGpu, ALaunchReturnsBeforeItsWorkRuns) {
  Gpu gpu;
  Gate gate;
  RunOrder ran;
  const DeviceOp op = gpu.launch(0, "k", kMs, gate.wait_then(ran.mark(1)));
  EXPECT_EQ(op.host_ns, 5000);  // the host paid one runtime call
  EXPECT_EQ(op.start_ns, 5000);
  EXPECT_EQ(op.end_ns, 5000 + 1000000 + 2000);
  EXPECT_EQ(gpu.host_now_ns(), 5000);
  EXPECT_FALSE(gpu.stream_query(0));  // the kernel is still running
  EXPECT_TRUE(ran.get().empty());
  gate.open.set_value();
  gpu.synchronize();
  EXPECT_EQ(ran.get(), std::vector<int>{1});
  EXPECT_EQ(gpu.host_now_ns(), op.end_ns);  // the host waited until the device was done
  EXPECT_TRUE(gpu.stream_query(0));
}

TEST(SimGpu, OneStreamRunsInOrder) {
  Gpu gpu;
  RunOrder ran;
  std::vector<DeviceOp> ops;
  for (int k = 0; k < 50; ++k) ops.push_back(gpu.launch(0, "k", kMs, ran.mark(k)));
  gpu.synchronize();
  std::vector<int> expected;
  for (int k = 0; k < 50; ++k) expected.push_back(k);
  EXPECT_EQ(ran.get(), expected);
  for (size_t k = 1; k < ops.size(); ++k) EXPECT_EQ(ops[k].start_ns, ops[k - 1].end_ns);  // back to back
}

TEST(SimGpu, NonBlockingStreamsOverlap) {
  Gpu gpu;
  const StreamId a = gpu.pool_stream(), b = gpu.pool_stream();
  EXPECT_FALSE(gpu.is_blocking(a));
  const DeviceOp k1 = gpu.launch(a, "k1", kMs, {});
  const DeviceOp k2 = gpu.launch(b, "k2", kMs, {});
  EXPECT_EQ(k2.start_ns, k2.host_ns);  // it does not wait for k1
  EXPECT_LT(k2.start_ns, k1.end_ns);
  // Nor for the default stream.
  const DeviceOp k3 = gpu.launch(0, "k3", kMs, {});
  EXPECT_EQ(k3.start_ns, k3.host_ns);
  gpu.synchronize();
}

// The CUDA programming guide's example: k_1 on blocking stream 1, k_2 on the legacy default
// stream, k_3 on blocking stream 2 run one after another; with non-blocking streams they overlap.
TEST(SimGpu, TheLegacyDefaultStreamSynchronizesWithBlockingStreams) {
  Gpu gpu;
  const StreamId s1 = gpu.create_stream(true), s2 = gpu.create_stream(true);
  Gate gate;
  RunOrder ran;
  const DeviceOp k1 = gpu.launch(s1, "k_1", kMs, gate.wait_then(ran.mark(1)));
  const DeviceOp k2 = gpu.launch(0, "k_2", kMs, ran.mark(2));
  const DeviceOp k3 = gpu.launch(s2, "k_3", kMs, ran.mark(3));
  EXPECT_EQ(k2.start_ns, k1.end_ns);
  EXPECT_EQ(k3.start_ns, k2.end_ns);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(ran.get().empty()) << "k_2 or k_3 ran while k_1 had not";
  gate.open.set_value();
  gpu.synchronize();
  EXPECT_EQ(ran.get(), (std::vector<int>{1, 2, 3}));

  Gpu other;
  const StreamId n1 = other.create_stream(false), n2 = other.create_stream(false);
  const DeviceOp m1 = other.launch(n1, "k_1", kMs, {});
  const DeviceOp m2 = other.launch(0, "k_2", kMs, {});
  const DeviceOp m3 = other.launch(n2, "k_3", kMs, {});
  EXPECT_LT(m2.start_ns, m1.end_ns);
  EXPECT_LT(m3.start_ns, m2.end_ns);
  other.synchronize();
}

TEST(SimGpu, ThePoolHandsOut32StreamsRoundRobin) {
  Gpu gpu;
  std::set<StreamId> seen;
  const StreamId first = gpu.pool_stream();
  seen.insert(first);
  for (int k = 1; k < 32; ++k) seen.insert(gpu.pool_stream());
  EXPECT_EQ(seen.size(), 32u);
  EXPECT_EQ(seen.count(0), 0u);
  EXPECT_EQ(gpu.pool_stream(), first);      // the 33rd request
  EXPECT_NE(gpu.pool_stream(true), first);  // high priority has its own pool
}

TEST(SimGpu, WaitingOnAnEventOrdersTwoStreams) {
  Gpu gpu;
  const StreamId a = gpu.pool_stream(), b = gpu.pool_stream();
  Gate gate;
  RunOrder ran;
  const DeviceOp k1 = gpu.launch(a, "producer", kMs, gate.wait_then(ran.mark(1)));
  const EventId e = gpu.create_event(false);
  gpu.record_event(e, a);
  EXPECT_FALSE(gpu.event_query(e));
  gpu.stream_wait_event(b, e);
  const DeviceOp k2 = gpu.launch(b, "consumer", kMs, ran.mark(2));
  EXPECT_EQ(k2.start_ns, k1.end_ns);  // the dependency, on the modeled clock
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(ran.get().empty()) << "the consumer ran before the event";
  gate.open.set_value();
  gpu.event_synchronize(e);
  EXPECT_TRUE(gpu.event_query(e));
  EXPECT_GE(gpu.host_now_ns(), k1.end_ns);
  gpu.synchronize();
  EXPECT_EQ(ran.get(), (std::vector<int>{1, 2}));
  // An event never recorded is complete, and waiting on it does nothing.
  const EventId never = gpu.create_event(false);
  EXPECT_TRUE(gpu.event_query(never));
  gpu.stream_wait_event(b, never);
}

TEST(SimGpu, ElapsedTimeAsCudaEventElapsedTime) {
  Gpu gpu;
  const EventId start = gpu.create_event(true), end = gpu.create_event(true);
  EXPECT_EQ(error_of([&] { gpu.elapsed_time_ms(start, end); }),
            "Both events must be recorded before calculating elapsed time.");
  gpu.record_event(start, 0);
  const DeviceOp k = gpu.launch(0, "k", kMs, {});
  gpu.record_event(end, 0);
  EXPECT_EQ(error_of([&] { gpu.elapsed_time_ms(start, end); }),
            "Both events must be completed before calculating elapsed time.");
  gpu.event_synchronize(end);
  // From the start record (the host's time then) to the kernel's end.
  EXPECT_FLOAT_EQ(gpu.elapsed_time_ms(start, end), static_cast<float>((k.end_ns - 5000) / 1e6));
  const EventId plain = gpu.create_event(false);
  gpu.record_event(plain, 0);
  gpu.synchronize();
  EXPECT_EQ(error_of([&] { gpu.elapsed_time_ms(start, plain); }),
            "Both events must be created with argument 'enable_timing=True'.");
  EXPECT_EQ(error_of([&] { gpu.elapsed_time_ms(start, 99); }), "CUDA error: invalid resource handle");
}

TEST(SimGpu, TheModeledClockIgnoresHowLongWorkReallyTakes) {
  auto run = [](bool slow) {
    Gpu gpu;
    const StreamId a = gpu.pool_stream(), b = gpu.pool_stream();
    const EventId e = gpu.create_event(true);
    for (int k = 0; k < 20; ++k) {
      auto work = [slow, k] {
        if (slow && k % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      };
      gpu.launch(k % 2 ? a : b, "k" + std::to_string(k), {1e9 * k, 1e6 * k, MathMode::FP32}, work);
      if (k == 7) {
        gpu.record_event(e, a);
        gpu.stream_wait_event(b, e);
      }
    }
    gpu.synchronize();
    std::vector<std::tuple<int, int64_t, int64_t, int64_t>> times;
    for (const DeviceOp& op : gpu.ops()) times.emplace_back(op.stream, op.host_ns, op.start_ns, op.end_ns);
    return times;
  };
  EXPECT_EQ(run(false), run(true));
}

TEST(SimGpu, WorkThatThrowsIsReportedLater) {
  Gpu gpu;
  gpu.launch(0, "bad", kMs, [] { throw std::runtime_error("an illegal memory access was encountered"); });
  gpu.launch(0, "next", kMs, {});
  gpu.synchronize();  // the stream goes on
  EXPECT_EQ(gpu.take_async_error(), "an illegal memory access was encountered");
  EXPECT_EQ(gpu.take_async_error(), "");
}

TEST(SimGpu, BadHandlesAreRefused) {
  Gpu gpu;
  EXPECT_EQ(error_of([&] { gpu.launch(7, "k", kMs, {}); }), "CUDA error: invalid resource handle");
  EXPECT_EQ(error_of([&] { gpu.record_event(3, 0); }), "CUDA error: invalid resource handle");
  EXPECT_EQ(gpu.ops().size(), 0u);
  EXPECT_EQ(gpu.host_now_ns(), 0);
}

}  // namespace
}  // namespace ipt::sim
