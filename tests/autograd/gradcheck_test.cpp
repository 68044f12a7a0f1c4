// Finite-difference gradient checks (float64) for every differentiable operator in
// core/ops/derivatives.yaml: broadcasting, dims/keepdim, views, in-place ops on non-leaf
// intermediates and the composite operators built from them (narrow, reshape, matmul, rsub).
// See gradcheck.h for what one check does.
#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/scalar_tensor.h"
#include "tests/autograd/gradcheck.h"

namespace ipt_test {
namespace {

using ipt::Scalar;
using T = std::vector<Tensor>;

Tensor num(double v) { return ipt::native::wrapped_scalar_tensor(v); }

// The name of the backward node that produced f(inputs) (checks which operator recorded).
std::string node_name(const Fn& f, const T& inputs) {
  Tensor out = f(inputs);
  const auto& fn = ipt::autograd::grad_fn(out);
  return fn ? fn->name() : "(none)";
}

// A non-leaf copy of x, so in-place ops may modify it.
Tensor nonleaf(const Tensor& x) { return ops::clone(x); }

struct Broadcast {
  V a, b;
};
const std::vector<Broadcast> kBroadcasts = {
    {{2, 3}, {2, 3}}, {{2, 3, 4}, {4}}, {{3, 1}, {1, 4}}, {{2, 1, 4}, {3, 1}},
    {{}, {2, 3}},     {{2, 3}, {}},     {{1}, {2, 3}},    {{4}, {2, 1, 4}},
};

// The check itself: it must catch a wrong gradient (detach hides x's second factor from
// autograd, so the analytical gradient of x * detach(x) is x while the numerical one is 2x),
// a missing one and one for an input that should not get any.
TEST(Gradcheck, CatchesWrongGradients) {
  EXPECT_FALSE(gradcheck([](const T& x) { return ops::mul_Tensor(x[0], ops::detach(x[0])); }, {rleaf({3})}));
  EXPECT_FALSE(
      gradcheck([](const T& x) { return ops::mul_Tensor(x[0], ops::detach(x[1])); }, {rleaf({3}), rleaf({3})}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::mul_Tensor(x[0], ops::detach(x[1])); }, {rleaf({3}), rand_double({3})}));
}

// ---- pointwise binary ops with broadcasting ----------------------------------------------

TEST(Gradcheck, AddTensorBroadcastAndAlpha) {
  for (const auto& [sa, sb] : kBroadcasts) {
    SCOPED_TRACE(shape_str(sa) + " + " + shape_str(sb));
    EXPECT_TRUE(gradcheck([](const T& x) { return ops::add_Tensor(x[0], x[1]); }, {rleaf(sa), rleaf(sb)}));
    EXPECT_TRUE(gradcheck([](const T& x) { return ops::add_Tensor(x[0], x[1], 2.5); }, {rleaf(sa), rleaf(sb)}));
    EXPECT_TRUE(gradcheck([](const T& x) { return ops::add_Tensor(x[0], x[1], -3); }, {rleaf(sa), rleaf(sb)}));
  }
  // Only one side requires grad: the other gets no .grad.
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::add_Tensor(x[0], x[1], 2); }, {rand_double({3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::add_Tensor(x[0], x[1], 2); }, {rleaf({2, 3}), rand_double({3})}));
}

TEST(Gradcheck, AddScalar) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::add_Scalar(x[0], 1.5, 2); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::add_Scalar(x[0], 4); }, {rleaf({})}));
}

TEST(Gradcheck, SubTensorBroadcastAndAlpha) {
  for (const auto& [sa, sb] : kBroadcasts) {
    SCOPED_TRACE(shape_str(sa) + " - " + shape_str(sb));
    EXPECT_TRUE(gradcheck([](const T& x) { return ops::sub_Tensor(x[0], x[1]); }, {rleaf(sa), rleaf(sb)}));
    EXPECT_TRUE(gradcheck([](const T& x) { return ops::sub_Tensor(x[0], x[1], 0.5); }, {rleaf(sa), rleaf(sb)}));
  }
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sub_Tensor(x[0], num(2.0)); }, {rleaf({3})}));
}

