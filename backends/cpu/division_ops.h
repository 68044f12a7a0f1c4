#pragma once
// The rounding divisions of PyTorch 2.15's div_floor and div_trunc kernels, element by element:
// floor_divide and div(rounding_mode="floor") share FloorDivideOp, div(rounding_mode="trunc")
// is TruncDivideOp.
#include <cmath>
#include <type_traits>

#include "backends/cpu/wrapping.h"
#include "core/tensor/scalar_type.h"
#include "core/util/error.h"

namespace ipt::native {

// Python's //: the quotient rounded toward negative infinity (PyTorch's floor_divide).
struct FloorDivideOp {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) {
      IPT_CHECK(y, RuntimeError, "ZeroDivisionError");
      return x;
    } else if constexpr (std::is_integral_v<T>) {
      IPT_CHECK(y != 0, RuntimeError, "ZeroDivisionError");
      // The smallest integer // -1 traps in hardware; PyTorch 2.15 wraps it, as the
      // multiplication by -1 does, and so does this.
      if (std::is_signed_v<T> && y == T(-1)) return cpu::wrapping_neg(x);
      T q = static_cast<T>(x / y);
      if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
      return q;
    } else {
      using M = opmath_t<T>;
      const M a = x, b = y;
      if (b == 0) return static_cast<T>(a / b);
      // As Python: floor((a - fmod(a, b)) / b), corrected when the division rounds past it.
      const M mod = std::fmod(a, b);
      M div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) div -= M(1);
      M q = std::floor(div);
      if (div - q > M(0.5)) q += M(1);
      if (div == 0) q = std::copysign(M(0), a / b);
      return static_cast<T>(q);
    }
  }
};

// The quotient rounded toward zero: C's integer division (an integer divided by zero is an
// error), trunc(a / b) for floating types.
struct TruncDivideOp {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) {
      IPT_CHECK(y, RuntimeError, "ZeroDivisionError");
      return x;
    } else if constexpr (std::is_integral_v<T>) {
      IPT_CHECK(y != 0, RuntimeError, "ZeroDivisionError");
      if (std::is_signed_v<T> && y == T(-1)) return cpu::wrapping_neg(x);
      return static_cast<T>(x / y);
    } else {
      using M = opmath_t<T>;
      return static_cast<T>(std::trunc(static_cast<M>(x) / static_cast<M>(y)));
    }
  }
};

}  // namespace ipt::native
