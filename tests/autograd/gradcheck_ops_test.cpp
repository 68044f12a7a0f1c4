// Finite-difference gradient checks (float64) for the operators added for torch.nn,
// torch.optim and the elementwise / comparison / reduction / shape / creation families
// (see gradcheck.h for what one check does). Values and node names against PyTorch itself are
// checked in tests/runtime/ops_expected_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/ops/scalar_tensor.h"
#include "tests/autograd/gradcheck.h"

namespace ipt_test {
namespace {

using ipt::Scalar;
using T = std::vector<Tensor>;

Tensor longs(const V& sizes, const std::vector<double>& values) {
  return from_values(sizes, values, ipt::ScalarType::Long);
}
Tensor nonleaf(const Tensor& x) { return ops::clone(x); }
Tensor num_tensor(double v) { return ipt::native::wrapped_scalar_tensor(v); }
std::string node_name(const Tensor& out) {
  const auto& fn = ipt::autograd::grad_fn(out);
  return fn ? fn->name() : "(none)";
}

// ---- group 1: torch.nn and torch.optim -------------------------------------------------------

TEST(GradcheckNn, Addmm) {
  auto f = [](Scalar beta, Scalar alpha) {
    return [beta, alpha](const T& x) { return ops::addmm(x[0], x[1], x[2], beta, alpha); };
  };
  EXPECT_TRUE(gradcheck(f(1, 1), {rleaf({3, 2}), rleaf({3, 4}), rleaf({4, 2})}));
  EXPECT_TRUE(gradcheck(f(0.5, -2), {rleaf({3, 2}), rleaf({3, 4}), rleaf({4, 2})}));
  EXPECT_TRUE(gradcheck(f(2, 3), {rleaf({2}), rleaf({3, 4}), rleaf({4, 2})}));     // bias broadcast over rows
  EXPECT_TRUE(gradcheck(f(1, 1), {rleaf({3, 1}), rleaf({3, 4}), rleaf({4, 2})}));  // and over columns
  EXPECT_TRUE(gradcheck(f(0, 1), {rleaf({3, 2}), rleaf({3, 4}), rleaf({4, 2})}));  // beta = 0: self's gradient is 0
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::addmm(x[0], ops::t(x[1]), ops::t(x[2])); },
                        {rleaf({3, 2}), rleaf({4, 3}), rleaf({2, 4})}));
  EXPECT_TRUE(gradcheck(f(1, 1), {rand_double({3, 2}), rleaf({3, 4}), rand_double({4, 2})}));
}

TEST(GradcheckNn, Linear) {
  auto lin = [](const T& x) {
    return ops::linear(x[0], x[1], x.size() > 2 ? std::optional<Tensor>(x[2]) : std::nullopt);
  };
  EXPECT_TRUE(gradcheck(lin, {rleaf({3, 4}), rleaf({2, 4}), rleaf({2})}));
  EXPECT_TRUE(gradcheck(lin, {rleaf({3, 4}), rleaf({2, 4})}));
  EXPECT_TRUE(gradcheck(lin, {rleaf({2, 3, 4}), rleaf({5, 4}), rleaf({5})}));  // fused 3-D path
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::linear(ops::transpose_int(x[0], 0, 1), x[1], x[2]); },
                        {rleaf({3, 2, 4}), rleaf({5, 4}), rleaf({5})}));  // matmul + add_
  EXPECT_TRUE(gradcheck(lin, {rleaf({4}), rleaf({3, 4}), rleaf({3})}));
  EXPECT_TRUE(gradcheck(lin, {rleaf({4}), rleaf({3, 4})}));
  EXPECT_EQ(node_name(lin({rleaf({3, 4}), rleaf({2, 4}), rleaf({2})})), "AddmmBackward0");
  EXPECT_EQ(node_name(lin({rleaf({2, 3, 4}), rleaf({5, 4}), rleaf({5})})), "UnsafeViewBackward0");
  EXPECT_EQ(node_name(lin({rleaf({4}), rleaf({3, 4}), rleaf({3})})), "UnsafeViewBackward0");  // addmm too (2.15)
}