TEST(Gradcheck, MulTensorBroadcast) {
  for (const auto& [sa, sb] : kBroadcasts) {
    SCOPED_TRACE(shape_str(sa) + " * " + shape_str(sb));
    EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(x[0], x[1]); }, {rleaf(sa), rleaf(sb)}));
  }
  // A wrapped Python number, and the same tensor on both sides.
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(x[0], num(-1.75)); }, {rleaf({2, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(x[0], x[0]); }, {rleaf({5})}));
}

TEST(Gradcheck, DivTensorBroadcast) {
  for (const auto& [sa, sb] : kBroadcasts) {
    SCOPED_TRACE(shape_str(sa) + " / " + shape_str(sb));
    EXPECT_TRUE(
        gradcheck([](const T& x) { return ops::div_Tensor(x[0], x[1]); }, {rleaf(sa), rleaf(sb, -2.0, 2.0, 0.5)}));
  }
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::div_Tensor(num(3.0), x[0]); }, {rleaf({4}, 0.5, 2.0)}));
}

TEST(Gradcheck, PowTensorTensorBroadcast) {
  for (const auto& [sa, sb] : kBroadcasts) {
    SCOPED_TRACE(shape_str(sa) + " ** " + shape_str(sb));
    EXPECT_TRUE(gradcheck([](const T& x) { return ops::pow_Tensor_Tensor(x[0], x[1]); },
                          {rleaf(sa, 0.5, 2.0), rleaf(sb, -2.0, 2.0)}));
  }
  // Only the exponent, only the base.
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::pow_Tensor_Tensor(x[0], x[1]); },
                        {rand_double({3}, 0.5, 2.0), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::pow_Tensor_Tensor(x[0], x[1]); },
                        {rleaf({2, 3}, 0.5, 2.0), rand_double({3})}));
}

// pow(self, exponent) at self == 0 (where finite differences are one-sided, so the values are
// checked directly against PyTorch's pow_backward_self / pow_backward_exponent):
//   d/dself     = 0 where exponent == 0            (not 0 * 0^-1 = NaN)
//   d/dexponent = 0 where self == 0, exponent >= 0  (not 0^e * log 0 = 0 * -inf = NaN)
TEST(Gradcheck, PowTensorTensorAtZeroBaseMatchesPyTorch) {
  Tensor base = leaf(from_values({4}, {0, 0, 1, 2}));
  Tensor e = leaf(from_values({4}, {0, 1.5, 2, 0}));
  ipt::autograd::backward(ops::sum(ops::pow_Tensor_Tensor(base, e)), std::nullopt, false);
  // d/dbase = e * base^(e-1): [0 (where), 1.5 * 0^0.5 = 0, 2 * 1 = 2, 0 (where)]
  EXPECT_EQ(ipt::to_double_vector(grad_of(base)), (std::vector<double>{0, 0, 2, 0}));
  // d/de = base^e * log(base): [0 (where), 0 (where), 1 * log 1 = 0, 1 * log 2]
  EXPECT_EQ(ipt::to_double_vector(grad_of(e)), (std::vector<double>{0, 0, 0, std::log(2.0)}));
}

TEST(Gradcheck, PowTensorScalar) {
  for (double e : {2.0, 3.0, 0.5, -1.0, -2.5, 1.0, 0.0}) {
    SCOPED_TRACE("exponent " + std::to_string(e));
    EXPECT_TRUE(gradcheck([e](const T& x) { return ops::pow_Tensor_Scalar(x[0], e); }, {rleaf({2, 3}, 0.5, 2.0)}));
  }
  // Integer exponents on negative bases.
  for (int64_t e : {int64_t(2), int64_t(3), int64_t(0)}) {
    SCOPED_TRACE("int exponent " + std::to_string(e));
    EXPECT_TRUE(gradcheck([e](const T& x) { return ops::pow_Tensor_Scalar(x[0], e); }, {rleaf({4}, -2.0, 2.0)}));
  }
}

TEST(Gradcheck, RsubScalar) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::rsub_Scalar(x[0], 2.0); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::rsub_Scalar(x[0], 2.0, 3); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::rsub_Scalar(x[0], 1, -0.5); }, {rleaf({})}));
}

// ---- pointwise unary ----------------------------------------------------------------------

TEST(Gradcheck, Unary) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::neg(x[0]); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::exp(x[0]); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::relu(x[0]); }, {rleaf({3, 4}, -1.0, 1.0, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::reciprocal(x[0]); }, {rleaf({2, 3}, -2.0, 2.0, 0.5)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::exp(x[0]); }, {rleaf({})}));
}

