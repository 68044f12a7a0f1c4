// CPU kernels of binary math beyond the arithmetic of pointwise_kernels.cpp: maximum, minimum,
// atan2, fmod and the bitwise and / or / xor, each computing what PyTorch 2.15's kernel computes
// on the loops of pointwise_loops.h (Note [cpu_kernel_vec's tail] in vml.h for the floating ones).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/into_kernels.h"
#include "backends/cpu/pointwise_loops.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// maximum and minimum: NaN where either operand is NaN. PyTorch's vector lanes (_mm256_max_ps /
// _mm256_min_ps, then every bit set where a NaN was) and its scalar form (std::max / std::min,
// then a quiet NaN) differ in the sign of a zero that ties and of the NaN: the vector lane gives
// the second operand on a tie and a NaN with its sign bit set, the scalar one the first operand
// and a positive NaN. Integers and bools have one answer.
template <bool Max>
struct MinMax {
  // The scalar form: std::max (the first unless it is less) / std::min.
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (is_float_v<T>) {
      if (a != a || b != b) return std::numeric_limits<T>::quiet_NaN();
    }
    if constexpr (Max) return a < b ? b : a;
    else return b < a ? b : a;
  }
  // A vector lane, for float and double.
  template <typename T>
  static T lane(T a, T b) {
    if (a != a || b != b) {
      using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
      return std::bit_cast<T>(~Bits(0));
    }
    if constexpr (Max) return a > b ? a : b;
    else return a < b ? a : b;
  }
};
template <bool Max, typename T>
[[gnu::always_inline]] inline void min_max_row_body(T* out, const T* a, const T* b, int64_t n) {
  int64_t i = 0;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    for (const int64_t full = cpu::vector_part<T>(n); i < full; ++i) out[i] = MinMax<Max>::lane(a[i], b[i]);
  } else if constexpr (is_reduced_float_v<T>) {
    for (const int64_t full = cpu::vector_part<T>(n); i < full; ++i)
      out[i] = static_cast<T>(MinMax<Max>::lane(static_cast<float>(a[i]), static_cast<float>(b[i])));
  }
  for (; i < n; ++i) out[i] = MinMax<Max>{}(a[i], b[i]);
}
// The row compiled for AVX2 too (its selects become vector blends), picked by the CPU.
template <bool Max, typename T>
[[gnu::target("avx2")]] void min_max_row_avx2(T* out, const T* a, const T* b, int64_t n) {
  min_max_row_body<Max>(out, a, b, n);
}
template <bool Max, typename T>
void min_max_row(T* out, const T* a, const T* b, int64_t n) {
  if (cpu::has_avx2()) min_max_row_avx2<Max>(out, a, b, n);
  else min_max_row_body<Max>(out, a, b, n);
}
template <typename T>
struct maximum_row {
  void operator()(T* out, const T* a, const T* b, int64_t n) const { min_max_row<true>(out, a, b, n); }
};
template <typename T>
struct minimum_row {
  void operator()(T* out, const T* a, const T* b, int64_t n) const { min_max_row<false>(out, a, b, n); }
};

// atan2(self, other): glibc's, through float for float16 and bfloat16; a contiguous run's vector
// part goes through SLEEF's.
struct Atan2Op {
  template <typename T>
  T operator()(T y, T x) const {
    return cpu::through_float([](auto p, auto q) { return std::atan2(p, q); }, y, x);
  }
};
template <typename T>
struct atan2_row {
  void operator()(T* out, const T* y, const T* x, int64_t n) const {
    int64_t i = 0;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      i = cpu::vector_part<T>(n);
      if (i) cpu::sleef_avx2::atan2(y, x, out, i);
    } else if constexpr (is_reduced_float_v<T>) {
      for (const int64_t full = cpu::vector_part<T>(n); i < full; ++i)
        out[i] = static_cast<T>(cpu::sleef_avx2::atan2(static_cast<float>(y[i]), static_cast<float>(x[i])));
    }
    for (; i < n; ++i) out[i] = Atan2Op{}(y[i], x[i]);
  }
};

// C's fmod: the remainder with the dividend's sign. An integer divided by zero is an error.
struct FmodOp {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      IPT_CHECK(b != 0, RuntimeError, "ZeroDivisionError");
      if constexpr (std::is_same_v<T, bool>) return false;
      else if (std::is_signed_v<T> && b == T(-1)) return T(0);  // the smallest integer % -1 traps
      else return static_cast<T>(a % b);
    } else {
      return cpu::through_float([](auto p, auto q) { return std::fmod(p, q); }, a, b);
    }
  }
};

// A contiguous run's vector part through SLEEF's fmod (2.15's vector lambda), the rest FmodOp.
template <typename T>
struct fmod_row {
  void operator()(T* out, const T* a, const T* b, int64_t n) const {
    vector_part_then_op(
        out, a, b, n, [](const auto* x, const auto* y, auto* o, int64_t k) { cpu::sleef_avx2::fmod(x, y, o, k); },
        FmodOp{});
  }
};

