// The simulated GPU against the CPU it runs on (bench_sim.h says what each case times).
// A launch is timed on the benchmark thread's CPU time: the stream's worker computes on
// another thread, and the host's share is what a launch costs the program. Throughput cases
// time launch + synchronize on the wall clock, since the work runs on the worker.
#include <benchmark/benchmark.h>

#include "backends/sim/sim_runtime.h"
#include "core/trace/recorder.h"
#include "generated/ops.h"
#include "tests/bench/bench_sim.h"

namespace ipt_bench {
namespace {

using ipt::Tensor;
namespace ops = ipt::ops;

const ipt::Device kCuda(ipt::DeviceType::CUDA, 0);

Tensor ones(std::initializer_list<int64_t> s, ipt::Device d) {
  return ops::ones(std::vector<int64_t>(s), ipt::ScalarType::Float, std::nullopt, d);
}

void BM_SimLaunchOurs(benchmark::State& state) {
  ipt::trace::Recorder::current().set_enabled(false);
  const Tensor a = ones({1}, kCuda), b = ones({1}, kCuda);
  ipt::sim::gpu().synchronize();
  int64_t since_drain = 0;
  for (auto _ : state) {
    Tensor r = ops::add_Tensor(a, b, 1);
    benchmark::DoNotOptimize(r.impl());
    if (++since_drain == kSimLaunchDrainEvery) {
      state.PauseTiming();
      r = Tensor();
      ipt::sim::gpu().synchronize();
      state.ResumeTiming();
      since_drain = 0;
    }
  }
  ipt::sim::gpu().synchronize();
}

void BM_SimLaunchCpu(benchmark::State& state) {
  ipt::trace::Recorder::current().set_enabled(false);
  const Tensor a = ones({1}, ipt::Device()), b = ones({1}, ipt::Device());
  for (auto _ : state) {
    Tensor r = ops::add_Tensor(a, b, 1);
    benchmark::DoNotOptimize(r.impl());
  }
}

// a + b with a fresh output each time on both sides (the caching allocator keeps the device's
// blocks; the CPU's come from malloc), 3 x 64 MiB moved per iteration.
void add_16m(benchmark::State& state, ipt::Device d) {
  ipt::trace::Recorder::current().set_enabled(false);
  const Tensor a = ones({kSimAddN}, d), b = ones({kSimAddN}, d);
  ipt::sim::gpu().synchronize();
  for (auto _ : state) {
    Tensor r = ops::add_Tensor(a, b, 1);
    if (d.type == ipt::DeviceType::CUDA) ipt::sim::gpu().synchronize();
    benchmark::DoNotOptimize(r.impl());
  }
  state.SetBytesProcessed(state.iterations() * 3 * kSimAddN * static_cast<int64_t>(sizeof(float)));
}
void BM_SimAddOurs(benchmark::State& state) { add_16m(state, kCuda); }
void BM_SimAddCpu(benchmark::State& state) { add_16m(state, ipt::Device()); }

void mm_1024(benchmark::State& state, ipt::Device d) {
  ipt::trace::Recorder::current().set_enabled(false);
  const Tensor a = ones({kSimMmN, kSimMmN}, d), b = ones({kSimMmN, kSimMmN}, d);
  ipt::sim::gpu().synchronize();
  for (auto _ : state) {
    Tensor r = ops::mm(a, b);
    if (d.type == ipt::DeviceType::CUDA) ipt::sim::gpu().synchronize();
    benchmark::DoNotOptimize(r.impl());
  }
  state.SetItemsProcessed(state.iterations() * 2 * kSimMmN * kSimMmN * kSimMmN);
}
void BM_SimMmOurs(benchmark::State& state) { mm_1024(state, kCuda); }
void BM_SimMmCpu(benchmark::State& state) { mm_1024(state, ipt::Device()); }

[[maybe_unused]] const bool registered = [] {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark(names::kSimLaunchOurs, BM_SimLaunchOurs);
  RegisterBenchmark(names::kSimLaunchCpu, BM_SimLaunchCpu);
  RegisterBenchmark(names::kSimAddOurs, BM_SimAddOurs)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark(names::kSimAddCpu, BM_SimAddCpu)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark(names::kSimMmOurs, BM_SimMmOurs)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark(names::kSimMmCpu, BM_SimMmCpu)->UseRealTime()->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace ipt_bench