TEST(GradcheckNn, SoftmaxAndLogSoftmax) {
  for (int64_t d : {0, 1, -1}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    EXPECT_TRUE(gradcheck([d](const T& x) { return ops::_softmax(x[0], d, false); }, {rleaf({3, 4}, -3, 3)}));
    EXPECT_TRUE(gradcheck([d](const T& x) { return ops::_log_softmax(x[0], d, false); }, {rleaf({3, 4}, -3, 3)}));
    EXPECT_TRUE(gradcheck([d](const T& x) { return ops::softmax_int(x[0], d); }, {rleaf({2, 3, 2})}));
    EXPECT_TRUE(gradcheck([d](const T& x) { return ops::log_softmax_int(x[0], d); }, {rleaf({2, 3, 2})}));
  }
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::softmax_int(ops::t(x[0]), 1); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::softmax_int(x[0], 0); }, {rleaf({})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log_softmax_int(x[0], 0); }, {rleaf({5})}));
}

TEST(GradcheckNn, NllLoss) {
  Tensor tgt = longs({4}, {1, 0, 4, 2});
  for (int64_t red : {0, 1, 2}) {
    SCOPED_TRACE("reduction " + std::to_string(red));
    EXPECT_TRUE(gradcheck([&](const T& x) { return ops::nll_loss_nd(x[0], tgt, std::nullopt, red); }, {rleaf({4, 5})}));
    Tensor w = from_values({5}, {1.0, 2.0, 0.5, 1.5, 3.0});
    EXPECT_TRUE(gradcheck([&](const T& x) { return ops::nll_loss_nd(x[0], tgt, w, red); }, {rleaf({4, 5})}));
    EXPECT_TRUE(gradcheck([&](const T& x) { return ops::nll_loss_nd(x[0], tgt, w, red, 0); }, {rleaf({4, 5})}));
  }
  Tensor t0 = longs({}, {3});
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::nll_loss_nd(x[0], t0); }, {rleaf({5})}));
  Tensor t3 = longs({2, 4}, {0, 1, 2, 0, 2, 2, 1, 0});
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::nll_loss_nd(x[0], t3); }, {rleaf({2, 3, 4})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::nll_loss_nd(x[0], t3, std::nullopt, 0); }, {rleaf({2, 3, 4})}));
  Tensor t4 = longs({2, 2, 2}, {0, 1, 2, 0, 2, 2, 1, -100});
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::nll_loss_nd(x[0], t4); }, {rleaf({2, 3, 2, 2})}));
}

TEST(GradcheckNn, CrossEntropy) {
  Tensor tgt = longs({4}, {1, 0, 4, 2});
  for (int64_t red : {0, 1, 2}) {
    SCOPED_TRACE("reduction " + std::to_string(red));
    EXPECT_TRUE(
        gradcheck([&](const T& x) { return ops::cross_entropy_loss(x[0], tgt, std::nullopt, red); }, {rleaf({4, 5})}));
    // Class probabilities (the target's gradient too).
    EXPECT_TRUE(gradcheck(
        [&](const T& x) { return ops::cross_entropy_loss(x[0], ops::softmax_int(x[1], 1), std::nullopt, red); },
        {rleaf({3, 4}), rleaf({3, 4})}));
  }
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::cross_entropy_loss(x[0], x[1], x[2], 1, -100, 0.3); },
                        {rleaf({3, 4}), rleaf({3, 4}, 0.1, 1.0), rleaf({4}, 0.5, 2.0)}));
  // Label smoothing with class indices (weights, ignored targets, every reduction).
  Tensor w = from_values({5}, {1.0, 2.0, 0.5, 1.5, 3.0});
  for (int64_t red : {0, 1, 2}) {
    SCOPED_TRACE("label smoothing, reduction " + std::to_string(red));
    EXPECT_TRUE(gradcheck([&](const T& x) { return ops::cross_entropy_loss(x[0], tgt, std::nullopt, red, -100, 0.1); },
                          {rleaf({4, 5})}));
    EXPECT_TRUE(
        gradcheck([&](const T& x) { return ops::cross_entropy_loss(x[0], tgt, w, red, 0, 0.3); }, {rleaf({4, 5})}));
  }
}