// ---- reductions -----------------------------------------------------------------------------

TEST(Gradcheck, Sum) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sum(x[0]); }, {rleaf({2, 3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sum(x[0]); }, {rleaf({})}));
  for (bool keepdim : {false, true}) {
    for (const V& dims : {V{0}, V{1}, V{-1}, V{0, 2}, V{2, 0}, V{-3, -2, -1}}) {
      SCOPED_TRACE("dims " + shape_str(dims) + (keepdim ? " keepdim" : ""));
      EXPECT_TRUE(gradcheck([dims, keepdim](const T& x) { return ops::sum_dim_IntList(x[0], dims, keepdim); },
                            {rleaf({2, 3, 4})}));
    }
    SCOPED_TRACE(keepdim ? "dim=None / [] keepdim" : "dim=None / []");
    EXPECT_TRUE(gradcheck([keepdim](const T& x) { return ops::sum_dim_IntList(x[0], std::nullopt, keepdim); },
                          {rleaf({2, 3})}));
    EXPECT_TRUE(gradcheck([keepdim](const T& x) { return ops::sum_dim_IntList(x[0], V{}, keepdim); }, {rleaf({2, 3})}));
  }
}

TEST(Gradcheck, Mean) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mean(x[0]); }, {rleaf({2, 3, 4})}));
  for (bool keepdim : {false, true}) {
    for (const V& dims : {V{0}, V{-1}, V{0, 2}, V{1, 2}}) {
      SCOPED_TRACE("dims " + shape_str(dims) + (keepdim ? " keepdim" : ""));
      EXPECT_TRUE(
          gradcheck([dims, keepdim](const T& x) { return ops::mean_dim(x[0], dims, keepdim); }, {rleaf({2, 3, 4})}));
    }
    EXPECT_TRUE(
        gradcheck([keepdim](const T& x) { return ops::mean_dim(x[0], std::nullopt, keepdim); }, {rleaf({3, 2})}));
    EXPECT_TRUE(gradcheck([keepdim](const T& x) { return ops::mean_dim(x[0], V{}, keepdim); }, {rleaf({3, 2})}));
  }
}

// ---- matrix products --------------------------------------------------------------------------

TEST(Gradcheck, Mm) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mm(x[0], x[1]); }, {rleaf({3, 4}), rleaf({4, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mm(x[0], x[1]); }, {rleaf({1, 5}), rleaf({5, 1})}));
  // Transposed (column-major) operands, and only one side requiring grad.
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::mm(ops::t(x[0]), ops::t(x[1])); }, {rleaf({4, 3}), rleaf({2, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mm(x[0], x[1]); }, {rand_double({3, 4}), rleaf({4, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mm(x[0], x[1]); }, {rleaf({3, 4}), rand_double({4, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mm(x[0], x[0]); }, {rleaf({3, 3})}));
}

TEST(Gradcheck, Dot) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::dot(x[0], x[1]); }, {rleaf({5}), rleaf({5})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::dot(x[0], x[0]); }, {rleaf({4})}));
}

TEST(Gradcheck, Mv) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mv(x[0], x[1]); }, {rleaf({3, 4}), rleaf({4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mv(ops::t(x[0]), x[1]); }, {rleaf({4, 3}), rleaf({4})}));
}

TEST(Gradcheck, Bmm) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::bmm(x[0], x[1]); }, {rleaf({2, 3, 4}), rleaf({2, 4, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::bmm(ops::transpose_int(x[0], 1, 2), x[1]); },
                        {rleaf({2, 4, 3}), rleaf({2, 4, 2})}));
}

TEST(Gradcheck, Matmul1D2D) {
  auto mm = [](const T& x) { return ops::matmul(x[0], x[1]); };
  EXPECT_TRUE(gradcheck(mm, {rleaf({4}), rleaf({4})}));        // 1-D . 1-D
  EXPECT_TRUE(gradcheck(mm, {rleaf({3, 4}), rleaf({4})}));     // 2-D x 1-D
  EXPECT_TRUE(gradcheck(mm, {rleaf({4}), rleaf({4, 2})}));     // 1-D x 2-D
  EXPECT_TRUE(gradcheck(mm, {rleaf({3, 4}), rleaf({4, 2})}));  // 2-D x 2-D
}

