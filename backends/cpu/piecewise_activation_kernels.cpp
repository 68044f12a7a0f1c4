// CPU kernels of the piecewise activations hardsigmoid, hardswish, hardshrink, softshrink,
// threshold and prelu and their backward operators, as PyTorch 2.15 computes them. Where its
// vector and scalar lambdas treat NaN differently (a vector mask is false for NaN, a scalar
// `x <= l` test too, which then picks the other branch), each keeps its own (Note [Activations'
// bits] in activation_kernels.cpp).
#include <algorithm>
#include <cmath>

#include "backends/cpu/activation_loops.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using namespace activation;

// Vectorized<T>::minimum / maximum: NaN if either is NaN.
template <typename C>
C vec_min(C a, C b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<C>::quiet_NaN() : std::min(a, b);
}
template <typename C>
C vec_max(C a, C b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<C>::quiet_NaN() : std::max(a, b);
}

// ---- hardsigmoid: min(max(x + 3, 0), 6) / 6 -----------------------------------------------------
struct Hardsigmoid {
  template <typename C, bool>
  C vec(C x) const {
    return vec_min(vec_max(x + C(3), C(0)), C(6)) / C(6);
  }
  template <typename C>
  C scalar(C x) const {
    return std::min(std::max(x + C(3), C(0)), C(6)) / C(6);
  }
};
struct HardsigmoidBackwardValue {  // (grad, self): grad / 6 inside (-3, 3)
  template <typename C>
  C value(C g, C x) const {
    return (x > C(-3) && x < C(3)) ? g * C(1.0f / 6.0f) : C(0);  // one sixth as a float, for double too
  }
};
using HardsigmoidBackward = SameBothWays<HardsigmoidBackwardValue>;

// ---- hardswish: x * min(max(x + 3, 0), 6) / 6 ---------------------------------------------------
struct Hardswish {
  template <typename C, bool>
  C vec(C x) const {
    return x * vec_min(vec_max(x + C(3), C(0)), C(6)) / C(6);
  }
  template <typename C>
  C scalar(C x) const {
    return x * std::min(std::max(x + C(3), C(0)), C(6)) / C(6);
  }
};
struct HardswishBackward {  // (grad, self): 0 up to -3, grad from 3; between, the vector form's NaN stays
  template <typename C, bool>
  C vec(C g, C x) const {
    if (x <= C(-3)) return C(0);
    return x >= C(3) ? g : g * ((x / C(3)) + C(0.5f));
  }
  template <typename C>
  C scalar(C g, C x) const {
    if (x <= C(-3)) return C(0);
    if (x < C(3)) return g * ((x / C(3)) + C(0.5f));
    return g;
  }
};

// ---- hardshrink, softshrink and their shared backward ---------------------------------------------
struct HardshrinkValue {
  double lambd;
  template <typename C>
  C value(C x) const {
    const C l = C(lambd);
    return (x >= -l && x <= l) ? C(0) : x;
  }
};
using Hardshrink = SameBothWays<HardshrinkValue>;
struct Softshrink {  // between -lambd and lambd: +0 from the vector form, x * 0 (-0 for -x) from the scalar
  double lambd;
  template <typename C, bool>
  C vec(C x) const {
    const C l = C(lambd);
    if (std::isnan(x)) return x;
    return x > l ? x - l : (x < -l ? x + l : C(0));
  }
  template <typename C>
  C scalar(C x) const {
    const C l = C(lambd);
    return x > l ? x - l : (x < -l ? x + l : x * C(0));
  }
};
struct ShrinkBackward {  // (grad, self): the vector mask drops a NaN's gradient, the scalar test keeps it
  double lambd;
  template <typename C, bool>
  C vec(C g, C x) const {
    const C l = C(lambd);
    return (x < -l || x > l) ? g : C(0);
  }
  template <typename C>
  C scalar(C g, C x) const {
    const C l = C(lambd);
    return (x >= -l && x <= l) ? C(0) : g;
  }
};

// where(x <= threshold, value, other), in any dtype (2.15's threshold_kernel, the same in
// both of its lambdas).
void threshold_into(const Tensor& out, const Tensor& x, const Tensor& other, const Scalar& threshold,
                    const Scalar& value) {
  const ScalarType dt = binary_geometry(x, other).compute_dtype;
  IPT_CHECK(dt != ScalarType::Bool, NotImplementedError, "\"threshold_cpu\" not implemented for 'Bool'");
  cpu::with_computation(out, {x, other}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() {
      if constexpr (!std::is_same_v<T, bool>) {
        const T th = threshold.to<T>();
        const T v = value.to<T>();
        cpu::cpu_kernel<T, 2>(iter, [th, v](T a, T b) { return a <= th ? v : b; });
      }
    });
  });
}

