// float16 conversions: float -> half rounds to nearest even as PyTorch 2.15's CPU Half
// conversion does, recorded by gen_half_expected.py; half -> float is exact.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

#include "core/tensor/half.h"

namespace ipt {
namespace {

TEST(Half, RoundsAsPyTorch) {
  std::ifstream in(IPT_HALF_EXPECTED_JSON);
  ASSERT_TRUE(in) << IPT_HALF_EXPECTED_JSON;
  const auto cases = nlohmann::json::parse(in).at("float_bits_to_half_bits");
  ASSERT_GT(cases.size(), 3000u);
  int wrong = 0;
  for (const auto& c : cases) {
    const float f = std::bit_cast<float>(c[0].get<uint32_t>());
    const uint16_t want = c[1].get<uint16_t>();
    if (half_bits_from_float(f) != want && ++wrong < 10)
      ADD_FAILURE() << f << " -> " << half_bits_from_float(f) << ", PyTorch " << want;
  }
  EXPECT_EQ(wrong, 0);
}

TEST(Half, EveryHalfConvertsToFloatAndBack) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const float f = float_from_half_bits(static_cast<uint16_t>(b));
    if (std::isnan(f)) {
      EXPECT_EQ(half_bits_from_float(f) & 0x7fffu, 0x7e00u);  // PyTorch's quiet NaN
      continue;
    }
    ASSERT_EQ(half_bits_from_float(f), b) << "half bits " << b << " -> " << f;
  }
  EXPECT_EQ(float(Half(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(float(Half(65520.0f))));
  const Half small(0.0004f);
  EXPECT_EQ(Half(1.0f) + small, 1.0f + float(small));  // arithmetic happens in float
}

}  // namespace
}  // namespace ipt
