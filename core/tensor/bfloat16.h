#pragma once
// BFloat16: the upper half of an IEEE binary32, storage for torch.bfloat16 (computed in float,
// see core/tensor/float16_storage.h).

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/tensor/float16_storage.h"

namespace ipt {

// float -> bfloat16, rounding to nearest even; NaN becomes the quiet NaN 0x7fc0 (PyTorch's).
constexpr uint16_t bfloat16_bits_from_float(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
  const uint32_t bias = 0x7fffu + ((x >> 16) & 1u);  // ties go to the even upper half
  return static_cast<uint16_t>((x + bias) >> 16);
}

constexpr float float_from_bfloat16_bits(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

using BFloat16 = Float16Storage<bfloat16_bits_from_float, float_from_bfloat16_bits>;
static_assert(sizeof(BFloat16) == 2);

}  // namespace ipt

// -3.39e38, 3.39e38, 2^-126 (the smallest normal), 2^-7, inf, the quiet NaN.
template <>
class std::numeric_limits<ipt::BFloat16>
    : public ipt::Float16Limits<ipt::BFloat16, 8, 0xff7f, 0x7f7f, 0x0080, 0x3c00, 0x7f80, 0x7fc0> {};