struct PreluValue {  // (self, weight)
  template <typename C>
  C value(C x, C w) const {
    return x > C(0) ? x : w * x;
  }
};
using Prelu = SameBothWays<PreluValue>;

}  // namespace

void hardsigmoid_out_cpu(const Tensor& self, const Tensor& out) {
  activation_into(out, self, "hardsigmoid_cpu", Hardsigmoid{});
}
void hardsigmoid_backward_out_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& grad_input) {
  activation_backward_into(grad_input, grad_output, self, "hardsigmoid_backward", HardsigmoidBackward{});
}

void hardswish_out_cpu(const Tensor& self, const Tensor& out) {
  activation_into(out, self, "hardswish_cpu", Hardswish{});
}
Tensor hardswish_backward_cpu(const Tensor& grad_output, const Tensor& self) {
  const PointwiseGeometry g = binary_geometry(grad_output, self);
  Tensor out = make_empty(g.sizes, g.out_dtype, self.device());
  activation_backward_into(out, grad_output, self, "hardswish_backward_cpu", HardswishBackward{});
  return out;
}

void hardshrink_out_cpu(const Tensor& self, const Scalar& lambd, const Tensor& out) {
  activation_into(out, self, "hardshrink_cpu", Hardshrink{{lambd.to_double()}});
}
void hardshrink_backward_out_cpu(const Tensor& grad_out, const Tensor& self, const Scalar& lambd,
                                 const Tensor& grad_input) {
  activation_backward_into(grad_input, grad_out, self, "shrink_backward_cpu", ShrinkBackward{lambd.to_double()});
}
void softshrink_out_cpu(const Tensor& self, const Scalar& lambd, const Tensor& out) {
  activation_into(out, self, "softshrink_cpu", Softshrink{lambd.to_double()});
}
void softshrink_backward_out_cpu(const Tensor& grad_output, const Tensor& self, const Scalar& lambd,
                                 const Tensor& grad_input) {
  activation_backward_into(grad_input, grad_output, self, "shrink_backward_cpu", ShrinkBackward{lambd.to_double()});
}

void threshold_out_cpu(const Tensor& self, const Scalar& threshold, const Scalar& value, const Tensor& out) {
  threshold_into(out, self, self, threshold, value);
}
void threshold_backward_out_cpu(const Tensor& grad_output, const Tensor& self, const Scalar& threshold,
                                const Tensor& grad_input) {
  threshold_into(grad_input, self, grad_output, threshold, Scalar(0));
}

// _prelu_kernel: self laid out as it is, weight broadcast over it (prelu reshapes it so).
Tensor prelu_kernel_cpu(const Tensor& self, const Tensor& weight) {
  const PointwiseGeometry g = binary_geometry(self, weight);
  Tensor out = make_empty_like_layout(g.sizes, g.out_dtype, self.device(), self);
  activation_backward_into(out, self, weight, "prelu_cpu", Prelu{});
  return out;
}

// Its backward: grad_self = x > 0 ? g : w * g and grad_weight = x > 0 ? 0 : x * g, both of the
// broadcast shape (the engine sums grad_weight to weight's).
std::tuple<Tensor, Tensor> prelu_kernel_backward_cpu(const Tensor& grad_output, const Tensor& self,
                                                     const Tensor& weight) {
  const std::vector<int64_t> sizes =
      broadcast_shapes(broadcast_shapes(self.sizes(), weight.sizes()), grad_output.sizes());
  const ScalarType dt = self.dtype();
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"prelu_backward_cpu\" not implemented for '", dtype_cpp_name(dt),
            "'");
  Tensor grad_self = make_empty(sizes, dt, self.device());
  Tensor grad_weight = make_empty(sizes, weight.dtype(), self.device());
  auto run = [&](const Tensor& out, bool for_weight) {
    cpu::with_computation(out, {self, weight, grad_output}, dt, [&](const TensorIterator& iter) {
      visit_dtype(dt, [&]<typename T>() {
        if constexpr (is_float_v<T>) {
          using C = Compute<T>;
          if (for_weight)
            cpu::cpu_kernel<T, 3>(iter, [](T x, T, T g) { return static_cast<T>(C(x) > C(0) ? C(0) : C(x) * C(g)); });
          else
            cpu::cpu_kernel<T, 3>(iter, [](T x, T w, T g) { return static_cast<T>(C(x) > C(0) ? C(g) : C(w) * C(g)); });
        }
      });
    });
  };
  run(grad_self, false);
  run(grad_weight, true);
  return {grad_self, grad_weight};
}

}  // namespace ipt::native