// The bitwise ops of integers; of bools, the logical ones.
#define IPT_BITWISE_OP(Name, op, bool_op)                                      \
  struct Name {                                                                \
    template <typename T>                                                      \
    T operator()(T a, T b) const {                                             \
      if constexpr (std::is_same_v<T, bool>) return a bool_op b;               \
      else if constexpr (std::is_integral_v<T>) return static_cast<T>(a op b); \
      else return a;                                                           \
    }                                                                          \
  };
IPT_BITWISE_OP(BitwiseAndOp, &, &&)
IPT_BITWISE_OP(BitwiseOrOp, |, ||)
IPT_BITWISE_OP(BitwiseXorOp, ^, !=)
#undef IPT_BITWISE_OP

// Shifts of integers, as PyTorch 2.15's: a shift by a negative count or by the width or more
// gives 0 to the left, and the sign (0 or -1) to the right; a left shift works on the unsigned
// bits, so it wraps.
struct LeftShiftOp {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      constexpr int64_t bits = sizeof(T) * 8;
      if (static_cast<int64_t>(b) < 0 || static_cast<int64_t>(b) >= bits) return 0;
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << b);
    } else {
      return a;
    }
  }
};
struct RightShiftOp {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      constexpr int64_t bits = sizeof(T) * 8;
      if (static_cast<int64_t>(b) < 0 || static_cast<int64_t>(b) >= bits) {
        if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
        else return T(0);
      }
      return static_cast<T>(a >> b);
    } else {
      return a;
    }
  }
};

}  // namespace

void maximum_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {
  binary_rows_into<maximum_row>(out, self, other, binary_dtype(self, other, PromoteInts::No), MinMax<true>{});
}
void minimum_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {
  binary_rows_into<minimum_row>(out, self, other, binary_dtype(self, other, PromoteInts::No), MinMax<false>{});
}
void atan2_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {
  binary_rows_into<atan2_row>(out, self, other, binary_dtype(self, other, PromoteInts::ToFloat), Atan2Op{});
}
void fmod_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {
  const ScalarType dt = binary_dtype(self, other, PromoteInts::No);
  IPT_CHECK(dt != ScalarType::Bool, NotImplementedError, "\"fmod_cpu\" not implemented for 'Bool'");
  binary_rows_into<fmod_row>(out, self, other, dt, FmodOp{});
}
#define IPT_BITWISE_INTO(name, Op)                                                                                  \
  void name##_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {                                \
    const ScalarType dt = binary_dtype(self, other, PromoteInts::No);                                               \
    IPT_CHECK(!is_floating(dt), NotImplementedError, "\"" #name "_cpu\" not implemented for '", dtype_cpp_name(dt), \
              "'");                                                                                                 \
    binary_into(out, self, other, dt, Op{});                                                                        \
  }
IPT_BITWISE_INTO(bitwise_and, BitwiseAndOp)
IPT_BITWISE_INTO(bitwise_or, BitwiseOrOp)
IPT_BITWISE_INTO(bitwise_xor, BitwiseXorOp)
#undef IPT_BITWISE_INTO
// The shifts refuse bool as well as the floating types (PyTorch's integral dispatch).
#define IPT_SHIFT_INTO(name, kernel, Op)                                                                               \
  void name##_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other) {                                   \
    const ScalarType dt = binary_dtype(self, other, PromoteInts::No);                                                  \
    IPT_CHECK(is_integral(dt, false), NotImplementedError, "\"" kernel "\" not implemented for '", dtype_cpp_name(dt), \
              "'");                                                                                                    \
    binary_into(out, self, other, dt, Op{});                                                                           \
  }
IPT_SHIFT_INTO(bitwise_left_shift, "lshift_cpu", LeftShiftOp)
IPT_SHIFT_INTO(bitwise_right_shift, "rshift_cpu", RightShiftOp)
#undef IPT_SHIFT_INTO

// The structured out= kernels (their Meta functions made `out`).
#define IPT_BINARY_OUT(name) \
  void name##_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) { name##_into_cpu(out, self, other); }
IPT_BINARY_OUT(maximum)
IPT_BINARY_OUT(minimum)
IPT_BINARY_OUT(atan2)
IPT_BINARY_OUT(fmod)
IPT_BINARY_OUT(bitwise_and)
IPT_BINARY_OUT(bitwise_or)
IPT_BINARY_OUT(bitwise_xor)
IPT_BINARY_OUT(bitwise_left_shift)
IPT_BINARY_OUT(bitwise_right_shift)
#undef IPT_BINARY_OUT