// ---- views ----------------------------------------------------------------------------------

TEST(Gradcheck, TransposeFamily) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::t(x[0]); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::t(x[0]); }, {rleaf({3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::transpose_int(x[0], 0, 2); }, {rleaf({2, 3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::transpose_int(x[0], -1, 1); }, {rleaf({2, 3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::permute(x[0], V{2, 0, 1}); }, {rleaf({2, 3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::permute(x[0], V{-1, 0, 1}); }, {rleaf({2, 3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::permute(x[0], V{1, 2, 0}); }, {rleaf({2, 3, 4})}));
}

TEST(Gradcheck, ViewAndReshape) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::view(x[0], V{4, -1}); }, {rleaf({2, 3, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::view(x[0], V{}); }, {rleaf({1})}));
  // reshape of a contiguous tensor is a view (view itself, as in 2.15) ...
  Fn as_view = [](const T& x) { return ops::reshape(x[0], V{3, 4}); };
  EXPECT_EQ(node_name(as_view, {rleaf({2, 6})}), "ViewBackward0");
  EXPECT_TRUE(gradcheck(as_view, {rleaf({2, 6})}));
  // ... of a transposed one a copy (clone + _unsafe_view).
  Fn as_copy = [](const T& x) { return ops::reshape(ops::t(x[0]), V{-1}); };
  EXPECT_EQ(node_name(as_copy, {rleaf({2, 3})}), "UnsafeViewBackward0");
  EXPECT_TRUE(gradcheck(as_copy, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::_unsafe_view(ops::clone(x[0]), V{6}); }, {rleaf({3, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::_reshape_alias(x[0], V{3, 2}, V{2, 1}); }, {rleaf({6})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::flatten_using_ints(x[0]); }, {rleaf({2, 3, 2})}));
}

TEST(Gradcheck, Expand) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::expand(x[0], V{2, 3, 4}); }, {rleaf({3, 1})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::expand(x[0], V{3, -1}); }, {rleaf({4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::expand(x[0], V{2, 2}); }, {rleaf({})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::expand(x[0], V{2, 3}); }, {rleaf({2, 3})}));
}

TEST(Gradcheck, SelectSliceNarrow) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::select_int(x[0], 0, 1); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::select_int(x[0], 1, -1); }, {rleaf({3, 4, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::select_int(x[0], 0, 2); }, {rleaf({5})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::slice_Tensor(x[0], 0, 1, 5, 2); }, {rleaf({6, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::slice_Tensor(x[0], 1, -3); }, {rleaf({2, 5})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::slice_Tensor(x[0], -1, std::nullopt, 2, 3); }, {rleaf({2, 7})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::slice_Tensor(x[0], 0, 0, 100); }, {rleaf({3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::narrow(x[0], 1, 1, 2); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::narrow(x[0], 0, 0, 1); }, {rleaf({3, 4})}));
  // Overlapping views of one input: their gradients add up.
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::add_Tensor(ops::narrow(x[0], 0, 0, 3), ops::narrow(x[0], 0, 1, 3)); },
                {rleaf({4, 2})}));
}

TEST(Gradcheck, SqueezeUnsqueeze) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unsqueeze(x[0], 0); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unsqueeze(x[0], -1); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unsqueeze(x[0], 1); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::squeeze(x[0]); }, {rleaf({1, 3, 1, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::squeeze(x[0]); }, {rleaf({1, 1})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::squeeze_dim(x[0], 2); }, {rleaf({1, 3, 1, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::squeeze_dim(x[0], 1); }, {rleaf({1, 3, 1, 2})}));  // not 1: no-op
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::squeeze_dim(x[0], -4); }, {rleaf({1, 3, 1, 2})}));
}

TEST(Gradcheck, CloneAliasDiagonal) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::clone(x[0]); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::clone(ops::t(x[0])); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::alias(x[0]); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diagonal(x[0]); }, {rleaf({3, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diagonal(x[0], 1); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diagonal(x[0], -1); }, {rleaf({4, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diagonal(x[0], 0, 1, 2); }, {rleaf({2, 3, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diagonal(x[0], 1, -1, 0); }, {rleaf({3, 2, 4})}));
}

// Chains of views: every backward node composes.
TEST(Gradcheck, ViewChains) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor v = ops::select_int(ops::permute(ops::unsqueeze(x[0], 1), V{2, 1, 0}), 1, 0);  // [4, 3]
        return ops::mm(ops::slice_Tensor(v, 0, 1, std::nullopt, 2), ops::expand(x[1], V{3, 2}));
      },
      {rleaf({3, 4}), rleaf({1, 2})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::sum_dim_IntList(ops::diagonal(ops::reshape(ops::t(x[0]), V{3, 3})), V{0}, true);
      },
      {rleaf({3, 3})}));
}

