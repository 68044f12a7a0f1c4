#pragma once
// The loops of the activation kernels (activation_kernels.cpp, smooth_activation_kernels.cpp,
// piecewise_activation_kernels.cpp): PyTorch's cpu_kernel_vec, whose vector lambda and scalar
// lambda may round differently (Note [Activations' bits] in activation_kernels.cpp). A file that
// includes this one is compiled with -ffp-contract=off, so that it fuses only the multiply-adds
// it writes as std::fma.
#include <array>
#include <cmath>
#include <utility>
#include <type_traits>

#include "backends/cpu/activation_vec.h"
#include "backends/cpu/cpu_kernel.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/tensor.h"
#include "core/util/error.h"

namespace ipt::native::activation {

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

// One contiguous run: fn.vec on its vector part, fn.scalar on the rest (Note [Activations' bits]),
// each with the compute type C. The run is compiled two ways (activation_row): for any x86-64,
// and for AVX2 with FMA, where the compiler turns a branch-free vec into vector instructions.
// Contraction stays off, so only the std::fma calls an activation writes are fused (and those
// compute the same value on every target); the other operations are the same IEEE operations on
// every target, so every target gives the same bits.
template <typename T, typename Fn, size_t... I>
[[gnu::always_inline]] inline void activation_row_body(const Fn& fn, T* y, int64_t n, std::index_sequence<I...>,
                                                       const std::array<const T*, sizeof...(I)>& x) {
  using C = Compute<T>;
  constexpr bool reduced = !std::is_arithmetic_v<T>;
  const Fn f = fn;  // a local copy, whose parameters the loop can keep in registers
  const int64_t full = cpu::vector_part<T>(n);
  for (int64_t i = 0; i < full; ++i) y[i] = static_cast<T>(f.template vec<C, reduced>(static_cast<C>(x[I][i])...));
  for (int64_t i = full; i < n; ++i) y[i] = static_cast<T>(f.template scalar<C>(static_cast<C>(x[I][i])...));
}
template <typename T, typename Fn, size_t... I>
void activation_row_plain(const Fn& fn, T* y, int64_t n, std::index_sequence<I...> seq,
                          const std::array<const T*, sizeof...(I)>& x) {
  activation_row_body<T>(fn, y, n, seq, x);
}
// With AVX2, an activation whose vec() is written for the vectors too (activation_vec.h) runs
// it a vector at a time on a float or double run's vector part.
template <typename T, typename Fn, size_t... I>
[[gnu::target("avx2,fma")]] void activation_row_avx2(const Fn& fn, T* y, int64_t n, std::index_sequence<I...> seq,
                                                     const std::array<const T*, sizeof...(I)>& x) {
  if constexpr (has_vector_lanes<Fn>() && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    using V = VecOf<T>;
    const Fn f = fn;
    const int64_t full = cpu::vector_part<T>(n);
    for (int64_t i = 0; i < full; i += V::kSize) f.template vec<V, false>(V::load(x[I] + i)...).store(y + i);
    for (int64_t i = full; i < n; ++i) y[i] = f.template scalar<T>(x[I][i]...);
  } else {
    activation_row_body<T>(fn, y, n, seq, x);
  }
}
template <typename T, typename Fn, typename... X>
void activation_row(const Fn& fn, T* y, int64_t n, const X*... x) {
  const std::array<const T*, sizeof...(X)> in{x...};
  if (cpu::has_avx2()) activation_row_avx2<T>(fn, y, n, std::index_sequence_for<X...>(), in);
  else activation_row_plain<T>(fn, y, n, std::index_sequence_for<X...>(), in);
}

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
        auto scalar = [&](T x) { return static_cast<T>(fn.template scalar<C>(static_cast<C>(x))); };
        auto row = [&](const T* x, T* y, int64_t n) { activation_row<T>(fn, y, n, x); };
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
        auto scalar = [&](T x, T y) {
          return static_cast<T>(fn.template scalar<C>(static_cast<C>(x), static_cast<C>(y)));
        };
        auto row = [&](T* o, const T* x, const T* y, int64_t n) { activation_row<T>(fn, o, n, x, y); };
        cpu::cpu_binary_kernel_rows<T>(iter, scalar, row);
      }
    });
  });
}

}  // namespace ipt::native::activation