// clamp with tensor bounds (PyTorch 2.15's clamp_Tensor_out): with both, min(max(x, lo), hi) as
// its vector lanes compute it (NaN where any operand is NaN); with one, maximum or minimum.
namespace {
struct ClampTensorOp {
  template <typename T>
  T operator()(T x, T lo, T hi) const {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return MinMax<false>::lane(MinMax<true>::lane(x, lo), hi);
    } else if constexpr (is_reduced_float_v<T>) {
      const float r = MinMax<false>::lane(MinMax<true>::lane(static_cast<float>(x), static_cast<float>(lo)),
                                          static_cast<float>(hi));
      return static_cast<T>(r);
    } else {
      return MinMax<false>{}(MinMax<true>{}(x, lo), hi);
    }
  }
};
}  // namespace

void clamp_tensor_out_cpu(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                          const Tensor& out) {
  const bool lo = min && min->defined(), hi = max && max->defined();
  if (lo && !hi) return maximum_into_cpu(out, self, *min);
  if (hi && !lo) return minimum_into_cpu(out, self, *max);
  const ScalarType dt = result_type({&self, &*min, &*max});
  IPT_CHECK(dt != ScalarType::Bool, NotImplementedError, "\"clamp_cpu\" not implemented for 'Bool'");
  cpu::with_computation(out, {self, *min, *max}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() { cpu::cpu_kernel<T, 3>(iter, ClampTensorOp{}); });
  });
}

// frac: x - trunc(x); copysign: |a| with b's sign; hypot: sqrt(a^2 + b^2) without overflow (glibc's).
void frac_out_cpu(const Tensor& self, const Tensor& out) {
  IPT_CHECK(is_floating(self.dtype()), NotImplementedError, "\"frac_cpu\" not implemented for '",
            dtype_cpp_name(self.dtype()), "'");
  unary_into(out, self, self.dtype(),
             [](auto x) { return cpu::through_float([](auto v) { return v - std::trunc(v); }, x); });
}
namespace {
template <typename T>
T from_double(double v) {
  if constexpr (std::is_arithmetic_v<T>) return static_cast<T>(v);
  else return T(static_cast<float>(v));
}
}  // namespace

// nan_to_num: NaN, +inf and -inf replaced (by default 0 and the dtype's largest and lowest
// finite values); integers and bools copied as they are.
void nan_to_num_out_cpu(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                        std::optional<double> neginf, const Tensor& out) {
  if (!is_floating(self.dtype())) {
    copy_cpu_(out, self, false);
    return;
  }
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      const T n = from_double<T>(nan.value_or(0.0));
      const T p = posinf ? from_double<T>(*posinf) : std::numeric_limits<T>::max();
      const T q = neginf ? from_double<T>(*neginf) : std::numeric_limits<T>::lowest();
      cpu::with_computation(out, {self}, self.dtype(), [&](const TensorIterator& iter) {
        cpu::cpu_kernel<T, 1>(iter, [=](T x) {
          using V = std::conditional_t<std::is_arithmetic_v<T>, T, float>;
          const V v = static_cast<V>(x), inf = std::numeric_limits<V>::infinity();
          return std::isnan(v) ? n : v == inf ? p : v == -inf ? q : x;
        });
      });
    }
  });
}

// sinc: sin(pi x) / (pi x), 1 at 0; float16 and bfloat16 compute in float (2.15's opmath).
void sinc_out_cpu(const Tensor& self, const Tensor& out) {
  unary_into(out, self, out.dtype(), [](auto a) {
    using T = decltype(a);
    if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>) {
      return a;
    } else {
      using Op = std::conditional_t<std::is_same_v<T, double>, double, float>;
      const Op x = static_cast<Op>(a);
      if (x == Op(0)) return static_cast<T>(Op(1));
      const Op product = static_cast<Op>(M_PI) * x;
      return static_cast<T>(std::sin(product) / product);
    }
  });
}

void copysign_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) {
  binary_into(out, self, other, binary_dtype(self, other, PromoteInts::ToFloat), [](auto a, auto b) {
    return cpu::through_float([](auto p, auto q) { return std::copysign(p, q); }, a, b);
  });
}
void hypot_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) {
  const ScalarType dt = binary_dtype(self, other, PromoteInts::No);
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"hypot_cpu\" not implemented for '", dtype_cpp_name(dt), "'");
  // as 2.15's cpu_kernel_vec: a run's vector part through SLEEF's hypot, the rest glibc's
  const auto op = [](auto a, auto b) {
    return cpu::through_float([](auto p, auto q) { return std::hypot(p, q); }, a, b);
  };
  cpu::with_computation(out, {self, other}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() {
      cpu::cpu_binary_kernel_vec<T>(iter, op, [&](T* o, const T* a, int64_t sa, const T* b, int64_t sb, int64_t n) {
        vector_part_then_op(
            o, a, sa, b, sb, n,
            [](const auto* x, int64_t sx, const auto* y, int64_t sy, auto* r, int64_t k) {
              cpu::sleef_avx2::hypot(x, sx, y, sy, r, k);
            },
            op);
      });
    });
  });
}

}  // namespace ipt::native
