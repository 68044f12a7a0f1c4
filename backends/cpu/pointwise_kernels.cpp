// CPU pointwise kernels: binary ops with broadcasting and type promotion, unary ops, and
// their in-place forms. Output geometry comes from core/ops/shape_rules.h (shared with Meta).
#include <cmath>

#include "backends/cpu/cpu_kernel.h"
#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/into_kernels.h"
#include "backends/cpu/division_ops.h"
#include "backends/cpu/pointwise_loops.h"
#include "backends/cpu/vml.h"
#include "backends/cpu/wrapping.h"
#include "core/ops/out_rules.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// The output of `a op b`: the broadcast shape and promoted dtype, laid out as the operand that
// has that shape (a first).
Tensor binary_output(const Tensor& a, const Tensor& b, PromoteInts promote) {
  PointwiseGeometry g = binary_geometry(a, b, promote);
  return make_empty_like_layout(g.sizes, g.out_dtype, a.device(), a.sizes() == g.sizes ? a : b);
}

template <typename Op>
Tensor binary_out_of_place(const Tensor& a, const Tensor& b, PromoteInts promote, Op op) {
  Tensor out = binary_output(a, b, promote);
  binary_into(out, a, b, binary_dtype(a, b, promote), op);
  return out;
}

template <typename Op>
Tensor binary_in_place(const Tensor& self, const Tensor& b, PromoteInts promote, Op op) {
  PointwiseGeometry g = inplace_binary_geometry(self, b, promote);
  binary_into(self, self, b, g.compute_dtype, op);
  return self;
}

IPT_VML_ROW_FUNCTOR(exp, exp_row, exp)
IPT_VML_ROW_FUNCTOR(log, log_row, log_op)
IPT_VML_ROW_FUNCTOR(sin, sin_row, sin)
IPT_VML_ROW_FUNCTOR(cos, cos_row, cos)
IPT_VML_ROW_FUNCTOR(tan, tan_row, tan)
IPT_VML_ROW_FUNCTOR(tanh, tanh_row, tanh)

template <typename Op>
Tensor unary_out_of_place(const Tensor& a, PromoteInts promote, Op op) {
  ScalarType dt = unary_dtype(a, promote);
  Tensor out = make_empty_like_layout(a.sizes(), dt, a.device(), a);
  unary_into(out, a, dt, op);
  return out;
}

template <typename Op>
Tensor unary_in_place(const Tensor& self, PromoteInts promote, Op op) {
  ScalarType dt = unary_dtype(self, promote);
  IPT_CHECK(can_cast(dt, self.dtype()), RuntimeError, "result type ", dtype_cpp_name(dt),
            " can't be cast to the desired output type ", dtype_cpp_name(self.dtype()));
  unary_into(self, self, dt, op);
  return self;
}

