#pragma once
// Test helpers for autograd: float64 tensors with fixed random values, leaves, and a
// finite-difference gradient check (like torch.autograd.gradcheck, one scalar loss).
//
// gradcheck(f, inputs): loss = (f(inputs) * W).sum() for fixed random weights W of f's output
// shape. The analytical gradients come from one ipt::autograd::backward of that loss (each
// input that requires grad gets .grad); the numerical ones from central differences
// (eps 1e-6) of the same loss, evaluated under no_grad by perturbing one storage element of
// one input at a time. Inputs that do not require grad must end with no .grad.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/autograd/engine.h"
#include "core/autograd/node.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/tensor/index_math.h"
#include "generated/ops.h"

namespace ipt_test {

using ipt::Tensor;
namespace ops = ipt::ops;
using V = std::vector<int64_t>;
using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

inline std::mt19937_64& test_rng() {
  static std::mt19937_64 g(20241130);
  return g;
}

// A contiguous float64 tensor with values uniform in [lo, hi]; values with |v| < min_abs are
// pushed out to +-min_abs (keeps relu away from its kink, divisors away from 0).
inline Tensor rand_double(const V& sizes, double lo = -1.0, double hi = 1.0, double min_abs = 0.0) {
  Tensor t = ops::empty_memory_format(sizes, ipt::ScalarType::Double);
  std::uniform_real_distribution<double> u(lo, hi);
  double* p = t.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = u(test_rng());
    if (std::abs(v) < min_abs) v = v < 0 ? -min_abs : min_abs;
    p[i] = v;
  }
  return t;
}

inline Tensor from_values(const V& sizes, const std::vector<double>& values,
                          ipt::ScalarType dtype = ipt::ScalarType::Double) {
  Tensor t = ops::empty_memory_format(sizes, ipt::ScalarType::Double);
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size());
  for (int64_t i = 0; i < t.numel(); ++i) t.data_ptr<double>()[i] = values[static_cast<size_t>(i)];
  if (dtype == ipt::ScalarType::Double) return t;
  Tensor c = ops::empty_memory_format(sizes, dtype);
  return ops::copy_(c, t);
}

inline Tensor leaf(Tensor t) {
  t.impl()->set_requires_grad(true);
  return t;
}

// A random leaf that requires grad.
inline Tensor rleaf(const V& sizes, double lo = -1.0, double hi = 1.0, double min_abs = 0.0) {
  return leaf(rand_double(sizes, lo, hi, min_abs));
}

inline Tensor grad_of(const Tensor& t) { return ipt::autograd::autograd_meta(t).grad; }

inline std::string shape_str(const V& s) {
  std::ostringstream o;
  o << "[";
  for (size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
  o << "]";
  return o.str();
}

// Storage element (offset into data_ptr<double>) of logical element `linear` of `t`.
inline int64_t storage_index(const Tensor& t, int64_t linear) {
  int64_t off = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    const int64_t s = t.sizes()[static_cast<size_t>(d)];
    off += (linear % s) * t.strides()[static_cast<size_t>(d)];
    linear /= s;
  }
  return off;
}

struct GradcheckOptions {
  double eps = 1e-6;
  double rtol = 1e-5;
  double atol = 1e-7;
};

inline testing::AssertionResult gradcheck(const Fn& f, const std::vector<Tensor>& inputs, GradcheckOptions opt = {}) {
  using ipt::autograd::autograd_meta;
  for (const Tensor& in : inputs) {
    if (in.dtype() != ipt::ScalarType::Double) return testing::AssertionFailure() << "gradcheck needs float64 inputs";
    autograd_meta(in).grad = Tensor();
  }

  // Analytical: one backward of (f(inputs) * W).sum().
  Tensor out = f(inputs);
  bool any = false;
  for (const Tensor& in : inputs) any = any || in.requires_grad();
  if (!out.requires_grad() && any) return testing::AssertionFailure() << "output does not require grad";
  if (out.dtype() != ipt::ScalarType::Double) return testing::AssertionFailure() << "output is not float64";
  const V out_sizes = out.sizes();
  const Tensor w = rand_double(out_sizes, -1.0, 1.0);
  const std::vector<double> wv = ipt::to_double_vector(w);
  Tensor loss = ops::sum(ops::mul_Tensor(out, w));
  ipt::autograd::backward(loss, std::nullopt, false);

  auto numeric_loss = [&]() {
    ipt::NoGradGuard no_grad;
    Tensor o = f(inputs);
    if (o.sizes() != out_sizes) throw std::runtime_error("output shape changed");
    std::vector<double> ov = ipt::to_double_vector(o);
    double s = 0;
    for (size_t i = 0; i < ov.size(); ++i) s += ov[i] * wv[i];
    return s;
  };

  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor& in = inputs[k];
    const Tensor g = grad_of(in);
    if (!in.requires_grad()) {
      if (g.defined()) return testing::AssertionFailure() << "input " << k << " does not require grad but got .grad";
      continue;
    }
    if (!g.defined()) return testing::AssertionFailure() << "input " << k << " got no .grad";
    if (g.sizes() != in.sizes())
      return testing::AssertionFailure() << "input " << k << ": .grad has shape " << shape_str(g.sizes())
                                         << ", input has " << shape_str(in.sizes());
    if (g.dtype() != ipt::ScalarType::Double)
      return testing::AssertionFailure() << "input " << k << ": .grad is not float64";
    const std::vector<double> gv = ipt::to_double_vector(g);
    double* data = in.data_ptr<double>();
    for (int64_t i = 0; i < in.numel(); ++i) {
      double& x = data[storage_index(in, i)];
      const double saved = x;
      x = saved + opt.eps;
      const double plus = numeric_loss();
      x = saved - opt.eps;
      const double minus = numeric_loss();
      x = saved;
      const double num = (plus - minus) / (2 * opt.eps);
      const double ana = gv[static_cast<size_t>(i)];
      if (!(std::abs(ana - num) <= opt.atol + opt.rtol * std::max(std::abs(num), std::abs(ana))))
        return testing::AssertionFailure()
               << "input " << k << " " << shape_str(in.sizes()) << ", element " << i << ": analytical " << ana
               << " vs numerical " << num << " (diff " << std::abs(ana - num) << ")";
    }
  }
  return testing::AssertionSuccess();
}

}  // namespace ipt_test
