#pragma once
// A 16-bit floating-point element (torch.float16's Half, torch.bfloat16's BFloat16): stored as
// its bits, converted to float for arithmetic, and rounded back when it is stored, as PyTorch's
// CPU kernels do. The two types differ only in their conversions.

#include <cstdint>
#include <type_traits>

namespace ipt {

template <uint16_t (*ToBits)(float), float (*ToFloat)(uint16_t)>
struct Float16Storage {
  uint16_t bits{};
  Float16Storage() = default;
  template <typename U>
  requires(!std::is_same_v<U, Float16Storage>) Float16Storage(U v) : bits(ToBits(static_cast<float>(v))) {}
  operator float() const { return ToFloat(bits); }
  Float16Storage& operator+=(float v) { return *this = Float16Storage(float(*this) + v); }
  Float16Storage& operator-=(float v) { return *this = Float16Storage(float(*this) - v); }
  Float16Storage& operator*=(float v) { return *this = Float16Storage(float(*this) * v); }
  Float16Storage& operator/=(float v) { return *this = Float16Storage(float(*this) / v); }

  static Float16Storage from_bits(uint16_t b) {
    Float16Storage v;
    v.bits = b;
    return v;
  }
};

// std::numeric_limits of a 16-bit float type, from the bit patterns of its special values.
template <typename T, int Digits, uint16_t Lowest, uint16_t Max, uint16_t Min, uint16_t Epsilon, uint16_t Infinity,
          uint16_t QuietNaN>
struct Float16Limits {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = Digits;
  static T lowest() { return T::from_bits(Lowest); }
  static T max() { return T::from_bits(Max); }
  static T min() { return T::from_bits(Min); }
  static T epsilon() { return T::from_bits(Epsilon); }
  static T infinity() { return T::from_bits(Infinity); }
  static T quiet_NaN() { return T::from_bits(QuietNaN); }
};

}  // namespace ipt
