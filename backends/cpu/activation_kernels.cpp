// CPU kernels of the activations gelu, elu, leaky_relu and hardtanh and their backward operators,
// computing what PyTorch 2.15 computes (Note [Activations' bits]).
//
// Note [Activations' bits]
// PyTorch's kernels are cpu_kernel_vec loops (Note [cpu_kernel_vec's tail] in vml.h): whole
// chunks of two vectors of a contiguous run get the vector lambda, the rest of the run and every
// strided element the scalar one. The two differ: the vector lambda calls SLEEF (exp, expm1,
// tanh; double erf) or, for float erf, PyTorch's own polynomial; the scalar lambda calls glibc.
// The compiler fused some multiply-adds of each (read off PyTorch's machine code, and checked
// against 2.15 on 300,000 inputs of each): those are the std::fma calls here, and this file is
// compiled so that the compiler fuses nothing else. A float gelu (and its backward) without the
// tanh approximation on a contiguous tensor of more than one element is oneDNN's eltwise_gelu_erf
// instead, whose AVX2 kernel computes its own erf and exp; that is onednn_gelu.h. float16 and
// bfloat16 run the float recipes and are rounded.
#include <bit>
#include <cmath>
#include <cstdint>

#include "backends/cpu/activation_loops.h"
#include "backends/cpu/gelu_avx2.h"
#include "backends/cpu/onednn_gelu.h"
#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/pointwise_loops.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using namespace activation;

// PyTorch's Vectorized<float>::erf (a polynomial in t = 1 / (1 + p|x|) times exp(-x^2), SLEEF's);
// Vectorized<double>::erf is SLEEF's.
template <typename C>
C vec_erf(C x) {
  if constexpr (std::is_same_v<C, double>) {
    return cpu::vml::erf(x);
  } else {
    const float a = std::fabs(x);
    const float t = 1.0f / std::fma(0.3275911f, a, 1.0f);
    const float r =
        std::fma(std::fma(std::fma(std::fma(1.061405429f, t, -1.453152027f), t, 1.421413741f), t, -0.284496736f), t,
                 0.254829592f);
    const float e = sleef_exp(-(x * x));
    const float v = std::fma((-e) * t, r, 1.0f);
    return std::bit_cast<float>(std::bit_cast<uint32_t>(v) ^ (std::bit_cast<uint32_t>(x) & 0x80000000u));
  }
}

// ---- gelu -----------------------------------------------------------------------------------
bool gelu_tanh(std::string_view approximate) { return approximate == "tanh"; }

template <typename C>
constexpr C kAlpha = static_cast<C>(M_SQRT1_2);
template <typename C>
constexpr C kBeta = static_cast<C>(M_SQRT2* M_2_SQRTPI * 0.5);
template <typename C>
constexpr C kKappa = static_cast<C>(0.044715);
template <typename C>
constexpr C kPdfBeta = static_cast<C>(M_2_SQRTPI* M_SQRT1_2 * 0.5);

struct GeluErf {
  template <typename C, bool>
  C vec(C x) const {
    return (x * C(0.5)) * (C(1) + vec_erf(x * kAlpha<C>));
  }
  template <typename C>
  C scalar(C x) const {
    return (x * C(0.5)) * (C(1) + std::erf(x * kAlpha<C>));
  }
};
struct GeluTanh {
  template <typename C>
  static C inner(C x) {
    return kBeta<C> * std::fma(kKappa<C>, (x * x) * x, x);
  }
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C x) const {
    using L = Lane<C>;
    const C inner = C(kBeta<L>) * fmadd(C(kKappa<L>), (x * x) * x, x);
    return (C(0.5) * x) * (C(1) + sleef_tanh(inner));
  }
  template <typename C>
  C scalar(C x) const {
    return (C(0.5) * x) * (C(1) + std::tanh(inner(x)));
  }
};
struct GeluErfBackward {  // (grad, self)
  template <typename C, bool reduced>
  C vec(C dy, C x) const {
    const C cdf = C(0.5) * (C(1) + vec_erf(x * kAlpha<C>));
    const C pdf = kPdfBeta<C> * sleef_exp((x * x) * C(-0.5));
    if constexpr (reduced) return dy * (cdf + x * pdf);
    else return dy * std::fma(x, pdf, cdf);
  }
  template <typename C>
  C scalar(C dy, C x) const {
    const C cdf = C(0.5) * (C(1) + std::erf(x * kAlpha<C>));
    const C pdf = kPdfBeta<C> * std::exp((x * x) * C(-0.5));
    return dy * (cdf + x * pdf);
  }
};
struct GeluTanhBackward {
  template <typename C, typename Tanh>
  static C value(C dy, C x, Tanh tanh_fn) {
    const C xsq = x * x;
    const C inner = kBeta<C> * std::fma(kKappa<C>, xsq * x, x);
    const C th = tanh_fn(inner);
    const C left_derivative = C(0.5) * (C(1) + th);
    const C tanh_derivative = std::fma(-th, th, C(1));
    const C inner_derivative = kBeta<C> * std::fma(C(3) * kKappa<C>, xsq, C(1));
    return dy * (left_derivative + ((C(0.5) * x) * tanh_derivative) * inner_derivative);
  }
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C dy, C x) const {
    using L = Lane<C>;
    const C xsq = x * x;
    const C inner = C(kBeta<L>) * fmadd(C(kKappa<L>), xsq * x, x);
    const C th = sleef_tanh(inner);
    const C left_derivative = C(0.5) * (C(1) + th);
    const C tanh_derivative = fmadd(-th, th, C(1));
    const C inner_derivative = C(kBeta<L>) * fmadd(C(C(3) * C(kKappa<L>)), xsq, C(1));
    return dy * (left_derivative + ((C(0.5) * x) * tanh_derivative) * inner_derivative);
  }
  template <typename C>
  C scalar(C dy, C x) const {
    return value(dy, x, [](C v) { return std::tanh(v); });
  }
};