TEST(GradcheckNn, MseLoss) {
  for (int64_t red : {0, 1, 2}) {
    SCOPED_TRACE("reduction " + std::to_string(red));
    EXPECT_TRUE(
        gradcheck([red](const T& x) { return ops::mse_loss(x[0], x[1], red); }, {rleaf({3, 4}), rleaf({3, 4})}));
    EXPECT_TRUE(gradcheck([red](const T& x) { return ops::mse_loss(x[0], x[1], red); }, {rleaf({3, 1}), rleaf({4})}));
  }
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mse_loss(x[0], x[1]); }, {rleaf({3}), rand_double({3})}));
}

TEST(GradcheckNn, Activations) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sigmoid(x[0]); }, {rleaf({2, 3}, -4, 4)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::tanh(x[0]); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sqrt(x[0]); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sigmoid_(nonleaf(x[0])); }, {rleaf({2, 3}, -4, 4)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::tanh_(nonleaf(x[0])); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sqrt_(nonleaf(x[0])); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::tanh(ops::t(x[0])); }, {rleaf({2, 3})}));
}

TEST(GradcheckNn, AddcmulAddcdiv) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::addcmul(x[0], x[1], x[2], 0.5); },
                        {rleaf({2, 3}), rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::addcmul(x[0], x[1], x[2], -2); },
                        {rleaf({3}), rleaf({2, 1}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::addcdiv(x[0], x[1], x[2], 0.5); },
                        {rleaf({2, 3}), rleaf({2, 3}), rleaf({2, 3}, 0.5, 2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::addcdiv(x[0], x[1], x[2], 3); },
                        {rleaf({1}), rleaf({2, 1}), rleaf({3}, 0.5, 2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::addcmul_(nonleaf(x[0]), x[1], x[2], 0.25); },
                        {rleaf({2, 3}), rleaf({3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::addcdiv_(nonleaf(x[0]), x[1], x[2], -0.5); },
                        {rleaf({2, 3}), rleaf({2, 3}), rleaf({3}, 0.5, 2)}));
  // Adam's update, as torch.optim.Adam writes it: exp_avg_sq.mul_(b2).addcmul_(g, g, value=1 - b2).
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor v = nonleaf(x[0]);
        ops::mul__Tensor(v, num_tensor(0.999));
        return ops::addcmul_(v, x[1], x[1], 0.001);
      },
      {rleaf({4}), rleaf({4})}));
}

TEST(GradcheckNn, DivScalarZeroConj) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::div_Scalar(x[0], 4); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::div_Scalar(x[0], -0.5); }, {rleaf({3})}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::mul_Tensor(ops::zero_(nonleaf(x[0])), x[1]); }, {rleaf({3}), rleaf({3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::conj(x[0]); }, {rleaf({3})}));
}

// ---- group 2: elementwise math ----------------------------------------------------------------

TEST(GradcheckElementwise, Unary) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sin(x[0]); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cos(x[0]); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::tan(x[0]); }, {rleaf({2, 3}, -1.2, 1.2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log(x[0]); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::rsqrt(x[0]); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::abs(x[0]); }, {rleaf({2, 3}, -2, 2, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::floor(x[0]), x[0]); }, {rleaf({5}, -3, 3, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::ceil(x[0]), x[0]); }, {rleaf({5}, -3, 3, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::sign(x[0]), x[0]); }, {rleaf({5}, -3, 3, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sin(ops::t(x[0])); }, {rleaf({2, 3})}));
}