// x + alpha * y. An integral alpha stays an integer, converted to T as PyTorch converts it
// (-1 is 255 for uint8), and integers wrap (see wrapping.h).
struct AddOp {
  double alpha;
  int64_t int_alpha;
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x || (alpha != 0 && y);
    else if constexpr (cpu::wraps_v<T>) return cpu::wrapping_add(x, cpu::wrapping_mul(static_cast<T>(int_alpha), y));
    // PyTorch 2.15's float and double kernels compute x + alpha * y as one fused multiply-add
    // (vec::fmadd, and its AVX2 build contracts the scalar tail too): one rounding, not two.
    else if constexpr (std::is_floating_point_v<T>) return alpha == 1 ? x + y : std::fma(static_cast<T>(alpha), y, x);
    else return alpha == 1 ? static_cast<T>(x + y) : static_cast<T>(x + static_cast<T>(alpha) * y);
  }
};
// A floating alpha is refused for integral inputs (check_alpha); for floating ones the integer
// form is never used.
AddOp add_op(const Scalar& alpha, bool negate) {
  const double a = negate ? -alpha.to_double() : alpha.to_double();
  const int64_t i = alpha.is_floating() ? 0 : alpha.to_long();
  return AddOp{a, negate ? cpu::wrapping_neg(i) : i};
}
// x - y: sub with alpha 1 (add with alpha -1), the same values as AddOp's x + (-1) * y (the
// product is exact, so its fused multiply-add rounds once, as the subtraction does).
struct SubOp {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (cpu::wraps_v<T>) return cpu::wrapping_add(x, cpu::wrapping_neg(y));
    else return static_cast<T>(x - y);
  }
};
struct MulOp {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x && y;
    else return cpu::wrapping_mul(x, y);
  }
};
struct DivOp {
  template <typename T>
  T operator()(T x, T y) const {
    return x / y;
  }
};
struct PowOp {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // By squaring, in unsigned 64-bit arithmetic: wraps like PyTorch's, without signed
      // overflow, in log2(y) steps (3 ** (2 ** 62) must not loop 2 ** 62 times).
      if (y < 0) return x == 1 ? T(1) : (x == T(-1) ? ((y & 1) ? T(-1) : T(1)) : T(0));
      uint64_t r = 1, b = static_cast<uint64_t>(x);
      for (uint64_t e = static_cast<uint64_t>(y); e; e >>= 1) {
        if (e & 1) r *= b;
        b *= b;
      }
      return static_cast<T>(r);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return std::pow(x, y);  // powf for float, as 2.15's scalar lambda
    } else {
      return static_cast<T>(std::pow(static_cast<double>(x), static_cast<double>(y)));
    }
  }
};
// A row of tensor ** tensor as 2.15's cpu_kernel_vec runs it: the vector part (Note
// [cpu_kernel_vec's tail]) through SLEEF's pow, the rest through PowOp.
struct PowRow {
  template <typename T>
  void operator()(T* out, const T* a, int64_t sa, const T* b, int64_t sb, int64_t n) const {
    vector_part_then_op(
        out, a, sa, b, sb, n,
        [](const auto* x, int64_t sx, const auto* y, int64_t sy, auto* o, int64_t k) {
          cpu::sleef_avx2::pow(x, sx, y, sy, o, k);
        },
        PowOp{});
  }
};

void check_pow_exponent(const Tensor& self, const Scalar& e) {
  IPT_CHECK(!(is_integral(self.dtype(), true) && !e.is_floating() && e.to_long() < 0), RuntimeError,
            "Integers to negative integer powers are not allowed.");
}

}  // namespace

// The binary ops' "into" forms (into_kernels.h); the functional kernels make their output
// and use them.
namespace {
// x + alpha * y: float and double with an alpha other than 1 run their contiguous rows as fused
// multiply-adds a vector at a time where the CPU has FMA (fma_avx2.cpp), the same values as
// AddOp's std::fma, which without the instruction is a slow library call.
void add_alpha_into(const Tensor& out, const Tensor& self, const Tensor& other, ScalarType compute, AddOp op) {
  if (op.alpha == -1 && compute != ScalarType::Bool && (is_floating(compute) || op.int_alpha == -1))
    return binary_into(out, self, other, compute, SubOp{});  // every row kind vectorizes, a broadcast one too
  const bool fused =
      op.alpha != 1 && cpu::has_avx2() && (compute == ScalarType::Float || compute == ScalarType::Double);
  if (!fused) return binary_into(out, self, other, compute, op);
  cpu::with_computation(out, {self, other}, compute, [&](const TensorIterator& iter) {
    visit_dtype(compute, [&]<typename T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const T alpha = static_cast<T>(op.alpha);
        cpu::cpu_binary_kernel_rows<T>(iter, op, [alpha](T* o, const T* x, const T* y, int64_t n) {
          cpu::fma_avx2::add_alpha(o, x, y, alpha, n);
        });
      }
    });
  });
}
}  // namespace

void add_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_alpha(self, other, alpha);
  add_alpha_into(out, self, other, binary_dtype(self, other, PromoteInts::No), add_op(alpha, false));
}
void sub_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub_bool(self, other);
  check_alpha(self, other, alpha);
  add_alpha_into(out, self, other, binary_dtype(self, other, PromoteInts::No), add_op(alpha, true));
}
// Note [A scalar second operand of float16 / bfloat16 mul and div]
// PyTorch 2.15's mul and div kernels take a one-element second operand of a float16 / bfloat16
// computation at its original value in float (TensorIterator's original_scalar_value), not
// rounded to the 16-bit type first: half * 0.1 is round(float(half) * 0.1f). add and sub round
// the scalar first, as the general path does.
namespace {
ScalarType scalar_operand_compute(const Tensor& out, const Tensor& self, const Tensor& other, ScalarType compute) {
  const bool reduced = compute == ScalarType::Half || compute == ScalarType::BFloat16;
  return reduced && other.numel() == 1 && self.dtype() == compute && out.dtype() == compute ? ScalarType::Float
                                                                                            : compute;
}
}  // namespace

