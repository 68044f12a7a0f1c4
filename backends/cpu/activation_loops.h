#pragma once
// The loops of the activation kernels (activation_kernels.cpp, smooth_activation_kernels.cpp,
// piecewise_activation_kernels.cpp): PyTorch's cpu_kernel_vec, whose vector lambda and scalar
// lambda may round differently (Note [Activations' bits] in activation_kernels.cpp). A file that
// includes this one is compiled with -ffp-contract=off, so that it fuses only the multiply-adds
// it writes as std::fma.
#include <cmath>
#include <type_traits>

#include "backends/cpu/cpu_kernel.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/tensor.h"
#include "core/util/error.h"

namespace ipt::native::activation {

// A C (float or double) value through the vector function SLEEF computes (lanes are independent).
template <typename C>
C sleef_exp(C x) {
  return cpu::vml::exp(x);
}
template <typename C>
C sleef_tanh(C x) {
  return cpu::vml::tanh(x);
}
template <typename C>
C sleef_expm1(C x) {
  return cpu::vml::expm1(x);
}

// An activation whose vector and scalar lambdas compute the same: F::value serves both.
template <typename F>
struct SameBothWays : F {
  template <typename C, bool, typename... X>
  C vec(X... x) const {
    return F::template value<C>(x...);
  }
  template <typename C, typename... X>
  C scalar(X... x) const {
    return F::template value<C>(x...);
  }
};

// The compute type of T: double, or float for float / float16 / bfloat16.
template <typename T>
using Compute = std::conditional_t<std::is_same_v<T, double>, double, float>;

// out[i] = f(self[i]): fn.vec on the vector part of each contiguous run, fn.scalar elsewhere
// (Note [Activations' bits]); each is called with the compute type and whether T is reduced.
template <typename Fn>
void activation_into(const Tensor& out, const Tensor& self, const char* name, const Fn& fn) {
  const ScalarType dt = self.dtype();
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"", name, "\" not implemented for '", dtype_cpp_name(dt), "'");
  cpu::with_computation(out, {self}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() {
      if constexpr (is_float_v<T>) {
        using C = Compute<T>;
        constexpr bool reduced = !std::is_arithmetic_v<T>;
        auto scalar = [&](T x) { return static_cast<T>(fn.template scalar<C>(static_cast<C>(x))); };
        auto row = [&](const T* x, T* y, int64_t n) {
          const int64_t full = cpu::vector_part<T>(n);
          for (int64_t i = 0; i < full; ++i) y[i] = static_cast<T>(fn.template vec<C, reduced>(static_cast<C>(x[i])));
          for (int64_t i = full; i < n; ++i) y[i] = scalar(x[i]);
        };
        cpu::cpu_unary_kernel_rows<T>(iter, scalar, row);
      }
    });
  });
}

// out[i] = f(a[i], b[i]), as activation_into.
template <typename Fn>
void activation_backward_into(const Tensor& out, const Tensor& a, const Tensor& b, const char* name, const Fn& fn) {
  const ScalarType dt = binary_geometry(a, b).compute_dtype;
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"", name, "\" not implemented for '", dtype_cpp_name(dt), "'");
  cpu::with_computation(out, {a, b}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() {
      if constexpr (is_float_v<T>) {
        using C = Compute<T>;
        constexpr bool reduced = !std::is_arithmetic_v<T>;
        auto scalar = [&](T x, T y) {
          return static_cast<T>(fn.template scalar<C>(static_cast<C>(x), static_cast<C>(y)));
        };
        auto row = [&](T* o, const T* x, const T* y, int64_t n) {
          const int64_t full = cpu::vector_part<T>(n);
          for (int64_t i = 0; i < full; ++i)
            o[i] = static_cast<T>(fn.template vec<C, reduced>(static_cast<C>(x[i]), static_cast<C>(y[i])));
          for (int64_t i = full; i < n; ++i) o[i] = scalar(x[i], y[i]);
        };
        cpu::cpu_binary_kernel_rows<T>(iter, scalar, row);
      }
    });
  });
}

}  // namespace ipt::native::activation