// oneDNN's path (Note [Activations' bits]): a float input, contiguous, of more than one element.
bool onednn_gelu_path(const Tensor& self, std::string_view approximate) {
  return !gelu_tanh(approximate) && self.dtype() == ScalarType::Float && self.is_contiguous() && self.numel() > 1;
}

// t as contiguous float data (a copy of a gradient of another dtype or layout).
Tensor contiguous_data_float(const Tensor& t) {
  if (t.dtype() == ScalarType::Float && t.is_contiguous()) return t;
  Tensor out = make_empty(t.sizes(), ScalarType::Float, t.device());
  return copy_cpu_(out, t, false);
}

// out = gelu(x), or its backward of (dy, x), over contiguous float data (out may be an input),
// a thread's range at a time: compiled for AVX2 and FMA where the CPU has them (gelu_avx2.cpp),
// the same operations one element at a time elsewhere.
void onednn_map(const Tensor& out, const Tensor& x, const Tensor* dy) {
  Tensor dst = out.is_contiguous() && out.dtype() == ScalarType::Float
                   ? out
                   : make_empty(x.sizes(), ScalarType::Float, x.device());
  Tensor g = dy ? contiguous_data_float(*dy) : Tensor();
  const float* xp = x.data_ptr<float>();
  const float* gp = dy ? g.data_ptr<float>() : nullptr;
  float* op = dst.data_ptr<float>();
  const bool avx2 = cpu::has_avx2();
  parallel_for(0, x.numel(), TensorIterator::kDefaultGrain, [&](int64_t b, int64_t e) {
    if (gp) {
      if (avx2) return gelu_avx2::backward(gp + b, xp + b, op + b, e - b);
      for (int64_t i = b; i < e; ++i) op[i] = onednn::onednn_gelu_backward(gp[i], xp[i]);
    } else {
      if (avx2) return gelu_avx2::forward(xp + b, op + b, e - b);
      for (int64_t i = b; i < e; ++i) op[i] = onednn::onednn_gelu(xp[i]);
    }
  });
  if (!dst.is_same(out)) copy_cpu_(out, dst, false);
}

}  // namespace

void gelu_into_cpu(const Tensor& out, const Tensor& self, std::string_view approximate) {
  if (onednn_gelu_path(self, approximate)) {
    onednn_map(out, self, nullptr);
    return;
  }
  if (gelu_tanh(approximate)) activation_into(out, self, "GeluKernelImpl", GeluTanh{});
  else activation_into(out, self, "GeluKernelImpl", GeluErf{});
}
void gelu_out_cpu(const Tensor& self, std::string_view approximate, const Tensor& out) {
  gelu_into_cpu(out, self, approximate);
}

void gelu_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Tensor& self,
                            std::string_view approximate) {
  if (onednn_gelu_path(self, approximate) && grad_output.sizes() == self.sizes()) {
    onednn_map(out, self, &grad_output);
    return;
  }
  if (gelu_tanh(approximate))
    activation_backward_into(out, grad_output, self, "GeluBackwardKernelImpl", GeluTanhBackward{});
  else activation_backward_into(out, grad_output, self, "GeluBackwardKernelImpl", GeluErfBackward{});
}
void gelu_backward_out_cpu(const Tensor& grad_output, const Tensor& self, std::string_view approximate,
                           const Tensor& grad_input) {
  gelu_backward_into_cpu(grad_input, grad_output, self, approximate);
}