void mul_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {
  const ScalarType compute = binary_dtype(self, other, PromoteInts::No);
  binary_into(out, self, other, scalar_operand_compute(out, self, other, compute), MulOp{});
}
void div_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {
  const ScalarType compute = binary_dtype(self, other, PromoteInts::ToFloat);
  binary_into(out, self, other, scalar_operand_compute(out, self, other, compute), DivOp{});
}

// The structured impls (Note [Structured kernels] in core/ops/structured.h): `out` already has
// the result's shape, and a dtype the computation may be cast to.
void add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out) {
  add_into_cpu(out, self, other, alpha);
}
void sub_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out) {
  sub_into_cpu(out, self, other, alpha);
}
void mul_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) { mul_into_cpu(out, self, other); }
void div_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) { div_into_cpu(out, self, other); }
#define IPT_UNARY_OUT(op) \
  void op##_out_cpu(const Tensor& self, const Tensor& out) { op##_into_cpu(out, self); }
IPT_UNARY_OUT(neg)
IPT_UNARY_OUT(exp)
IPT_UNARY_OUT(log)
IPT_UNARY_OUT(sqrt)
IPT_UNARY_OUT(sin)
IPT_UNARY_OUT(cos)
IPT_UNARY_OUT(tan)
IPT_UNARY_OUT(rsqrt)
IPT_UNARY_OUT(tanh)
IPT_UNARY_OUT(sigmoid)
#undef IPT_UNARY_OUT
Tensor pow_tensor_cpu(const Tensor& self, const Tensor& exponent) {
  (void)broadcast_shapes(self.sizes(), exponent.sizes());
  IPT_CHECK(binary_dtype(self, exponent, PromoteInts::No) != ScalarType::Bool, NotImplementedError,
            "\"pow\" not implemented for 'Bool'");
  Tensor out = binary_output(self, exponent, PromoteInts::No);
  const ScalarType dt = binary_dtype(self, exponent, PromoteInts::No);
  cpu::with_computation(out, {self, exponent}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() { cpu::cpu_binary_kernel_vec<T>(iter, PowOp{}, PowRow{}); });
  });
  return out;
}

void neg_into_cpu(const Tensor& out, const Tensor& self) {
  check_neg_bool(self);
  unary_into(out, self, unary_dtype(self, PromoteInts::No), [](auto x) { return cpu::wrapping_neg(x); });
}
void exp_into_cpu(const Tensor& out, const Tensor& self) {
  unary_rows_into<exp_row_fn>(
      out, self, unary_dtype(self, PromoteInts::ToFloat), [](auto x) { return cpu::vml::exp(x); }, kVmlGrain);
}
Tensor reciprocal_cpu(const Tensor& self) {
  return unary_out_of_place(self, PromoteInts::ToFloat, [](auto x) { return decltype(x)(1) / x; });
}

// max(x, 0): x < 0 ? 0 : x keeps -0.0 (and NaN) as they are, like PyTorch's clamp_min(0); a bool
// is never below 0 (and relu refuses bool tensors before it gets here).
template <typename T>
T relu_scalar(T x) {
  if constexpr (std::is_same_v<T, bool>) return x;
  else return x < 0 ? T(0) : x;
}

void relu_into_cpu(const Tensor& out, const Tensor& self) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "Boolean inputs not supported for relu");
  unary_into(out, self, self.dtype(), [](auto x) { return relu_scalar(x); });
}
Tensor relu_cpu(const Tensor& self) {
  Tensor out = make_empty_like_layout(self.sizes(), self.dtype(), self.device(), self);
  relu_into_cpu(out, self);
  return out;
}
Tensor relu_cpu_(const Tensor& self) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "Boolean inputs not supported for relu");
  return unary_in_place(self, PromoteInts::No, [](auto x) { return relu_scalar(x); });
}

// Result dtype of tensor ** scalar: ordinary promotion with the exponent as a number
// (bool ** 2 is int64, int ** 0.5 is float32).
static ScalarType pow_scalar_dtype(const Tensor& self, const Scalar& e) {
  Tensor w = wrapped_scalar_tensor(e);
  return result_type({&self, &w});
}