TEST(GradcheckElementwise, UnaryInPlace) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sin_(nonleaf(x[0])); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cos_(nonleaf(x[0])); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::tan_(nonleaf(x[0])); }, {rleaf({2, 3}, -1.2, 1.2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log_(nonleaf(x[0])); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::rsqrt_(nonleaf(x[0])); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::abs_(nonleaf(x[0])); }, {rleaf({2, 3}, -2, 2, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::floor_(nonleaf(x[0])), x[0]); },
                        {rleaf({4}, -3, 3, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::ceil_(nonleaf(x[0])), x[0]); },
                        {rleaf({4}, -3, 3, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::sign_(nonleaf(x[0])), x[0]); },
                        {rleaf({4}, -3, 3, 0.05)}));
}

// The inverse trigonometric and hyperbolic functions, the logarithms, expm1 and erf, in double
// against finite differences, out of place and (where PyTorch has a formula for it) in place.
TEST(GradcheckElementwise, UnaryMathFamily) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::asin(x[0]); }, {rleaf({2, 3}, -0.9, 0.9)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::acos(x[0]); }, {rleaf({2, 3}, -0.9, 0.9)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::atan(x[0]); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::sinh(x[0]); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cosh(x[0]); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::asinh(x[0]); }, {rleaf({2, 3}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::acosh(x[0]); }, {rleaf({2, 3}, 1.2, 4)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::atanh(x[0]); }, {rleaf({2, 3}, -0.9, 0.9)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log2(x[0]); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log10(x[0]); }, {rleaf({2, 3}, 0.2, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log1p(x[0]); }, {rleaf({2, 3}, -0.8, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::expm1(x[0]); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::erf(x[0]); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::round(x[0]), x[0]); }, {rleaf({5}, -3, 3, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::mul_Tensor(ops::trunc(x[0]), x[0]); }, {rleaf({5}, -3, 3, 0.05)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::asin_(nonleaf(x[0])); }, {rleaf({2, 3}, -0.9, 0.9)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::expm1_(nonleaf(x[0])); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log1p_(nonleaf(x[0])); }, {rleaf({2, 3}, -0.8, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::erf(ops::t(x[0])); }, {rleaf({2, 3}, -2, 2)}));
}

// maximum / minimum away from ties, atan2 and fmod (away from the jumps), broadcast.
TEST(GradcheckElementwise, BinaryMathFamily) {
  Tensor a = from_values({4}, {-1.5, 0.3, 2.2, -0.4}), b = from_values({4}, {0.5, -0.9, 1.1, 0.2});
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::maximum(x[0], x[1]); }, {leaf(ops::clone(a)), leaf(ops::clone(b))}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::minimum(x[0], x[1]); }, {leaf(ops::clone(a)), leaf(ops::clone(b))}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::atan2(x[0], x[1]); }, {rleaf({2, 3}, 0.2, 2), rleaf({3}, 0.3, 2)}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::atan2_(nonleaf(x[0]), x[1]); }, {rleaf({3}, 0.2, 2), rleaf({3}, 0.3, 2)}));
  Tensor num = from_values({3}, {2.3, -3.7, 5.1}), den = from_values({3}, {1.1, 1.6, -2.2});
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::fmod_Tensor(x[0], x[1]); },
                        {leaf(ops::clone(num)), leaf(ops::clone(den))}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::fmod_Scalar(x[0], 1.5); }, {leaf(ops::clone(num))}));
}

TEST(GradcheckElementwise, Clamp) {
  // Values kept away from the bounds (finite differences straddling a kink are meaningless).
  Tensor x = from_values({6}, {-2.0, -0.7, -0.2, 0.3, 0.8, 1.6});
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::clamp(x[0], -0.5, 1.0); }, {leaf(ops::clone(x))}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::clamp(x[0], 0.0); }, {leaf(ops::clone(x))}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::clamp(x[0], std::nullopt, 0.5); }, {leaf(ops::clone(x))}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::clamp_(nonleaf(x[0]), -0.5, 1.0); }, {leaf(ops::clone(x))}));
  // At a bound the gradient stops (PyTorch 2.15's > / <; 1.13 let it pass), as in
  // ops_expected.json's grad_at_bounds.
  Tensor b = leaf(from_values({3}, {-0.5, 0.2, 1.0}));
  ipt::autograd::backward(ops::sum(ops::clamp(b, -0.5, 1.0)), std::nullopt, false);
  EXPECT_EQ(ipt::to_double_vector(grad_of(b)), (std::vector<double>{0, 1, 0}));
}

