#pragma once
// BFloat16: the upper half of an IEEE binary32, storage for torch.bfloat16. As with Half,
// arithmetic is done in float and the result is rounded back when it is stored, which is
// what PyTorch's CPU kernels do for this type.

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ipt {

// float -> bfloat16, rounding to nearest even; NaN becomes the quiet NaN 0x7fc0 (PyTorch's).
constexpr uint16_t bfloat16_bits_from_float(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
  const uint32_t bias = 0x7fffu + ((x >> 16) & 1u);  // ties go to the even upper half
  return static_cast<uint16_t>((x + bias) >> 16);
}

constexpr float float_from_bfloat16_bits(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

struct BFloat16 {
  uint16_t bits{};
  BFloat16() = default;
  template <typename U>
    requires(!std::is_same_v<U, BFloat16>)
  BFloat16(U v) : bits(bfloat16_bits_from_float(static_cast<float>(v))) {}
  operator float() const { return float_from_bfloat16_bits(bits); }
  BFloat16& operator+=(float v) { return *this = BFloat16(float(*this) + v); }
  BFloat16& operator-=(float v) { return *this = BFloat16(float(*this) - v); }
  BFloat16& operator*=(float v) { return *this = BFloat16(float(*this) * v); }
  BFloat16& operator/=(float v) { return *this = BFloat16(float(*this) / v); }
};
static_assert(sizeof(BFloat16) == 2);

}  // namespace ipt

template <>
class std::numeric_limits<ipt::BFloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 8;
  static ipt::BFloat16 lowest() { return from_bits(0xff7f); }
  static ipt::BFloat16 max() { return from_bits(0x7f7f); }
  static ipt::BFloat16 min() { return from_bits(0x0080); }
  static ipt::BFloat16 epsilon() { return from_bits(0x3c00); }
  static ipt::BFloat16 infinity() { return from_bits(0x7f80); }
  static ipt::BFloat16 quiet_NaN() { return from_bits(0x7fc0); }

 private:
  static ipt::BFloat16 from_bits(uint16_t b) {
    ipt::BFloat16 v;
    v.bits = b;
    return v;
  }
};
