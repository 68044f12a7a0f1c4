// CPU kernels of the unary math family beyond exp / log / sin / cos / tan / tanh
// (pointwise_kernels.cpp): inverse trigonometric and hyperbolic functions, log2 / log10 / log1p /
// expm1, erf, round, trunc and bitwise_not. Each computes what PyTorch 2.15's kernel computes
// (vml.h says which library that is for each function), on the loops of pointwise_loops.h.
#include <cmath>

#include "backends/cpu/into_kernels.h"
#include "backends/cpu/pointwise_loops.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
IPT_VML_ROW_FUNCTOR(asin, asin_row, asin)
IPT_VML_ROW_FUNCTOR(acos, acos_row, acos)
IPT_VML_ROW_FUNCTOR(atan, atan_row, atan)
IPT_VML_ROW_FUNCTOR(log2, log2_row, log2)
IPT_VML_ROW_FUNCTOR(log10, log10_row, log10)
IPT_VML_ROW_FUNCTOR(log1p, log1p_row, log1p)
IPT_VML_ROW_FUNCTOR(expm1, expm1_row, expm1)
IPT_VML_ROW_FUNCTOR(erf, erf_row, erf)
IPT_VML_ROW_FUNCTOR(atanh, atanh_vec_row, atanh_op)
IPT_VML_ROW_FUNCTOR(sinh, sinh_vec_row, sinh_op)
IPT_VML_ROW_FUNCTOR(cosh, cosh_vec_row, cosh_op)

// round (half to even, as std::nearbyint in the default rounding mode) and trunc leave integers
// as they are.
struct RoundOp {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_float_v<T>) return cpu::through_float([](auto v) { return std::nearbyint(v); }, x);
    else return x;
  }
};
struct TruncOp {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_float_v<T>) return cpu::through_float([](auto v) { return std::trunc(v); }, x);
    else return x;
  }
};
// ~x of an integer, !x of a bool (floating inputs are refused before).
struct BitwiseNotOp {
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) return !x;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(~x);
    else return x;
  }
};
}  // namespace

// Float-promoting functions with a vector path for contiguous runs; vml's grain for the ones
// PyTorch runs through its vml, the default grain for its cpu_kernel_vec ones (atanh, sinh, cosh).
#define IPT_VML_MATH(name, scalar, grain)                                                                       \
  void name##_into_cpu(const Tensor& out, const Tensor& self) {                                                 \
    unary_rows_into<name##_row_fn>(                                                                             \
        out, self, unary_dtype(self, PromoteInts::ToFloat), [](auto x) { return cpu::vml::scalar(x); }, grain); \
  }                                                                                                             \
  void name##_out_cpu(const Tensor& self, const Tensor& out) { name##_into_cpu(out, self); }
IPT_VML_MATH(asin, asin, kVmlGrain)
IPT_VML_MATH(acos, acos, kVmlGrain)
IPT_VML_MATH(atan, atan, kVmlGrain)
IPT_VML_MATH(log2, log2, kVmlGrain)
IPT_VML_MATH(log10, log10, kVmlGrain)
IPT_VML_MATH(log1p, log1p, kVmlGrain)
IPT_VML_MATH(expm1, expm1, kVmlGrain)
IPT_VML_MATH(erf, erf, kVmlGrain)
IPT_VML_MATH(atanh, atanh_op, TensorIterator::kDefaultGrain)
IPT_VML_MATH(sinh, sinh_op, TensorIterator::kDefaultGrain)
IPT_VML_MATH(cosh, cosh_op, TensorIterator::kDefaultGrain)
#undef IPT_VML_MATH

// asinh and acosh: glibc's, an element at a time, as PyTorch 2.15 computes them.
#define IPT_GLIBC_MATH(name)                                                                       \
  void name##_into_cpu(const Tensor& out, const Tensor& self) {                                    \
    unary_into(out, self, unary_dtype(self, PromoteInts::ToFloat),                                 \
               [](auto x) { return cpu::through_float([](auto v) { return std::name(v); }, x); }); \
  }                                                                                                \
  void name##_out_cpu(const Tensor& self, const Tensor& out) { name##_into_cpu(out, self); }
IPT_GLIBC_MATH(asinh)
IPT_GLIBC_MATH(acosh)
#undef IPT_GLIBC_MATH

void round_into_cpu(const Tensor& out, const Tensor& self) {
  check_not_bool(self, "round_vml_cpu");
  unary_into(out, self, unary_dtype(self, PromoteInts::No), RoundOp{});
}
void round_out_cpu(const Tensor& self, const Tensor& out) { round_into_cpu(out, self); }
void trunc_into_cpu(const Tensor& out, const Tensor& self) {
  check_not_bool(self, "trunc_vml_cpu");
  unary_into(out, self, unary_dtype(self, PromoteInts::No), TruncOp{});
}
void trunc_out_cpu(const Tensor& self, const Tensor& out) { trunc_into_cpu(out, self); }

// signbit: the sign bit of a floating value (-0.0 and a NaN with its sign bit set too), x < 0 of
// an integer; written as 1 or 0 into the bool result.
void signbit_into_cpu(const Tensor& out, const Tensor& self) {
  unary_into(out, self, self.dtype(), []<typename T>(T x) {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(std::signbit(x));
    else if constexpr (is_reduced_float_v<T>) return static_cast<T>(std::signbit(static_cast<float>(x)));
    else if constexpr (std::is_same_v<T, bool>) return false;
    else return static_cast<T>(x < 0);
  });
}
void signbit_out_cpu(const Tensor& self, const Tensor& out) { signbit_into_cpu(out, self); }

void bitwise_not_into_cpu(const Tensor& out, const Tensor& self) {
  IPT_CHECK(!is_floating(self.dtype()), NotImplementedError, "\"bitwise_not_cpu\" not implemented for '",
            dtype_cpp_name(self.dtype()), "'");
  unary_into(out, self, self.dtype(), BitwiseNotOp{});
}
void bitwise_not_out_cpu(const Tensor& self, const Tensor& out) { bitwise_not_into_cpu(out, self); }

}  // namespace ipt::native
