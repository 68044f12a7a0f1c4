// The simulated GPU's kernel for operators without one of their own: the CPU kernel launched on
// the device (Note [The CPU kernel on the simulated GPU] in backends/sim/cpu_fallback.h).
// Functional, in-place, out=, tuple and list results, data-dependent shapes and random draws
// give the CPU's values; the launch is one kernel on the stream; bad arguments raise on the host.
#include <gtest/gtest.h>

#include "backends/registry.h"
#include "core/ops/generator.h"
#include "core/tensor/backend.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt {
namespace {

const Device kCpu;
const Device kCuda(DeviceType::CUDA, 0);

Tensor to(const Tensor& t, Device d) { return ops::_to_copy(t, std::nullopt, std::nullopt, d); }
Tensor randn(std::vector<int64_t> s) { return ops::randn(s); }
using V = std::vector<int64_t>;

void init() {
  register_all_backends();
  ASSERT_NE(backend_for(DeviceType::CUDA).runtime, nullptr);
}

TEST(SimCpuFallback, FunctionalOperatorsGiveTheCpusResults) {
  init();
  const Tensor x = randn({6, 5}), y = randn({6, 5});
  const Tensor gx = to(x, kCuda), gy = to(y, kCuda);
  Tensor s = ops::_softmax(gx, 1, false);
  EXPECT_EQ(s.device(), kCuda);
  EXPECT_TRUE(ops::equal(to(s, kCpu), ops::_softmax(x, 1, false)));
  EXPECT_TRUE(ops::equal(to(ops::eq_Tensor(gx, gy), kCpu), ops::eq_Tensor(x, y)));
  EXPECT_TRUE(ops::equal(to(ops::where_self(ops::gt_Tensor(gx, gy), gx, gy), kCpu),
                         ops::where_self(ops::gt_Tensor(x, y), x, y)));
  const std::vector<Tensor> parts = {gx, gy};
  EXPECT_TRUE(ops::equal(to(ops::cat(parts, 0), kCpu), ops::cat(std::vector<Tensor>{x, y}, 0)));
  auto [v, i] = ops::max_dim(gx, 1, false);
  auto [cv, ci] = ops::max_dim(x, 1, false);
  EXPECT_TRUE(ops::equal(to(v, kCpu), cv));
  EXPECT_TRUE(ops::equal(to(i, kCpu), ci));
  // a transposed input: the result laid out as the CPU lays it out
  const Tensor t = ops::transpose_int(gx, 0, 1);
  EXPECT_EQ(ops::flip(t, std::vector<int64_t>{0}).strides(),
            ops::flip(ops::transpose_int(x, 0, 1), std::vector<int64_t>{0}).strides());
}

TEST(SimCpuFallback, InPlaceAndDataDependentOperators) {
  init();
  const Tensor x = randn({4, 3});
  Tensor gx = to(x, kCuda), cx = ops::clone(x);
  Tensor r = ops::clamp_(gx, Scalar(-0.5), Scalar(0.5));
  EXPECT_TRUE(r.is_same(gx));
  ops::clamp_(cx, Scalar(-0.5), Scalar(0.5));
  EXPECT_TRUE(ops::equal(to(gx, kCpu), cx));
  // nonzero has no Meta kernel: the host waits for the stream, as CUDA's copies the count back
  const Tensor gnz = ops::nonzero(ops::gt_Scalar(gx, Scalar(0.0)));
  EXPECT_EQ(gnz.device(), kCuda);
  EXPECT_TRUE(ops::equal(to(gnz, kCpu), ops::nonzero(ops::gt_Scalar(cx, Scalar(0.0)))));
}

TEST(SimCpuFallback, RandomDrawsLeaveTheCpuGeneratorAlone) {
  init();
  manual_seed(0);
  const Tensor a = randn({8});
  manual_seed(0);
  Tensor g = ops::empty_memory_format(V{1000}, ScalarType::Float, std::nullopt, kCuda, std::nullopt, std::nullopt);
  ops::normal_(g, 0.0, 1.0, std::nullopt);
  const Tensor b = randn({8});
  EXPECT_TRUE(ops::equal(a, b));  // the device drew from its own generator
  const double m = ops::item(ops::mean(to(g, kCpu), std::nullopt)).to_double();
  EXPECT_LT(std::abs(m), 0.2);
}

TEST(SimCpuFallback, BadArgumentsRaiseOnTheHost) {
  init();
  const Tensor gx = to(randn({4, 3}), kCuda);
  EXPECT_THROW(ops::_softmax(gx, 5, false), Error);
  EXPECT_THROW(ops::cat(std::vector<Tensor>{gx, to(randn({4, 2}), kCuda)}, 0), Error);
  try {
    ops::eq_Tensor(gx, randn({4, 3}));
    ADD_FAILURE() << "a CPU operand with a device one was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Expected all tensors to be on the same device"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ipt