// tensor ** scalar into `out` (which may be self), computed in `dt`. For float and double,
// PyTorch's kernel computes the exponents 0.5, 2, 3, -0.5, -1 and -2 without pow: sqrt(x), x * x,
// x * x * x, 1 / sqrt(x), 1 / x and 1 / (x * x); x.pow(3) is not pow(x, 3) in the last bit.
void pow_scalar_into(const Tensor& out, const Tensor& self, ScalarType dt, const Scalar& exponent) {
  const double e = exponent.to_double();
  const int64_t ie = exponent.to_long();
  visit_dtype(dt, [&]<typename T>() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      unary_into(out, self, dt, [&](T x) -> T { return PowOp{}(x, static_cast<T>(ie)); });
    } else if constexpr (std::is_same_v<T, bool>) {
      unary_into(out, self, dt, [&](T x) -> T { return ie == 0 ? true : x; });
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (e == 1) unary_into(out, self, dt, [](T x) -> T { return x; });  // 2.15 copies: x ** 1 is x, NaNs too
      else if (e == 0.5) unary_into(out, self, dt, [](T x) -> T { return std::sqrt(x); });
      else if (e == 2) unary_into(out, self, dt, [](T x) -> T { return x * x; });
      else if (e == 3) unary_into(out, self, dt, [](T x) -> T { return x * x * x; });
      else if (e == -0.5) unary_into(out, self, dt, [](T x) -> T { return T(1) / std::sqrt(x); });
      else if (e == -1) unary_into(out, self, dt, [](T x) -> T { return T(1) / x; });
      else if (e == -2) unary_into(out, self, dt, [](T x) -> T { return T(1) / (x * x); });
      else {  // as 2.15: a run's vector part through SLEEF's pow of float(e), the rest pow(double(x), e)
        const auto op = [e](T x) -> T { return static_cast<T>(std::pow(static_cast<double>(x), e)); };
        const T ev = static_cast<T>(e);
        cpu::with_computation(out, {self}, dt, [&](const TensorIterator& iter) {
          cpu::cpu_unary_kernel_rows<T>(iter, op, [&](const T* x, T* y, int64_t n) {
            const int64_t full = cpu::vector_part<T>(n);
            if (full) cpu::sleef_avx2::pow(x, 1, &ev, 0, y, full);
            for (int64_t i = full; i < n; ++i) y[i] = op(x[i]);
          });
        });
      }
    } else {
      unary_into(out, self, dt, [&](T x) -> T {
        return e == 2 ? static_cast<T>(x * x) : static_cast<T>(std::pow(static_cast<double>(x), e));
      });
    }
  });
}

Tensor pow_scalar_cpu(const Tensor& self, const Scalar& exponent) {
  check_pow_exponent(self, exponent);
  ScalarType dt = pow_scalar_dtype(self, exponent);
  Tensor out = make_empty_like_layout(self.sizes(), dt, self.device(), self);
  pow_scalar_into(out, self, dt, exponent);
  return out;
}

Tensor pow_scalar_cpu_(const Tensor& self, const Scalar& exponent) {
  check_pow_exponent(self, exponent);
  ScalarType dt = pow_scalar_dtype(self, exponent);
  IPT_CHECK(can_cast(dt, self.dtype()), RuntimeError, "result type ", dtype_cpp_name(dt),
            " can't be cast to the desired output type ", dtype_cpp_name(self.dtype()));
  pow_scalar_into(self, self, self.dtype(), exponent);
  return self;
}

// ---- activations and the optimizers' fused updates ------------------------------------------