// ---- in-place ops on non-leaf intermediates --------------------------------------------------

TEST(Gradcheck, InplaceAddSub) {
  Fn add_ = [](const T& x) {
    Tensor y = nonleaf(x[0]);
    ops::add__Tensor(y, x[1], 2.5);
    return y;
  };
  EXPECT_TRUE(gradcheck(add_, {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck(add_, {rleaf({2, 3}), rleaf({3})}));  // broadcast other
  EXPECT_TRUE(gradcheck(add_, {rleaf({2, 3}), rleaf({})}));
  EXPECT_TRUE(gradcheck(add_, {rleaf({2, 3}), rand_double({3})}));
  EXPECT_EQ(node_name(add_, {rleaf({3}), rleaf({3})}), "AddBackward0");
  // In place on an intermediate that does not require grad, with a tensor that does.
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = ops::mul_Tensor(x[0], num(1.0));
        ops::add__Tensor(y, x[1]);
        return y;
      },
      {rand_double({2, 3}), rleaf({2, 1})}));
  Fn sub_ = [](const T& x) {
    Tensor y = nonleaf(x[0]);
    ops::sub__Tensor(y, x[1], -2);
    return y;
  };
  EXPECT_TRUE(gradcheck(sub_, {rleaf({2, 3}), rleaf({2, 1})}));
}

TEST(Gradcheck, InplaceMulDiv) {
  Fn mul_ = [](const T& x) {
    Tensor y = nonleaf(x[0]);
    ops::mul__Tensor(y, x[1]);
    return y;
  };
  EXPECT_TRUE(gradcheck(mul_, {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck(mul_, {rleaf({2, 3}), rleaf({3})}));
  EXPECT_TRUE(gradcheck(mul_, {rleaf({2, 3}), rleaf({1, 1})}));
  EXPECT_EQ(node_name(mul_, {rleaf({3}), rleaf({3})}), "MulBackward0");
  // self's old value is what other's gradient needs, even though self was overwritten.
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = ops::mul_Tensor(x[0], x[0]);
        ops::mul__Tensor(y, x[1]);
        ops::mul__Tensor(y, x[1]);
        return y;
      },
      {rleaf({4}), rleaf({4})}));
  Fn div_ = [](const T& x) {
    Tensor y = nonleaf(x[0]);
    ops::div__Tensor(y, x[1]);
    return y;
  };
  EXPECT_TRUE(gradcheck(div_, {rleaf({2, 3}), rleaf({2, 3}, -2.0, 2.0, 0.5)}));
  EXPECT_TRUE(gradcheck(div_, {rleaf({2, 3}), rleaf({3}, -2.0, 2.0, 0.5)}));
}

TEST(Gradcheck, InplaceUnary) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        ops::neg_(y);
        return y;
      },
      {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        ops::exp_(y);
        return y;
      },
      {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        ops::relu_(y);
        return y;
      },
      {rleaf({2, 3}, -1.0, 1.0, 0.05)}));
  for (double e : {2.0, 0.5, -1.5}) {
    SCOPED_TRACE("pow_ exponent " + std::to_string(e));
    EXPECT_TRUE(gradcheck(
        [e](const T& x) {
          Tensor y = nonleaf(x[0]);
          ops::pow__Scalar(y, e);
          return y;
        },
        {rleaf({2, 3}, 0.5, 2.0)}));
  }
}

TEST(Gradcheck, InplaceSqueeze) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        ops::squeeze__dim(y, 1);
        return y;
      },
      {rleaf({3, 1, 2})}));
}

TEST(Gradcheck, InplaceChain) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        ops::add__Tensor(y, x[1]);
        ops::mul__Tensor(y, x[1]);
        ops::sub__Tensor(y, x[0]);
        ops::neg_(y);
        ops::exp_(y);  // saves its result: y must not change in place after this (see Engine tests)
        return ops::mul_Tensor(y, x[0]);
      },
      {rleaf({3}), rleaf({3})}));
}

