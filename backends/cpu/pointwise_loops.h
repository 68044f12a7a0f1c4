#pragma once
// The loops of the CPU's pointwise kernels (pointwise_kernels.cpp, unary_math_kernels.cpp,
// binary_math_kernels.cpp): out = op(self) or op(self, other) on the TensorIterator
// (backends/cpu/cpu_kernel.h), element by element or with a function for contiguous runs.
#include <type_traits>

#include "backends/cpu/cpu_kernel.h"
#include "backends/cpu/vml.h"
#include "core/tensor/scalar_type.h"

namespace ipt::native {

// out[i] = op(a[i], b[i]) computed in type T = compute dtype, for any operand dtypes.
template <typename Op>
void binary_into(const Tensor& out, const Tensor& a, const Tensor& b, ScalarType compute, Op op) {
  cpu::with_computation(out, {a, b}, compute, [&](const TensorIterator& iter) {
    visit_dtype(compute, [&]<typename T>() { cpu::cpu_kernel<T, 2>(iter, op); });
  });
}

// A run of a binary op whose vector lambda is a SLEEF function (2.15's cpu_kernel_vec): the
// run's vector part (Note [cpu_kernel_vec's tail]) through vec(a, sa, b, sb, out, n), the rest
// through op; float and double only, other types op throughout. sa and sb are the inputs' steps
// in elements: 1 for a contiguous run, 0 for a single value.
template <typename T, typename Vec, typename Op>
void vector_part_then_op(T* out, const T* a, int64_t sa, const T* b, int64_t sb, int64_t n, const Vec& vec,
                         const Op& op) {
  int64_t i = 0;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    i = cpu::vector_part<T>(n);
    if (i) vec(a, sa, b, sb, out, i);
  }
  for (; i < n; ++i) out[i] = op(a[i * sa], b[i * sb]);
}
// The same for two contiguous runs, vec(a, b, out, n).
template <typename T, typename Vec, typename Op>
void vector_part_then_op(T* out, const T* a, const T* b, int64_t n, const Vec& vec, const Op& op) {
  vector_part_then_op(
      out, a, 1, b, 1, n, [&](const auto* x, int64_t, const auto* y, int64_t, auto* o, int64_t k) { vec(x, y, o, k); },
      op);
}

// binary_into with a function for runs where the output and both inputs are contiguous
// (cpu_binary_kernel_rows): Row<T>{}(out, a, b, n).
template <template <typename> class Row, typename Op>
void binary_rows_into(const Tensor& out, const Tensor& a, const Tensor& b, ScalarType compute, Op op) {
  cpu::with_computation(out, {a, b}, compute, [&](const TensorIterator& iter) {
    visit_dtype(compute, [&]<typename T>() { cpu::cpu_binary_kernel_rows<T>(iter, op, Row<T>{}); });
  });
}

// out[i] = op(self[i]) computed in type T = compute dtype.
template <typename Op>
void unary_into(const Tensor& out, const Tensor& a, ScalarType compute, Op op) {
  cpu::with_computation(out, {a}, compute, [&](const TensorIterator& iter) {
    visit_dtype(compute, [&]<typename T>() { cpu::cpu_kernel<T, 1>(iter, op); });
  });
}

// unary_into with a function for contiguous runs (cpu_unary_kernel_rows): Row is a class template
// whose Row<T>{}(in, out, n) computes a run of T.
template <template <typename> class Row, typename Op>
void unary_rows_into(const Tensor& out, const Tensor& a, ScalarType compute, Op op,
                     int64_t grain_size = TensorIterator::kDefaultGrain) {
  cpu::with_computation(out, {a}, compute, [&](const TensorIterator& iter) {
    visit_dtype(compute, [&]<typename T>() { cpu::cpu_unary_kernel_rows<T>(iter, op, Row<T>{}, grain_size); });
  });
}

// PyTorch's vml functions (exp, log, ...) split over threads in grains of 2048 elements.
constexpr int64_t kVmlGrain = 2048;

// name_row_fn<T>: cpu::vml::row(x, y, n) (which takes float16 / bfloat16 too); for bool,
// cpu::vml::scalar of each element.
#define IPT_VML_ROW_FUNCTOR(name, row, scalar)                                         \
  template <typename T>                                                                \
  struct name##_row_fn {                                                               \
    void operator()(const T* x, T* y, int64_t n) const {                               \
      if constexpr (!std::is_same_v<T, bool>) cpu::vml::row(x, y, n);                  \
      else                                                                             \
        for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(cpu::vml::scalar(x[i])); \
    }                                                                                  \
  };

}  // namespace ipt::native