namespace {

// sigmoid as PyTorch's kernel computes it: in blocks of two vectors (16 floats, 8 doubles) of a
// contiguous run its vector form 1 / (exp(0 - x) + 1) with SLEEF's exp; the rest of the run, and
// other layouts, its scalar form 1 / (1 + std::exp(-x)).
template <typename T>
T sigmoid_scalar(T x) {
  return static_cast<T>(1) / (static_cast<T>(1) + std::exp(-x));
}
template <typename T>
T sigmoid_vector(T x) {
  return static_cast<T>(1) / (cpu::vml::exp(static_cast<T>(0) - x) + static_cast<T>(1));
}
// A contiguous run of sigmoid as PyTorch's vectorized loop computes it: blocks of two vectors
// from the run's start in the vector form, the rest in the scalar form.
template <typename T>
struct sigmoid_row_fn {
  void operator()(const T* x, T* y, int64_t n) const {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      constexpr int64_t block = 2 * (32 / static_cast<int64_t>(sizeof(T)));
      const int64_t vec_end = n - n % block;
      // The vector form a few hundred elements at a time: exp(0 - x) over the run with SLEEF's
      // vector function (lanes are independent: the same values as one lane at a time).
      constexpr int64_t chunk = 256;
      T e[chunk];
      for (int64_t i0 = 0; i0 < vec_end; i0 += chunk) {
        const int64_t m = std::min(chunk, vec_end - i0);
        for (int64_t i = 0; i < m; ++i) e[i] = static_cast<T>(0) - x[i0 + i];
        cpu::vml::exp_row(e, e, m);
        for (int64_t i = 0; i < m; ++i) y[i0 + i] = static_cast<T>(1) / (e[i] + static_cast<T>(1));
      }
      for (int64_t i = vec_end; i < n; ++i) y[i] = sigmoid_scalar(x[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) y[i] = sigmoid_scalar(x[i]);
    }
  }
};

// out[i] = Op<T>{value}(a[i], b[i], c[i]) over the broadcast operands, computed in `compute`
// (T); the value is cast to T once, as PyTorch's kernel casts it.
template <template <typename> class Op>
void ternary_into(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c, ScalarType compute,
                  const Scalar& value) {
  cpu::with_computation(out, {a, b, c}, compute, [&](const TensorIterator& iter) {
    visit_dtype(compute, [&]<typename T>() { cpu::cpu_kernel<T, 3>(iter, Op<T>{value.to<T>()}); });
  });
}

template <template <typename> class Op>
Tensor ternary_out_of_place(const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& value) {
  PointwiseGeometry g = ternary_geometry(a, b, c);
  Tensor out = make_empty_like_layout(g.sizes, g.out_dtype, a.device(),
                                      a.sizes() == g.sizes   ? a
                                      : b.sizes() == g.sizes ? b
                                                             : c);
  ternary_into<Op>(out, a, b, c, g.compute_dtype, value);
  return out;
}

template <template <typename> class Op>
Tensor ternary_in_place(const Tensor& self, const Tensor& b, const Tensor& c, const Scalar& value) {
  PointwiseGeometry g = inplace_ternary_geometry(self, b, c);
  ternary_into<Op>(self, self, b, c, g.compute_dtype, value);
  return self;
}

// self + value * t1 * t2 (the value is cast to the compute type first, as PyTorch's kernel does).
// In float and double, PyTorch 2.15's AVX2 build contracts its `self + value * t1 * t2` into one
// fused multiply-add, fma(value * t1, t2, self); so does this kernel, to match it bit for bit.
template <typename T>
struct AddcmulOp {
  T value;
  static constexpr bool fused_multiply_add = std::is_same_v<T, float> || std::is_same_v<T, double>;
  T operator()(T s, T t1, T t2) const {
    if constexpr (std::is_same_v<T, bool>) return s || (value && t1 && t2);
    else if constexpr (fused_multiply_add) return std::fma(value * t1, t2, s);
    else return static_cast<T>(s + value * t1 * t2);
  }
};
// self + value * t1 / t2, left to right: (value * t1) / t2, then the add (a division cannot fuse).
template <typename T>
struct AddcdivOp {
  T value;
  T operator()(T s, T t1, T t2) const {
    if constexpr (std::is_same_v<T, bool>) return s;
    else return static_cast<T>(s + value * t1 / t2);
  }
};

}  // namespace

void sigmoid_into_cpu(const Tensor& out, const Tensor& self) {
  unary_rows_into<sigmoid_row_fn>(out, self, unary_dtype(self, PromoteInts::ToFloat),
                                  [](auto x) { return sigmoid_scalar(x); });
}
void tanh_into_cpu(const Tensor& out, const Tensor& self) {
  unary_rows_into<tanh_row_fn>(
      out, self, unary_dtype(self, PromoteInts::ToFloat), [](auto x) { return cpu::vml::tanh(x); }, kVmlGrain);
}
void sqrt_into_cpu(const Tensor& out, const Tensor& self) {
  unary_into(out, self, unary_dtype(self, PromoteInts::ToFloat), [](auto x) { return std::sqrt(x); });
}