// An in-place op on the base of a view that already exists: the view's values change, so
// its gradient must flow through the in-place op (PyTorch regenerates the view's grad_fn
// from the base's new history). Here loss = sum(t(clone(x0) * x1) * W).
TEST(Gradcheck, InplaceOnBaseOfExistingView) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        Tensor v = ops::t(y);  // taken before the in-place op
        ops::mul__Tensor(y, x[1]);
        return v;
      },
      {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        Tensor v = ops::select_int(y, 0, 1);
        ops::add__Tensor(y, x[1]);
        return v;
      },
      {rleaf({2, 3}), rleaf({2, 3})}));
}

TEST(Gradcheck, CopyAndFill) {
  // copy_ into a non-leaf: the old value's gradient is zero, src's is the (summed) gradient.
  Fn copy = [](const T& x) {
    Tensor y = nonleaf(x[0]);
    ops::copy_(y, x[1]);
    return ops::mul_Tensor(y, x[0]);  // x[0] also reaches the loss through the product
  };
  EXPECT_TRUE(gradcheck(copy, {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck(copy, {rleaf({2, 3}), rleaf({3})}));  // broadcast src
  EXPECT_TRUE(gradcheck(copy, {rleaf({2, 3}), rleaf({})}));
  EXPECT_EQ(node_name(
                [](const T& x) {
                  Tensor y = nonleaf(x[0]);
                  return ops::copy_(y, x[1]);
                },
                {rleaf({2}), rleaf({2})}),
            "torch::autograd::CopyBackwards");
  // Copy into a fresh tensor that does not require grad: the graph starts at src.
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = ops::zeros(V{2, 3}, ipt::ScalarType::Double);
        ops::copy_(y, x[0]);
        return y;
      },
      {rleaf({2, 1})}));
  // fill_: zero gradient for the old value.
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = nonleaf(x[0]);
        ops::fill__Scalar(y, 2.5);
        return ops::mul_Tensor(y, x[1]);
      },
      {rleaf({2, 3}), rleaf({2, 3})}));
}

// copy_ across dtypes: src's gradient has src's dtype (float32 data, float64 src).
TEST(Gradcheck, CopyAcrossDtypes) {
  Tensor src = leaf(from_values({3}, {1.5, -2.0, 0.25}));
  Tensor dst = ops::zeros(V{2, 3}, ipt::ScalarType::Float);
  ops::copy_(dst, src);
  ASSERT_TRUE(dst.requires_grad());
  Tensor w = from_values({2, 3}, {1, 2, 3, 4, 5, 6}, ipt::ScalarType::Float);
  ipt::autograd::backward(ops::sum(ops::mul_Tensor(dst, w)), std::nullopt, false);
  Tensor g = grad_of(src);
  ASSERT_TRUE(g.defined());
  EXPECT_EQ(g.dtype(), ipt::ScalarType::Double);
  EXPECT_EQ(ipt::to_double_vector(g), (std::vector<double>{5, 7, 9}));
}

// ---- a small network, every op at once ------------------------------------------------------

TEST(Gradcheck, TwoLayerNetwork) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor h = ops::relu(ops::add_Tensor(ops::mm(x[0], x[1]), x[2]));
        Tensor o = ops::matmul(h, x[3]);
        Tensor d = ops::sub_Tensor(o, num(0.5));
        return ops::mean(ops::pow_Tensor_Scalar(d, 2));
      },
      {rleaf({4, 3}), rleaf({3, 5}), rleaf({5}), rleaf({5})}));
}

// Nondifferentiable operators record nothing.
TEST(Gradcheck, DetachStopsGradients) {
  Tensor x = rleaf({3});
  Tensor d = ops::detach(x);
  EXPECT_FALSE(d.requires_grad());
  EXPECT_EQ(ipt::autograd::grad_fn(d), nullptr);
  // d(x * detach(x))/dx = detach(x) only.
  Tensor y = ops::mul_Tensor(x, ops::detach(x));
  ipt::autograd::backward(ops::sum(y), std::nullopt, false);
  EXPECT_EQ(ipt::to_double_vector(grad_of(x)), ipt::to_double_vector(x));
}

}  // namespace
}  // namespace ipt_test