TEST(GradcheckElementwise, Where) {
  Tensor c = from_values({2, 3}, {1, 0, 1, 0, 0, 1}, ipt::ScalarType::Bool);
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::where_self(c, x[0], x[1]); }, {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::where_self(c, x[0], x[1]); }, {rleaf({2, 1}), rleaf({3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::where_self(c, x[0], x[1]); }, {rleaf({}), rand_double({2, 3})}));
  Tensor c1 = from_values({2, 1}, {1, 0}, ipt::ScalarType::Bool);
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::where_self(c1, x[0], x[1]); }, {rleaf({3}), rleaf({2, 3})}));
}

// ---- group 3: masks and indexing ----------------------------------------------------------------

using Idx = std::vector<std::optional<Tensor>>;

TEST(GradcheckIndexing, MaskedFill) {
  Tensor m = from_values({2, 3}, {1, 0, 1, 0, 0, 1}, ipt::ScalarType::Bool);
  Tensor row = from_values({3}, {1, 0, 1}, ipt::ScalarType::Bool);
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::masked_fill__Scalar(nonleaf(x[0]), m, 2.0); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::masked_fill__Scalar(nonleaf(x[0]), row, 0); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::masked_fill_Scalar(x[0], m, -1); }, {rleaf({2, 3})}));
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::masked_fill_Scalar(x[0], m, 0.5); }, {rleaf({3})}));  // self broadcast
}

TEST(GradcheckIndexing, Index) {
  Tensor i = longs({3}, {2, 0, 2});  // repeated: gradients add up
  Tensor j = longs({2, 1}, {1, 0});
  Tensor mask = from_values({4}, {1, 0, 1, 1}, ipt::ScalarType::Bool);
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_Tensor(x[0], Idx{i}); }, {rleaf({3, 2})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_Tensor(x[0], Idx{j, i}); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_Tensor(x[0], Idx{std::nullopt, i}); }, {rleaf({2, 3, 2})}));
  EXPECT_TRUE(gradcheck(
      [&](const T& x) {
        return ops::index_Tensor(x[0], Idx{j, std::nullopt, i});
      },
      {rleaf({2, 2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_Tensor(x[0], Idx{mask}); }, {rleaf({4, 2})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_Tensor(ops::t(x[0]), Idx{mask}); }, {rleaf({2, 4})}));
}

TEST(GradcheckIndexing, IndexPut) {
  Tensor i = longs({2}, {3, 0});
  Tensor dup = longs({3}, {1, 1, 3});
  Tensor mask = from_values({2, 3}, {1, 0, 1, 0, 0, 1}, ipt::ScalarType::Bool);
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_put_(nonleaf(x[0]), Idx{i}, x[1]); },
                        {rleaf({4, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::index_put_(nonleaf(x[0]), Idx{i}, x[1]); }, {rleaf({4, 3}), rleaf({3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_put_(nonleaf(x[0]), Idx{mask}, x[1]); },
                        {rleaf({2, 3}), rleaf({})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_put_(nonleaf(x[0]), Idx{dup}, x[1], true); },
                        {rleaf({4}), rleaf({3})}));
  EXPECT_TRUE(gradcheck(
      [&](const T& x) {
        return ops::index_put(x[0], Idx{std::nullopt, i}, x[1]);
      },
      {rleaf({2, 4}), rleaf({2, 2})}));
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::index_put(x[0], Idx{dup}, x[1], true); }, {rleaf({4}), rleaf({3})}));
}