// ---- elu ------------------------------------------------------------------------------------
namespace {
template <typename Src>
struct EluCoefs {
  Src alpha, scale, input_scale;
  // PyTorch computes alpha * scale in the tensor's type (a float product for float).
  template <typename C>
  C neg() const {
    return static_cast<C>(alpha) * static_cast<C>(scale);
  }
};
struct Elu {
  EluCoefs<double> k;
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C a) const {
    const C neg = C(k.alpha) * C(k.scale);  // k.neg<C>()
    return select(a >= C(0), a * C(k.scale), sleef_expm1(a * C(k.input_scale)) * neg);
  }
  template <typename C>
  C scalar(C a) const {
    return a < C(0) ? std::expm1(a * C(k.input_scale)) * k.neg<C>() : a * C(k.scale);
  }
};
struct EluBackward {  // (grad, self_or_result)
  EluCoefs<double> k;
  bool is_result;
  template <typename C, typename Exp>
  C value(C a, C b, bool positive, Exp exp_fn) const {
    const C ni = C(k.input_scale);
    if (positive) return a * C(k.scale);
    if (is_result) return (a * ni) * (b + k.neg<C>());
    return ((a * ni) * k.neg<C>()) * exp_fn(b * ni);
  }
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C a, C b) const {  // value(a, b, b > 0, sleef_exp), both sides then a select
    const C ni = C(k.input_scale);
    const C neg = C(k.alpha) * C(k.scale);  // k.neg<C>()
    const C negative = is_result ? (a * ni) * (b + neg) : ((a * ni) * neg) * sleef_exp(b * ni);
    return select(b > C(0), a * C(k.scale), negative);
  }
  template <typename C>
  C scalar(C a, C b) const {
    return value(a, b, !(b <= C(0)), [](C v) { return std::exp(v); });
  }
};
}  // namespace

void elu_into_cpu(const Tensor& out, const Tensor& self, const Scalar& alpha, const Scalar& scale,
                  const Scalar& input_scale) {
  activation_into(out, self, "elu_cpu", Elu{{alpha.to_double(), scale.to_double(), input_scale.to_double()}});
}
void elu_out_cpu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
                 const Tensor& out) {
  elu_into_cpu(out, self, alpha, scale, input_scale);
}

void elu_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                           const Scalar& input_scale, bool is_result, const Tensor& self_or_result) {
  activation_backward_into(out, grad_output, self_or_result, "elu_backward_cpu",
                           EluBackward{{alpha.to_double(), scale.to_double(), input_scale.to_double()}, is_result});
}
void elu_backward_out_cpu(const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                          const Scalar& input_scale, bool is_result, const Tensor& self_or_result,
                          const Tensor& grad_input) {
  elu_backward_into_cpu(grad_input, grad_output, alpha, scale, input_scale, is_result, self_or_result);
}

// ---- leaky_relu -----------------------------------------------------------------------------
namespace {
struct LeakyRelu {
  double slope;
  template <typename C, bool>
  C vec(C a) const {
    return a * (a > C(0) ? C(1) : C(slope));
  }
  template <typename C>
  C scalar(C a) const {
    return a > C(0) ? a : a * C(slope);
  }
};
struct LeakyReluBackward {  // (grad, self)
  double slope;
  template <typename C, bool>
  C vec(C g, C a) const {
    return g * (a > C(0) ? C(1) : C(slope));
  }
  template <typename C>
  C scalar(C g, C a) const {
    return a > C(0) ? g : g * C(slope);
  }
};
}  // namespace

void leaky_relu_into_cpu(const Tensor& out, const Tensor& self, const Scalar& negative_slope) {
  activation_into(out, self, "leaky_relu_cpu", LeakyRelu{negative_slope.to_double()});
}
void leaky_relu_out_cpu(const Tensor& self, const Scalar& negative_slope, const Tensor& out) {
  leaky_relu_into_cpu(out, self, negative_slope);
}
void leaky_relu_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Tensor& self,
                                  const Scalar& negative_slope) {
  activation_backward_into(out, grad_output, self, "leaky_relu_backward_cpu",
                           LeakyReluBackward{negative_slope.to_double()});
}
void leaky_relu_backward_out_cpu(const Tensor& grad_output, const Tensor& self, const Scalar& negative_slope, bool,
                                 const Tensor& grad_input) {
  leaky_relu_backward_into_cpu(grad_input, grad_output, self, negative_slope);
}

// ---- hardtanh -------------------------------------------------------------------------------
// hardtanh is clamp (PyTorch's hardtanh_out calls clamp_out): NaN and -0.0 stay as they are.
Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "Bool inputs not supported for hardtanh");
  return ops::clamp(self, min_val, max_val);
}
Tensor hardtanh_(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "Bool inputs not supported for hardtanh");
  return ops::clamp_(self, min_val, max_val);
}

namespace {
struct HardtanhBackward {  // (grad, self): the vector loop zeroes a NaN's gradient, the scalar one keeps it
  double lo, hi;
  template <typename C, bool>
  C vec(C g, C x) const {
    return (x > C(lo) && x < C(hi)) ? g : C(0);
  }
  template <typename C>
  C scalar(C g, C x) const {
    return (x <= C(lo) || x >= C(hi)) ? C(0) : g;
  }
};
}  // namespace

void hardtanh_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                                const Scalar& max_val) {
  activation_backward_into(out, grad_output, self, "hardtanh_backward_cpu",
                           HardtanhBackward{min_val.to_double(), max_val.to_double()});
}
Tensor hardtanh_backward_cpu(const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                             const Scalar& max_val) {
  const PointwiseGeometry g = binary_geometry(grad_output, self);
  Tensor out = make_empty(g.sizes, g.out_dtype, self.device());
  hardtanh_backward_into_cpu(out, grad_output, self, min_val, max_val);
  return out;
}

}  // namespace ipt::native
