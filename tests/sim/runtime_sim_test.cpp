// The simulated GPU under the whole runtime (dispatcher, CUDA kernels, caching allocator,
// recorder), from C++ as torch.cuda's bindings drive it: results equal the CPU's, tensors
// freed while their kernels are queued are safe, and two streams with record_stream keep
// their memory apart. scripts/test runs this under ThreadSanitizer too (scripts/build --tsan):
// the stream workers, the host thread and the recorder share memory only as they should.
#include <gtest/gtest.h>

#include "backends/registry.h"
#include "core/ops/scalar_tensor.h"
#include "core/tensor/backend.h"
#include "core/trace/recorder.h"
#include "core/trace/trace_clock.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt {
namespace {

const Device kCpu;
const Device kCuda(DeviceType::CUDA, 0);

DeviceRuntime& cuda() {
  register_all_backends();
  DeviceRuntime* r = backend_for(DeviceType::CUDA).runtime;
  EXPECT_NE(r, nullptr);
  return *r;
}

Tensor to(const Tensor& t, Device d) { return ops::_to_copy(t, std::nullopt, std::nullopt, d); }

Tensor randn(std::vector<int64_t> s) { return ops::randn(s); }

TEST(RuntimeSim, KernelsOnTheSimulatedGpuGiveTheCpusResults) {
  trace::Recorder rec;
  trace::ScopedTrace tracing(rec);  // the workers run while the host records
  const Tensor a = randn({64, 48}), b = randn({64, 48}), m = randn({48, 32});
  const Tensor ga = to(a, kCuda), gb = to(b, kCuda), gm = to(m, kCuda);
  const Tensor two = native::wrapped_scalar_tensor(2.0);
  EXPECT_TRUE(ops::equal(to(ops::add_Tensor(ga, gb, 3), kCpu), ops::add_Tensor(a, b, 3)));
  EXPECT_TRUE(ops::equal(to(ops::sub_Tensor(ga, gb, 1), kCpu), ops::sub_Tensor(a, b, 1)));
  EXPECT_TRUE(ops::equal(to(ops::mul_Tensor(ga, two), kCpu), ops::mul_Tensor(a, two)));  // a CPU scalar operand
  EXPECT_TRUE(ops::equal(to(ops::div_Tensor(ga, gb), kCpu), ops::div_Tensor(a, b)));
  EXPECT_TRUE(ops::equal(to(ops::relu(ga), kCpu), ops::relu(a)));
  EXPECT_TRUE(ops::equal(to(ops::mm(ga, gm), kCpu), ops::mm(a, m)));
  // Into a transposed input's layout, and broadcast over rows.
  const Tensor row = randn({48});
  EXPECT_TRUE(ops::equal(to(ops::add_Tensor(ops::transpose_int(ga, 0, 1), ops::transpose_int(gb, 0, 1), 1), kCpu),
                         ops::add_Tensor(ops::transpose_int(a, 0, 1), ops::transpose_int(b, 0, 1), 1)));
  EXPECT_TRUE(ops::equal(to(ops::add_Tensor(ga, to(row, kCuda), 1), kCpu), ops::add_Tensor(a, row, 1)));
  EXPECT_DOUBLE_EQ(ops::item(ops::sum(ga)).to_double(), ops::item(ops::sum(a)).to_double());
  // Unary ops, functional and in place, on a transposed input and on integers (float32 out).
  const Tensor at = ops::transpose_int(a, 0, 1), gat = ops::transpose_int(ga, 0, 1);
  EXPECT_TRUE(ops::equal(to(ops::neg(gat), kCpu), ops::neg(at)));
  EXPECT_TRUE(ops::equal(to(ops::exp(gat), kCpu), ops::exp(at)));
  EXPECT_TRUE(ops::equal(to(ops::tanh(gat), kCpu), ops::tanh(at)));
  EXPECT_TRUE(ops::equal(to(ops::sigmoid(ga), kCpu), ops::sigmoid(a)));
  EXPECT_TRUE(ops::equal(to(ops::sin(ga), kCpu), ops::sin(a)));
  EXPECT_TRUE(ops::equal(to(ops::cos(ga), kCpu), ops::cos(a)));
  const Tensor pos = ops::exp(a), gpos = to(pos, kCuda);
  EXPECT_TRUE(ops::equal(to(ops::log(gpos), kCpu), ops::log(pos)));
  EXPECT_TRUE(ops::equal(to(ops::sqrt(gpos), kCpu), ops::sqrt(pos)));
  // The unary math family (asin ... bitwise_not): the same values as the CPU's.
  const Tensor unit = ops::tanh(at), gunit = to(unit, kCuda);
  for (auto f : {ops::asin, ops::acos, ops::atan, ops::sinh, ops::cosh, ops::asinh, ops::atanh, ops::log1p, ops::expm1,
                 ops::erf, ops::round, ops::trunc})
    EXPECT_TRUE(ops::equal(to(f(gunit), kCpu), f(unit)));
  EXPECT_TRUE(ops::equal(to(ops::maximum(gunit, gat), kCpu), ops::maximum(unit, at)));
  EXPECT_TRUE(ops::equal(to(ops::minimum(gunit, gat), kCpu), ops::minimum(unit, at)));
  EXPECT_TRUE(ops::equal(to(ops::atan2(gunit, gat), kCpu), ops::atan2(unit, at)));
  EXPECT_TRUE(ops::equal(to(ops::signbit(gunit), kCpu), ops::signbit(unit)));
  const Tensor above1 = ops::add_Scalar(pos, 1, 1);
  for (auto f : {ops::acosh, ops::log2, ops::log10}) EXPECT_TRUE(ops::equal(to(f(to(above1, kCuda)), kCpu), f(above1)));
  const Tensor ints = ops::arange(6), gints = to(ints, kCuda);
  EXPECT_EQ(ops::exp(gints).dtype(), ScalarType::Float);
  EXPECT_TRUE(ops::equal(to(ops::exp(gints), kCpu), ops::exp(ints)));
  EXPECT_TRUE(ops::equal(to(ops::bitwise_not(gints), kCpu), ops::bitwise_not(ints)));
  EXPECT_TRUE(ops::equal(to(ops::bitwise_xor_Tensor(gints, gints), kCpu), ops::bitwise_xor_Tensor(ints, ints)));
  EXPECT_TRUE(ops::equal(to(ops::fmod_Tensor(gints, to(ops::add_Scalar(ints, 2, 1), kCuda)), kCpu),
                         ops::fmod_Tensor(ints, ops::add_Scalar(ints, 2, 1))));
  Tensor g2 = to(a, kCuda), c2 = ops::clone(a);
  ops::tanh_(g2);
  ops::tanh_(c2);
  EXPECT_TRUE(ops::equal(to(g2, kCpu), c2));
  try {
    ops::exp_(gints);  // float results into an int64 tensor: refused on the host, as on the CPU
    ADD_FAILURE() << "exp_ of an int64 tensor was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("can't be cast"), std::string::npos) << e.what();
  }
  EXPECT_GT(rec.size(), 0u);
}

// The layers' operators: convolution (forward and the backward stub), layer norm, the
// activations and embedding's backward, each on the worker over device memory.
TEST(RuntimeSim, LayerKernelsOnTheSimulatedGpuGiveTheCpusResults) {
  using V = std::vector<int64_t>;
  const Tensor x = randn({2, 3, 6, 5}), w = randn({4, 3, 3, 3}), bias = randn({4});
  const Tensor gx = to(x, kCuda), gw = to(w, kCuda), gbias = to(bias, kCuda);
  const Tensor y = ops::conv2d(x, w, bias, V{1}, V{1}, V{1}, 1);
  EXPECT_TRUE(ops::equal(to(ops::conv2d(gx, gw, gbias, V{1}, V{1}, V{1}, 1), kCpu), y));
  EXPECT_TRUE(ops::equal(to(ops::conv2d(gx, gw, std::nullopt, V{2}, V{0}, V{2}, 1), kCpu),
                         ops::conv2d(x, w, std::nullopt, V{2}, V{0}, V{2}, 1)));
  const Tensor wt = randn({3, 2, 2, 2});
  EXPECT_TRUE(
      ops::equal(to(ops::conv_transpose2d_input(gx, to(wt, kCuda), std::nullopt, V{2}, V{0}, V{0}, 1, V{1}), kCpu),
                 ops::conv_transpose2d_input(x, wt, std::nullopt, V{2}, V{0}, V{0}, 1, V{1})));
  const Tensor gy = randn(y.sizes());
  auto cpu_grads = ops::convolution_backward(gy, x, w, V{4}, V{1}, V{1}, V{1}, false, V{0, 0}, 1, {true, true, true});
  auto sim_grads =
      ops::convolution_backward(to(gy, kCuda), gx, gw, V{4}, V{1}, V{1}, V{1}, false, V{0, 0}, 1, {true, true, true});
  EXPECT_TRUE(ops::equal(to(std::get<0>(sim_grads), kCpu), std::get<0>(cpu_grads)));
  EXPECT_TRUE(ops::equal(to(std::get<1>(sim_grads), kCpu), std::get<1>(cpu_grads)));
  EXPECT_TRUE(ops::equal(to(std::get<2>(sim_grads), kCpu), std::get<2>(cpu_grads)));
  auto ln = ops::native_layer_norm(x, V{6, 5}, std::nullopt, std::nullopt, 1e-5);
  auto gln = ops::native_layer_norm(gx, V{6, 5}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_TRUE(ops::equal(to(std::get<0>(gln), kCpu), std::get<0>(ln)));
  EXPECT_TRUE(ops::equal(to(std::get<2>(gln), kCpu), std::get<2>(ln)));
  EXPECT_TRUE(ops::equal(to(ops::gelu(gx, "none"), kCpu), ops::gelu(x, "none")));
  EXPECT_TRUE(ops::equal(to(ops::gelu(gx, "tanh"), kCpu), ops::gelu(x, "tanh")));
  EXPECT_TRUE(ops::equal(to(ops::elu(gx, 1, 1, 1), kCpu), ops::elu(x, 1, 1, 1)));
  EXPECT_TRUE(ops::equal(to(ops::leaky_relu(gx, 0.1), kCpu), ops::leaky_relu(x, 0.1)));
  EXPECT_TRUE(ops::equal(to(ops::hardtanh_backward(gx, gx, -1, 1), kCpu), ops::hardtanh_backward(x, x, -1, 1)));
  auto mp = ops::max_pool2d_with_indices(x, V{2}, V{2}, V{0}, V{1}, false);
  auto gmp = ops::max_pool2d_with_indices(gx, V{2}, V{2}, V{0}, V{1}, false);
  EXPECT_TRUE(ops::equal(to(std::get<0>(gmp), kCpu), std::get<0>(mp)));
  EXPECT_TRUE(ops::equal(to(std::get<1>(gmp), kCpu), std::get<1>(mp)));
  EXPECT_TRUE(ops::equal(to(ops::avg_pool2d(gx, V{3}, V{2}, V{1}, false, true, std::nullopt), kCpu),
                         ops::avg_pool2d(x, V{3}, V{2}, V{1}, false, true, std::nullopt)));
  EXPECT_TRUE(ops::equal(to(ops::_adaptive_avg_pool2d(gx, V{4, 3}), kCpu), ops::_adaptive_avg_pool2d(x, V{4, 3})));
  const Tensor rm = ops::zeros(V{3}), rv = ops::ones(V{3});
  const Tensor grm = to(rm, kCuda), grv = to(rv, kCuda);
  auto bn = ops::native_batch_norm(x, std::nullopt, std::nullopt, rm, rv, true, 0.1, 1e-5);
  auto gbn = ops::native_batch_norm(gx, std::nullopt, std::nullopt, grm, grv, true, 0.1, 1e-5);
  EXPECT_TRUE(ops::equal(to(std::get<0>(gbn), kCpu), std::get<0>(bn)));
  EXPECT_TRUE(ops::equal(to(grm, kCpu), rm));  // the running statistics, updated in device memory
  EXPECT_TRUE(ops::equal(to(grv, kCpu), rv));
  const Tensor idx = ops::arange(5), grad = randn({5, 3});
  EXPECT_TRUE(ops::equal(to(ops::embedding_dense_backward(to(grad, kCuda), to(idx, kCuda), 7, 2, false), kCpu),
                         ops::embedding_dense_backward(grad, idx, 7, 2, false)));
}

TEST(RuntimeSim, TensorsFreedWhileTheirKernelsAreQueuedAreSafe) {
  DeviceRuntime& rt = cuda();
  const Tensor x = ops::ones(std::vector<int64_t>{1 << 16}, ScalarType::Float, std::nullopt, kCuda);
  Tensor acc = ops::zeros(std::vector<int64_t>{1 << 16}, ScalarType::Float, std::nullopt, kCuda);
  for (int i = 0; i < 200; ++i) {
    Tensor tmp = ops::mul_Tensor(x, native::wrapped_scalar_tensor(2.0));  // freed at the end of the iteration,
    acc = ops::add_Tensor(acc, tmp, 1);                                   // while both kernels may be queued
  }
  rt.synchronize();
  EXPECT_DOUBLE_EQ(ops::item(ops::sum(acc)).to_double(), 400.0 * (1 << 16));
}

TEST(RuntimeSim, RecordStreamKeepsABlockFromReuseUntilTheSideStreamIsDone) {
  // On the modeled clock, so that the side stream's matmul (34 us on the model) is surely
  // not done when the block is freed; on the measured clock a slow host may be past it.
  trace::Recorder::current().set_clock(trace::ClockKind::Modeled);
  struct Restore {
    ~Restore() { trace::Recorder::current().set_clock(trace::ClockKind::Measured); }
  } restore;
  DeviceRuntime& rt = cuda();
  const int64_t main = rt.current_stream(), side = rt.pool_stream(false);
  const Tensor a = to(randn({1024, 1024}), kCuda);
  for (int i = 0; i < 20; ++i) {
    Tensor tmp = ops::ones(std::vector<int64_t>{256, 256}, ScalarType::Float, std::nullopt, kCuda);
    const int64_t e = rt.event_create(false);
    rt.event_record(e, main);
    rt.stream_wait_event(side, e);
    rt.set_current_stream(side);
    Tensor p = ops::mm(a, a);
    Tensor q = ops::mul_Tensor(tmp, native::wrapped_scalar_tensor(3.0));
    rt.set_current_stream(main);
    rt.record_stream(tmp.impl()->storage()->data(), side);
    const void* old = tmp.impl()->storage()->data();
    tmp = Tensor();
    Tensor fresh = ops::zeros(std::vector<int64_t>{256, 256}, ScalarType::Float, std::nullopt, kCuda);
    EXPECT_NE(fresh.impl()->storage()->data(), old) << "iteration " << i;
    rt.stream_synchronize(side);
    EXPECT_DOUBLE_EQ(ops::item(ops::sum(q)).to_double(), 3.0 * 256 * 256);
  }
  rt.synchronize();
}

// Note [Each run on a fresh device]: a second program in one process sees the device as the
// first did.
TEST(RuntimeSim, EachProgramStartsOnADeviceAsANewProcessFindsIt) {
  DeviceRuntime& rt = cuda();
  trace::Recorder& rec = trace::Recorder::current();
  auto program = [&] {
    start_recording(rec, trace::ClockKind::Modeled);
    rec.set_enabled(true);
    const Tensor a = ops::ones(std::vector<int64_t>{256, 256}, ScalarType::Float, std::nullopt, kCuda);
    const Tensor p = ops::mm(a, a);
    const int64_t s = rt.pool_stream(false);
    rt.synchronize();
    rec.set_enabled(false);
    size_t blas_setups = 0;
    for (const trace::Event& e : rec.events())
      if (std::string(e.name) == "cublasCreate_v2" && e.phase == trace::Phase::Begin) ++blas_setups;
    struct Seen {
      int64_t stream;
      size_t blas_setups, history;
      uint64_t reserved;
    };
    return Seen{s, blas_setups, rt.memory_trace().size(), rt.memory_stats().max_reserved};
  };
  const auto first = program();
  const auto second = program();  // the first program's tensors are freed, their segment cached
  EXPECT_EQ(second.stream, first.stream);
  EXPECT_EQ(second.blas_setups, 1u);
  EXPECT_EQ(first.blas_setups, second.blas_setups);
  EXPECT_EQ(second.history, first.history);  // segment_alloc, alloc, alloc, ... again
  EXPECT_EQ(second.reserved, first.reserved);
  start_recording(rec, trace::ClockKind::Measured);
}

TEST(RuntimeSim, TheDeviceCanBeSwitchedOffForProgramsAndBackOn) {
  cuda();
  const Tensor before = ops::ones(std::vector<int64_t>{4}, ScalarType::Float, std::nullopt, kCuda);
  set_device_enabled(DeviceType::CUDA, false);
  struct Restore {
    ~Restore() { set_device_enabled(DeviceType::CUDA, true); }
  } restore;
  EXPECT_FALSE(has_backend(DeviceType::CUDA));
  try {
    ops::ones(std::vector<int64_t>{4}, ScalarType::Float, std::nullopt, kCuda);
    ADD_FAILURE() << "a CUDA tensor was made with the device switched off";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Torch not compiled with CUDA enabled"), std::string::npos) << e.what();
  }
  wait_for_devices();  // still waits for what is queued
  set_device_enabled(DeviceType::CUDA, true);
  EXPECT_TRUE(has_backend(DeviceType::CUDA));
  EXPECT_DOUBLE_EQ(ops::item(ops::sum(before)).to_double(), 4.0);
}

}  // namespace
}  // namespace ipt