TEST(GradcheckIndexing, IndexSelectAndIndexAdd) {
  Tensor i = longs({3}, {2, 0, 2});
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_select(x[0], 0, i); }, {rleaf({3, 2})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_select(x[0], 1, i); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_select(x[0], -1, longs({}, {1})); }, {rleaf({2, 2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_add_(nonleaf(x[0]), 0, i, x[1]); },
                        {rleaf({3, 2}), rleaf({3, 2})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_add_(nonleaf(x[0]), 1, i, x[1], -1.5); },
                        {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::index_add(x[0], 0, longs({1}, {0}), x[1]); }, {rleaf({}), rleaf({})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_add(x[0], 0, i, x[1], 2); }, {rleaf({4}), rleaf({3})}));
}

TEST(GradcheckIndexing, GatherScatterAndMaskedSelect) {
  Tensor i = longs({2, 2}, {2, 0, 1, 1});  // a duplicate in its second row
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::gather(x[0], 1, i); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::gather(x[0], 0, longs({1, 3}, {1, 0, 1})); }, {rleaf({2, 3})}));
  Tensor u = longs({2, 2}, {2, 0, 1, 0});  // scatter: distinct targets per row
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::scatter_src(x[0], 1, u, x[1]); }, {rleaf({2, 3}), rleaf({2, 2})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::scatter_value(x[0], 1, u, 2.5); }, {rleaf({2, 3})}));
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::scatter_add(x[0], 1, i, x[1]); }, {rleaf({2, 3}), rleaf({2, 2})}));
  EXPECT_TRUE(gradcheck(
      [&](const T& x) {
        return ops::scatter_add_(nonleaf(x[0]), 0, longs({1, 3}, {1, 0, 1}), x[1]);
      },
      {rleaf({2, 3}), rleaf({1, 3})}));
  Tensor m = from_values({2, 3}, {1, 0, 1, 0, 0, 1}, ipt::ScalarType::Bool);
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::masked_select(x[0], m); }, {rleaf({2, 3})}));
  Tensor row = from_values({3}, {0, 1, 1}, ipt::ScalarType::Bool);  // broadcast mask
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::masked_select(x[0], row); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::masked_select(x[0], m); }, {rleaf({3})}));  // broadcast self
}

// ---- group 4: reductions ------------------------------------------------------------------------

TEST(GradcheckReductions, MaxMin) {
  // Distinct values (ties are checked against PyTorch's even split in ops_expected.json).
  Tensor x = from_values({2, 3}, {0.5, -1.2, 2.0, 1.1, 0.3, -0.4});
  for (bool keepdim : {false, true}) {
    EXPECT_TRUE(
        gradcheck([&](const T& v) { return std::get<0>(ops::max_dim(v[0], 1, keepdim)); }, {leaf(ops::clone(x))}));
    EXPECT_TRUE(
        gradcheck([&](const T& v) { return std::get<0>(ops::min_dim(v[0], 0, keepdim)); }, {leaf(ops::clone(x))}));
  }
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::max(v[0]); }, {leaf(ops::clone(x))}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::min(v[0]); }, {leaf(ops::clone(x))}));
  EXPECT_TRUE(gradcheck([](const T& v) { return std::get<0>(ops::max_dim(ops::t(v[0]), -1)); }, {leaf(ops::clone(x))}));
  // The indices output has no history.
  auto [values, indices] = ops::max_dim(leaf(ops::clone(x)), 1);
  EXPECT_EQ(node_name(values), "MaxBackward0");
  EXPECT_FALSE(indices.requires_grad());
}

TEST(GradcheckReductions, Prod) {
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::prod(v[0]); }, {rleaf({2, 3}, 0.5, 1.5)}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::prod(v[0]); }, {leaf(from_values({3}, {2.0, 0.0, 3.0}))}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::prod_dim_int(v[0], 1); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::prod_dim_int(v[0], 0, true); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::prod_dim_int(v[0], -1); },
                        {leaf(from_values({2, 3}, {0.0, 1.5, 2.0, 0.0, 0.0, 1.0}))}));
}

