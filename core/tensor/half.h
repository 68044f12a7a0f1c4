#pragma once
// Half: IEEE binary16 storage for torch.float16. As in PyTorch, arithmetic on halves is done
// in float (a Half converts to float implicitly) and the result is rounded back to half when
// it is stored, so `Half(a + b)` gives PyTorch's CPU result for one operation.

#include <cstdint>
#include <limits>
#include <type_traits>

namespace ipt {

struct Half {
  _Float16 value{};
  Half() = default;
  template <typename U>
    requires(!std::is_same_v<U, Half>)
  Half(U v) : value(static_cast<_Float16>(static_cast<float>(v))) {}
  operator float() const { return static_cast<float>(value); }
  Half& operator+=(float v) { return *this = Half(float(*this) + v); }
  Half& operator-=(float v) { return *this = Half(float(*this) - v); }
  Half& operator*=(float v) { return *this = Half(float(*this) * v); }
  Half& operator/=(float v) { return *this = Half(float(*this) / v); }
};
static_assert(sizeof(Half) == 2);

// The type a kernel computes in for elements of type T (PyTorch's opmath_type).
template <typename T>
struct opmath {
  using type = T;
};
template <>
struct opmath<Half> {
  using type = float;
};
template <typename T>
using opmath_t = typename opmath<T>::type;

// std::is_floating_point_v, counting Half.
template <typename T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, Half>;

}  // namespace ipt

template <>
class std::numeric_limits<ipt::Half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 11;
  static ipt::Half lowest() { return ipt::Half(-65504.0f); }
  static ipt::Half max() { return ipt::Half(65504.0f); }
  static ipt::Half min() { return ipt::Half(6.103515625e-05f); }
  static ipt::Half epsilon() { return ipt::Half(0.0009765625f); }
  static ipt::Half infinity() { return ipt::Half(std::numeric_limits<float>::infinity()); }
  static ipt::Half quiet_NaN() { return ipt::Half(std::numeric_limits<float>::quiet_NaN()); }
};
