// Autograd benchmarks: our engine against libtorch's on the same graphs (see bench_autograd.h).
//
// Timing basis: CPU time of the benchmark thread, like the other single-threaded cases. Both
// engines run a CPU-only graph on the calling thread (libtorch's Engine::execute runs CPU
// work in thread_main on the caller; it starts device threads only for accelerators).
#include <benchmark/benchmark.h>

#include "core/autograd/engine.h"
#include "core/autograd/node.h"
#include "core/trace/recorder.h"
#include "generated/ops.h"
#include "tests/bench/bench_autograd.h"

#if IPT_HAVE_LIBTORCH
#include <ATen/ATen.h>
#endif

namespace ipt_bench {
namespace {

using ipt::Tensor;
namespace ops = ipt::ops;

constexpr double kChainFactor = 1.0001;

Tensor ours_leaf(double v) {
  Tensor t = ops::full(std::vector<int64_t>{1}, v, ipt::ScalarType::Float);
  t.impl()->set_requires_grad(true);
  return t;
}

Tensor ours_chain(const Tensor& x, const Tensor& c) {
  Tensor y = x;
  for (int64_t i = 0; i < kChainNodes; ++i) y = ops::mul_Tensor(y, c);
  return ops::sum(y);
}

// ---- 1. backward through a chain of kChainNodes MulBackward0 nodes --------------------------

void BM_ChainBackwardOurs(benchmark::State& state) {
  ipt::trace::Recorder::current().set_enabled(false);
  const Tensor x = ours_leaf(1.0);
  const Tensor c = ops::full(std::vector<int64_t>{1}, kChainFactor, ipt::ScalarType::Float);
  for (auto _ : state) {
    state.PauseTiming();
    Tensor loss = ours_chain(x, c);
    state.ResumeTiming();
    ipt::autograd::backward(loss, std::nullopt, false);
    state.PauseTiming();
    loss = Tensor();  // frees the graph outside the timed region
    state.ResumeTiming();
  }
  benchmark::DoNotOptimize(ipt::autograd::autograd_meta(x).grad.impl());
  state.counters["nodes"] = static_cast<double>(kChainNodes);
}

void BM_ChainForwardOurs(benchmark::State& state) {
  ipt::trace::Recorder::current().set_enabled(false);
  const Tensor x = ours_leaf(1.0);
  const Tensor c = ops::full(std::vector<int64_t>{1}, kChainFactor, ipt::ScalarType::Float);
  for (auto _ : state) {
    Tensor loss = ours_chain(x, c);
    benchmark::DoNotOptimize(loss.impl());
    state.PauseTiming();
    loss = Tensor();
    state.ResumeTiming();
  }
  state.counters["nodes"] = static_cast<double>(kChainNodes);
}

#if IPT_HAVE_LIBTORCH
at::Tensor torch_chain(const at::Tensor& x, const at::Tensor& c) {
  at::Tensor y = x;
  for (int64_t i = 0; i < kChainNodes; ++i) y = at::mul(y, c);
  return y.sum();
}

void BM_ChainBackwardTorch(benchmark::State& state) {
  const at::Tensor x = at::ones({1}).requires_grad_(true);
  const at::Tensor c = at::full({1}, kChainFactor, at::kFloat);
  for (auto _ : state) {
    state.PauseTiming();
    at::Tensor loss = torch_chain(x, c);
    state.ResumeTiming();
    loss.backward();
    state.PauseTiming();
    loss = at::Tensor();
    state.ResumeTiming();
  }
  benchmark::DoNotOptimize(x.grad().unsafeGetTensorImpl());
  state.counters["nodes"] = static_cast<double>(kChainNodes);
}

void BM_ChainForwardTorch(benchmark::State& state) {
  const at::Tensor x = at::ones({1}).requires_grad_(true);
  const at::Tensor c = at::full({1}, kChainFactor, at::kFloat);
  for (auto _ : state) {
    at::Tensor loss = torch_chain(x, c);
    benchmark::DoNotOptimize(loss.unsafeGetTensorImpl());
    state.PauseTiming();
    loss = at::Tensor();
    state.ResumeTiming();
  }
  state.counters["nodes"] = static_cast<double>(kChainNodes);
}
#endif

// ---- 2. (a*b + a).sum() on 1-element tensors, forward + backward ----------------------------

void BM_SmallOurs(benchmark::State& state) {
  ipt::trace::Recorder::current().set_enabled(false);
  const Tensor a = ours_leaf(1.5), b = ours_leaf(2.0);
  for (auto _ : state) {
    Tensor loss = ops::sum(ops::add_Tensor(ops::mul_Tensor(a, b), a));
    ipt::autograd::backward(loss, std::nullopt, false);
  }
  benchmark::DoNotOptimize(ipt::autograd::autograd_meta(a).grad.impl());
}

#if IPT_HAVE_LIBTORCH
void BM_SmallTorch(benchmark::State& state) {
  const at::Tensor a = at::full({1}, 1.5, at::kFloat).requires_grad_(true),
                   b = at::full({1}, 2.0, at::kFloat).requires_grad_(true);
  for (auto _ : state) {
    at::Tensor loss = (a * b + a).sum();
    loss.backward();
  }
  benchmark::DoNotOptimize(a.grad().unsafeGetTensorImpl());
}
#endif

[[maybe_unused]] const bool registered = [] {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark(names::kChainBwdOurs, BM_ChainBackwardOurs)->Unit(benchmark::kMillisecond);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kChainBwdTorch, BM_ChainBackwardTorch)->Unit(benchmark::kMillisecond);
#endif
  RegisterBenchmark(names::kChainFwdOurs, BM_ChainForwardOurs)->Unit(benchmark::kMillisecond);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kChainFwdTorch, BM_ChainForwardTorch)->Unit(benchmark::kMillisecond);
#endif
  RegisterBenchmark(names::kSmallOurs, BM_SmallOurs);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kSmallTorch, BM_SmallTorch);
#endif
  return true;
}();

}  // namespace
}  // namespace ipt_bench