TEST(GradcheckReductions, AmaxAminLogsumexp) {
  // Random inputs have no ties, where amax's gradient (split between equal elements) has a kink.
  const std::vector<int64_t> d1{1}, d01{0, 1}, none{};
  EXPECT_TRUE(gradcheck([&](const T& v) { return ops::amax(v[0], d1); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([&](const T& v) { return ops::amin(v[0], d01, true); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([&](const T& v) { return ops::amax(v[0], none); }, {rleaf({3, 2}, -2, 2)}));
  EXPECT_TRUE(gradcheck([&](const T& v) { return ops::logsumexp(v[0], d1); }, {rleaf({2, 3}, -2, 2)}));
  EXPECT_TRUE(gradcheck([&](const T& v) { return ops::logsumexp(v[0], d01, true); }, {rleaf({2, 3}, -2, 2)}));
}

TEST(GradcheckReductions, VarStd) {
  for (int64_t c : {0, 1, 2}) {
    SCOPED_TRACE("correction " + std::to_string(c));
    EXPECT_TRUE(gradcheck([c](const T& v) { return ops::var_correction(v[0], std::nullopt, c); }, {rleaf({3, 4})}));
    EXPECT_TRUE(gradcheck([c](const T& v) { return ops::std_correction(v[0], V{1}, c); }, {rleaf({3, 4})}));
    EXPECT_TRUE(gradcheck([c](const T& v) { return ops::var_correction(v[0], V{0, 2}, c, true); }, {rleaf({3, 2, 4})}));
  }
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::std(v[0]); }, {rleaf({5})}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::var_dim(v[0], V{-1}, false, true); }, {rleaf({2, 3})}));
}

TEST(GradcheckReductions, Norm) {
  const double inf = std::numeric_limits<double>::infinity();
  for (double p : {2.0, 1.0, 3.0, 1.5, 0.5, inf, -inf}) {
    SCOPED_TRACE("p " + std::to_string(p));
    EXPECT_TRUE(gradcheck([p](const T& v) { return ops::norm_Scalar(v[0], p); }, {rleaf({2, 3}, -2, 2, 0.1)}));
    EXPECT_TRUE(
        gradcheck([p](const T& v) { return ops::norm_ScalarOpt_dim(v[0], p, V{1}); }, {rleaf({2, 3}, -2, 2, 0.1)}));
    EXPECT_TRUE(gradcheck([p](const T& v) { return ops::norm_ScalarOpt_dim(v[0], p, V{0}, true); },
                          {rleaf({2, 3}, -2, 2, 0.1)}));
  }
}

TEST(GradcheckReductions, Cumsum) {
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::cumsum(v[0], 0); }, {rleaf({3, 2})}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::cumsum(v[0], -1); }, {rleaf({2, 3, 2})}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::cumsum(ops::t(v[0]), 1); }, {rleaf({3, 2})}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::cumsum(v[0], 0); }, {rleaf({})}));
}

// ---- group 5: joining, splitting and repeating ---------------------------------------------------

// Sum of each piece times a different number, so every piece's gradient is checked.
Tensor weigh_pieces(const std::vector<Tensor>& pieces) {
  Tensor total;
  for (size_t i = 0; i < pieces.size(); ++i) {
    Tensor t = ops::sum(ops::mul_Tensor(pieces[i], num_tensor(1.0 + static_cast<double>(i))));
    total = total.defined() ? ops::add_Tensor(total, t) : t;
  }
  return total;
}

