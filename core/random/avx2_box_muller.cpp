#include "core/random/avx2_box_muller.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>

namespace ipt::random {

namespace {
uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
}  // namespace

// log(x): x = m * 2^e with m in [sqrt(1/2), sqrt(2)), log(m) by a degree-9 polynomial in m - 1,
// e * log(2) added in two parts (q2 + q1) for accuracy.
float cephes_logf_avx(float x) {
  const bool invalid = x <= 0.0f;
  x = std::fmax(x, float_of(0x00800000U));  // the smallest normal float: denormals are cut off
  int32_t exponent = static_cast<int32_t>(bits_of(x) >> 23);
  x = float_of((bits_of(x) & ~0x7f800000U) | bits_of(0.5f));
  exponent -= 0x7f;
  float e = static_cast<float>(exponent) + 1.0f;
  const bool below = x < 0.707106781186547524f;
  const float tmp = below ? x : 0.0f;
  x = x - 1.0f;
  e = e - (below ? 1.0f : 0.0f);
  x = x + tmp;
  const float z = x * x;
  static constexpr float p[] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                                -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                                2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
  float y = p[0];
  for (int k = 1; k < 9; ++k) y = std::fma(y, x, p[k]);
  y = y * x;
  y = std::fma(y, z, e * -2.12194440e-4f);
  y = std::fma(-z, 0.5f, y);
  x = std::fma(e, 0.693359375f, x + y);
  return invalid ? std::numeric_limits<float>::quiet_NaN() : x;
}

// sin and cos together: reduce |x| by multiples of pi/4 (the octant j, made even), evaluate the
// sine or the cosine polynomial on the remainder as the octant says, and fix the signs.
void cephes_sincosf_avx(float x, float* sin_out, float* cos_out) {
  uint32_t sign_sin = bits_of(x) & 0x80000000U;
  x = std::fabs(x);
  float y = x * 1.27323954473516f;  // 4 / pi
  int32_t j = static_cast<int32_t>(y);
  j = (j + 1) & ~1;
  y = static_cast<float>(j);
  const uint32_t swap_sign_sin = static_cast<uint32_t>(j & 4) << 29;
  const bool sine_poly_for_sin = (j & 2) == 0;
  x = std::fma(y, -0.78515625f, x);
  x = std::fma(y, -2.4187564849853515625e-4f, x);
  x = std::fma(y, -3.77489497744594108e-8f, x);
  const uint32_t sign_cos = static_cast<uint32_t>(~(j - 2) & 4) << 29;
  sign_sin ^= swap_sign_sin;

  const float z = x * x;
  float yc = 2.443315711809948E-005f;
  yc = std::fma(yc, z, -1.388731625493765E-003f);
  yc = std::fma(yc, z, 4.166664568298827E-002f);
  yc = yc * z;
  yc = std::fma(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;

  float ys = -1.9515295891E-4f;
  ys = std::fma(ys, z, 8.3321608736E-3f);
  ys = std::fma(ys, z, -1.6666654611E-1f);
  ys = ys * z;
  ys = std::fma(ys, x, x);

  const float s = sine_poly_for_sin ? ys : yc;
  const float c = sine_poly_for_sin ? yc : ys;
  *sin_out = float_of(bits_of(s) ^ sign_sin);
  *cos_out = float_of(bits_of(c) ^ sign_cos);
}

namespace box_muller_avx2 {
void blocks_of_16(float* data, int64_t blocks, float mean, float std);  // box_muller_avx2.cpp
}

void box_muller_blocks_avx2(float* data, int64_t blocks, float mean, float std) {
  static const bool vectors = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (vectors) return box_muller_avx2::blocks_of_16(data, blocks, mean, std);
  for (int64_t b = 0; b < blocks; ++b) box_muller_16_scalar(data + 16 * b, mean, std);
}

void box_muller_16_avx2(float* data, float mean, float std) { box_muller_blocks_avx2(data, 1, mean, std); }

void box_muller_16_scalar(float* data, float mean, float std) {
  const float two_pi = static_cast<float>(2.0 * std::numbers::pi);
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * cephes_logf_avx(u1));
    const float theta = two_pi * u2;
    float s, c;
    cephes_sincosf_avx(theta, &s, &c);
    data[j] = std::fma(radius * c, std, mean);
    data[j + 8] = std::fma(radius * s, std, mean);
  }
}

}  // namespace ipt::random