Tensor addcmul_cpu(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return ternary_out_of_place<AddcmulOp>(self, tensor1, tensor2, value);
}
Tensor addcmul_cpu_(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return ternary_in_place<AddcmulOp>(self, tensor1, tensor2, value);
}
Tensor addcdiv_cpu(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  check_addcdiv(tensor1, tensor2);
  return ternary_out_of_place<AddcdivOp>(self, tensor1, tensor2, value);
}
Tensor addcdiv_cpu_(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  check_addcdiv(tensor1, tensor2);
  return ternary_in_place<AddcdivOp>(self, tensor1, tensor2, value);
}

Tensor zero_cpu_(const Tensor& self) { return fill_cpu_(self, Scalar(int64_t(0))); }

// ---- elementwise math ----------------------------------------------------------------------

#define IPT_VML_UNARY(name)                                                                                       \
  void name##_into_cpu(const Tensor& out, const Tensor& self) {                                                   \
    unary_rows_into<name##_row_fn>(                                                                               \
        out, self, unary_dtype(self, PromoteInts::ToFloat), [](auto x) { return cpu::vml::name(x); }, kVmlGrain); \
  }
IPT_VML_UNARY(sin)
IPT_VML_UNARY(cos)
IPT_VML_UNARY(tan)
#undef IPT_VML_UNARY
void log_into_cpu(const Tensor& out, const Tensor& self) {
  unary_rows_into<log_row_fn>(
      out, self, unary_dtype(self, PromoteInts::ToFloat), [](auto x) { return cpu::vml::log_op(x); }, kVmlGrain);
}
#define IPT_FLOAT_UNARY(name, expr)                                                              \
  void name##_into_cpu(const Tensor& out, const Tensor& self) {                                  \
    unary_into(out, self, unary_dtype(self, PromoteInts::ToFloat), [](auto x) { return expr; }); \
  }
IPT_FLOAT_UNARY(rsqrt, decltype(x)(1) / std::sqrt(x))
#undef IPT_FLOAT_UNARY

namespace {
// |x| (bool is refused before); floor / ceil leave integers as they are.
struct AbsOp {
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) return x;
    else return x < 0 ? cpu::wrapping_neg(x) : (x == 0 ? T(0) : x);  // abs(-0.0) is 0.0; abs(INT64_MIN) wraps
  }
};
struct FloorOp {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_float_v<T>) return std::floor(x);
    else return x;
  }
};
struct CeilOp {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_float_v<T>) return std::ceil(x);
    else return x;
  }
};
// (0 < x) - (x < 0): 0 for zeros and NaN; a bool is its own sign.
struct SignOp {
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) return x;
    else return static_cast<T>((T(0) < x) - (x < T(0)));
  }
};
}  // namespace

// abs, abs_ and abs.out all come here (core/ops/out_composite_kernels.cpp).
Tensor abs_out_cpu(const Tensor& self, const Tensor& out) {
  check_not_bool(self, "abs_cpu");
  check_out_dtype_is(out, self.dtype());
  resize_output_like(out, self.sizes(), self);
  unary_into(out, self, self.dtype(), AbsOp{});
  return out;
}
Tensor floor_cpu(const Tensor& self) {
  check_not_bool(self, "floor_vml_cpu");
  return unary_out_of_place(self, PromoteInts::No, FloorOp{});
}
Tensor floor_cpu_(const Tensor& self) {
  check_not_bool(self, "floor_vml_cpu");
  return unary_in_place(self, PromoteInts::No, FloorOp{});
}
Tensor ceil_cpu(const Tensor& self) {
  check_not_bool(self, "ceil_vml_cpu");
  return unary_out_of_place(self, PromoteInts::No, CeilOp{});
}
Tensor ceil_cpu_(const Tensor& self) {
  check_not_bool(self, "ceil_vml_cpu");
  return unary_in_place(self, PromoteInts::No, CeilOp{});
}
Tensor sign_cpu(const Tensor& self) { return unary_out_of_place(self, PromoteInts::No, SignOp{}); }
Tensor sign_cpu_(const Tensor& self) { return unary_in_place(self, PromoteInts::No, SignOp{}); }