TEST(GradcheckShape, CatStack) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cat(T{x[0], x[1]}); }, {rleaf({2, 3}), rleaf({1, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cat(T{x[0], x[1], x[0]}, -1); }, {rleaf({2, 1}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cat(T{x[0], x[1]}, 1); }, {rand_double({2, 2}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::stack(T{x[0], x[1]}); }, {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::stack(T{x[0], x[1]}, 2); }, {rleaf({2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::stack(T{x[0], x[0]}); }, {rleaf({})}));
}

TEST(GradcheckShape, SplitChunkUnbind) {
  EXPECT_TRUE(gradcheck([](const T& x) { return weigh_pieces(ops::split_Tensor(x[0], 2)); }, {rleaf({5, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return weigh_pieces(ops::split_Tensor(x[0], 2, 1)); }, {rleaf({2, 3})}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::split_Tensor(x[0], 2)[1]; }, {rleaf({5, 2})}));  // others get zeros
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return weigh_pieces(ops::split_with_sizes(x[0], V{1, 0, 3}));
      },
      {rleaf({4, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return weigh_pieces(ops::chunk(x[0], 3, -1)); }, {rleaf({2, 5})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return weigh_pieces(ops::unbind_int(x[0], 1)); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unbind_int(x[0])[2]; }, {rleaf({3, 2})}));
  auto pieces = ops::split_Tensor(rleaf({4}), 2);
  EXPECT_EQ(node_name(pieces[0]), "SplitBackward0");
  EXPECT_EQ(ipt::autograd::autograd_meta(pieces[1]).output_nr, 1u);
}

TEST(GradcheckShape, RepeatMovedimUnsqueeze) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::repeat(x[0], V{2, 3}); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::repeat(x[0], V{2, 1, 2}); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::repeat(x[0], V{4}); }, {rleaf({})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::repeat(ops::t(x[0]), V{1, 2}); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::movedim_int(x[0], 0, -1); }, {rleaf({2, 3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unsqueeze_(nonleaf(x[0]), 1); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unsqueeze_(nonleaf(ops::t(x[0])), -1); }, {rleaf({2, 3})}));
}

TEST(GradcheckShape, IndexCopy) {
  Tensor i = longs({2}, {2, 0});
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_copy_(nonleaf(x[0]), 0, i, x[1]); },
                        {rleaf({3, 2}), rleaf({2, 2})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return ops::index_copy(x[0], 1, i, x[1]); }, {rleaf({2, 3}), rleaf({2, 2})}));
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::index_copy(x[0], 0, longs({1}, {1}), x[1]); }, {rleaf({3}), rleaf({})}));
}

// ---- edges: only differentiable inputs appear in next_functions (as PyTorch) --------------------

TEST(GradcheckEdges, NonDifferentiableInputsHaveNoEdge) {
  auto edges = [](const Tensor& out) { return ipt::autograd::grad_fn(out)->next_edges.size(); };
  Tensor x = rleaf({3, 4});
  Tensor tgt = longs({3}, {0, 3, 1});
  EXPECT_EQ(edges(std::get<0>(ops::nll_loss_forward(x, tgt, std::nullopt, 1, -100))), 1u);
  Tensor m = from_values({3, 4}, std::vector<double>(12, 1.0), ipt::ScalarType::Bool);
  EXPECT_EQ(edges(ops::where_self(m, x, x)), 2u);
  EXPECT_EQ(edges(ops::masked_fill_Scalar(x, m, 0)), 1u);
  EXPECT_EQ(edges(ops::index_select(x, 1, tgt)), 1u);
  EXPECT_EQ(edges(ops::mse_loss(x, rleaf({3, 4}))), 2u);  // both inputs of mse_loss are differentiable
}

TEST(GradcheckNn, Remainder) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::remainder_Scalar(x[0], 0.7); },
                        {leaf(from_values({4}, {0.5, 1.0, -0.3, 2.9}))}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::remainder_Tensor(x[0], x[1]); },
                        {leaf(from_values({3}, {2.3, -1.1, 5.2})), leaf(from_values({3}, {0.7, 0.9, -1.5}))}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::remainder__Tensor(nonleaf(x[0]), x[1]); },
                        {leaf(from_values({2}, {2.3, -1.1})), leaf(from_values({1}, {0.7}))}));
}

}  // namespace
}  // namespace ipt_test
