#pragma once
// Half: IEEE binary16 storage for torch.float16. As in PyTorch, arithmetic on halves is done
// in float (a Half converts to float implicitly) and the result is rounded back to half when
// it is stored, so `Half(a + b)` gives PyTorch's CPU result for one operation.

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/tensor/float16_storage.h"

namespace ipt {

// float -> binary16, rounding to nearest even (as the hardware conversion does); NaN becomes
// the quiet NaN 0x7e00 with its sign, as in PyTorch.
constexpr uint16_t half_bits_from_float(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (a >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and up round to infinity
  if (a < 0x38800000u) {                        // below 2^-14: a subnormal half (or zero)
    // |f| * 2^24 is exact in float; rounding it to an integer gives the subnormal's bits
    // (1024 is the smallest normal, which has the same bits).
    const float scaled = std::bit_cast<float>(a) * 16777216.0f;
    uint32_t q = static_cast<uint32_t>(scaled);
    const float rest = scaled - static_cast<float>(q);
    if (rest > 0.5f || (rest == 0.5f && (q & 1u))) ++q;
    return sign | static_cast<uint16_t>(q);
  }
  uint32_t h = ((((a >> 23) - 127u + 15u) << 10) | ((a & 0x7fffffu) >> 13));
  const uint32_t rest = a & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry moves into the exponent
  return sign | static_cast<uint16_t>(h);
}

constexpr float float_from_half_bits(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) {  // zero or subnormal: mant * 2^-24, exact in float
    const float v = static_cast<float>(mant) * 5.9604644775390625e-08f;
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp - 15u + 127u) << 23) | (mant << 13));
}

using Half = Float16Storage<half_bits_from_float, float_from_half_bits>;
static_assert(sizeof(Half) == 2);

}  // namespace ipt

// -65504, 65504, 2^-14 (the smallest normal), 2^-10, inf, the quiet NaN.
template <>
class std::numeric_limits<ipt::Half>
    : public ipt::Float16Limits<ipt::Half, 11, 0xfbff, 0x7bff, 0x0400, 0x1400, 0x7c00, 0x7e00> {};