// clamp: max(x, min) then min(that, max), in the promoted dtype of x and the bounds; NaN stays NaN.
namespace {
// The bounds converted once (not per element): max(x, lo), then min(x, hi), as selects the
// compiler turns into vector max / min. A comparison with NaN is false, so NaN stays NaN. Each
// combination of bounds is its own op, so no row tests for a bound.
template <typename T, bool Lo, bool Hi>
struct ClampOp {
  T lo, hi;
  T operator()(T x) const {
    if constexpr (Lo) x = x < lo ? lo : x;
    if constexpr (Hi) x = x > hi ? hi : x;
    return x;
  }
};

// Runs f(op) with the ClampOp for the bounds given.
template <typename T, typename F>
void with_clamp_op(const std::optional<Scalar>& l, const std::optional<Scalar>& h, const F& f) {
  const T lo = l ? l->to<T>() : T(), hi = h ? h->to<T>() : T();
  if (l && h) f(ClampOp<T, true, true>{lo, hi});
  else if (l) f(ClampOp<T, true, false>{lo, hi});
  else f(ClampOp<T, false, true>{lo, hi});
}
}  // namespace

Tensor clamp_cpu(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  ScalarType dt = clamp_dtype(self, min, max);
  Tensor out = make_empty_like_layout(self.sizes(), dt, self.device(), self);
  visit_dtype(
      dt, [&]<typename T>() { with_clamp_op<T>(min, max, [&](const auto& op) { unary_into(out, self, dt, op); }); });
  return out;
}

Tensor clamp_cpu_(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  check_clamp_inplace(self, min, max);
  visit_dtype(self.dtype(), [&]<typename T>() {
    with_clamp_op<T>(min, max, [&](const auto& op) { unary_into(self, self, self.dtype(), op); });
  });
  return self;
}

// where: the condition stays bool (it is not converted to the values' dtype, as it would be by
// the common-dtype kernels); the two values are converted to the result's dtype when they differ.
Tensor where_cpu(const Tensor& condition, const Tensor& self, const Tensor& other) {
  PointwiseGeometry g = where_geometry(condition, self, other);
  Tensor out = make_empty_like_layout(g.sizes, g.out_dtype, self.device(), self.sizes() == g.sizes ? self : other);
  auto as = [](const Tensor& t, ScalarType dt) {
    return t.dtype() == dt ? t : copy_cpu_(make_empty_like_layout(t.sizes(), dt, t.device(), t), t, false);
  };
  const Tensor c = as(condition, ScalarType::Bool), a = as(self, g.out_dtype), b = as(other, g.out_dtype);
  const Tensor inputs[] = {c, a, b};
  TensorIterator iter(out, inputs);
  visit_dtype(g.out_dtype, [&]<typename T>() {
    constexpr int64_t item = static_cast<int64_t>(sizeof(T));
    cpu::detail::note_plan(iter, item, item, TensorIterator::kDefaultGrain);
    iter.for_each([&](char** data, const int64_t* st, int64_t size0, int64_t size1) {
      const bool contiguous = st[0] == item && st[1] == 1 && st[2] == item && st[3] == item;
      for (int64_t r = 0; r < size1; ++r) {
        T* o = reinterpret_cast<T*>(data[0] + r * st[4]);
        const bool* pc = reinterpret_cast<const bool*>(data[1] + r * st[5]);
        const char* pa = data[2] + r * st[6];
        const char* pb = data[3] + r * st[7];
        if (contiguous) {
          const T* x = reinterpret_cast<const T*>(pa);
          const T* y = reinterpret_cast<const T*>(pb);
          for (int64_t i = 0; i < size0; ++i) o[i] = pc[i] ? x[i] : y[i];
        } else {
          for (int64_t i = 0; i < size0; ++i)
            *reinterpret_cast<T*>(reinterpret_cast<char*>(o) + i * st[0]) =
                *reinterpret_cast<const bool*>(reinterpret_cast<const char*>(pc) + i * st[1])
                    ? *reinterpret_cast<const T*>(pa + i * st[2])
                    : *reinterpret_cast<const T*>(pb + i * st[3]);
        }
      }
    });
  });
  return out;
}

// ---- remainder ---------------------------------------------------------------------------------

namespace {
// Python's %: the result has the divisor's sign (x - floor(x / y) * y); integer division by
// zero is an error, floating division by zero NaN.
struct RemainderOp {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) {
      IPT_CHECK(y, RuntimeError, "ZeroDivisionError");
      return false;
    } else if constexpr (std::is_integral_v<T>) {
      IPT_CHECK(y != 0, RuntimeError, "ZeroDivisionError");
      if (std::is_signed_v<T> && y == T(-1)) return T(0);  // the smallest integer % -1 traps
      T r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
      return r;
    } else {
      T r = std::fmod(x, y);
      if (r != 0 && ((y < 0) != (r < 0))) r += y;
      return r;
    }
  }
};
// A contiguous run's vector part through SLEEF's fmod and 2.15's vector fix-up, the rest
// RemainderOp.
template <typename T>
struct remainder_row {
  void operator()(T* out, const T* a, const T* b, int64_t n) const {
    vector_part_then_op(
        out, a, b, n, [](const auto* x, const auto* y, auto* o, int64_t k) { cpu::sleef_avx2::remainder(x, y, o, k); },
        RemainderOp{});
  }
};
}  // namespace

// div with rounding_mode (PyTorch 2.15's div_true / div_trunc / div_floor kernels); the meta
// function has checked the mode.
void div_mode_out_cpu(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode,
                      const Tensor& out) {
  if (!rounding_mode) return div_into_cpu(out, self, other);
  const ScalarType dt = binary_dtype(self, other, PromoteInts::No);
  if (*rounding_mode == "trunc") {
    IPT_CHECK(dt != ScalarType::Bool, NotImplementedError, "\"div_trunc_cpu\" not implemented for 'Bool'");
    binary_into(out, self, other, dt, TruncDivideOp{});
  } else {
    IPT_CHECK(dt != ScalarType::Bool, NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'");
    binary_into(out, self, other, dt, FloorDivideOp{});
  }
}

// PyTorch 2.15's div_floor and remainder kernels take no bools.
static void check_not_bool_operands(const Tensor& self, const Tensor& other, const char* kernel) {
  (void)broadcast_shapes(self.sizes(), other.sizes());  // the shapes first, as TensorIterator checks
  IPT_CHECK(binary_dtype(self, other, PromoteInts::No) != ScalarType::Bool, NotImplementedError, "\"", kernel,
            "\" not implemented for 'Bool'");
}
Tensor floor_divide_cpu(const Tensor& self, const Tensor& other) {
  check_not_bool_operands(self, other, "div_floor_cpu");
  return binary_out_of_place(self, other, PromoteInts::No, FloorDivideOp{});
}
Tensor floor_divide_cpu_(const Tensor& self, const Tensor& other) {
  check_not_bool_operands(self, other, "div_floor_cpu");
  return binary_in_place(self, other, PromoteInts::No, FloorDivideOp{});
}

Tensor remainder_cpu(const Tensor& self, const Tensor& other) {
  check_not_bool_operands(self, other, "remainder_cpu");
  Tensor out = binary_output(self, other, PromoteInts::No);
  binary_rows_into<remainder_row>(out, self, other, binary_dtype(self, other, PromoteInts::No), RemainderOp{});
  return out;
}
Tensor remainder_cpu_(const Tensor& self, const Tensor& other) {
  check_not_bool_operands(self, other, "remainder_cpu");
  PointwiseGeometry g = inplace_binary_geometry(self, other, PromoteInts::No);
  binary_rows_into<remainder_row>(self, self, other, g.compute_dtype, RemainderOp{});
  return self;
}

}  // namespace ipt::native

namespace ipt::native {
// clamp_min / clamp_max: clamp with one bound.
Tensor clamp_min_cpu(const Tensor& self, const Scalar& min) { return clamp_cpu(self, min, std::nullopt); }
Tensor clamp_min_cpu_(const Tensor& self, const Scalar& min) { return clamp_cpu_(self, min, std::nullopt); }
Tensor clamp_max_cpu(const Tensor& self, const Scalar& max) { return clamp_cpu(self, std::nullopt, max); }
Tensor clamp_max_cpu_(const Tensor& self, const Scalar& max) { return clamp_cpu_(self, std::nullopt, max); }
}  // namespace ipt::native
