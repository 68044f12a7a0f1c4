// The vector functions picked by CPU capability give the same bits whichever is picked: SLEEF's
// AVX-512 rows (16 floats or 8 doubles at a time) against its AVX2 rows, on random bit patterns
// (every sign, NaN, infinity and denormal among them) and on the ranges kernels meet. (SLEEF's
// AVX-512 sin and cos are not its AVX2 ones in the last bit, so vml.h keeps those on AVX2.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backends/cpu/vml.h"

namespace ipt::cpu {
namespace {

template <typename T>
std::vector<T> samples(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    if (i % 3 == 0) {  // any bit pattern
      const uint64_t bits = rng();
      std::memcpy(&v[i], &bits, sizeof(T));
    } else {  // [-100, 100)
      v[i] = static_cast<T>(std::uniform_real_distribution<double>(-100.0, 100.0)(rng));
    }
  }
  return v;
}

template <typename T, typename F512, typename F2>
void expect_same_bits(const char* name, F512 wide, F2 narrow) {
  const std::vector<T> x = samples<T>(1 << 20);
  std::vector<T> a(x.size()), b(x.size());
  wide(x.data(), a.data(), static_cast<int64_t>(x.size()));
  narrow(x.data(), b.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(T)), 0) << name << "(" << x[i] << "): " << a[i] << " vs " << b[i];
}

TEST(VectorIsa, SleefAvx512RowsAreTheAvx2Rows) {
  if (!has_avx512()) GTEST_SKIP() << "no AVX-512 on this CPU";
#define IPT_SAME(T, name)                                                      \
  expect_same_bits<T>(                                                         \
      #name, [](const T* x, T* y, int64_t n) { sleef_avx512::name(x, y, n); }, \
      [](const T* x, T* y, int64_t n) { sleef_avx2::name(x, y, n); })
  IPT_SAME(float, exp);
  IPT_SAME(double, exp);
  IPT_SAME(double, log);
  IPT_SAME(float, tanh);
  IPT_SAME(double, tanh);
  IPT_SAME(float, tan);
#define IPT_SAME_BOTH(name) \
  IPT_SAME(float, name);    \
  IPT_SAME(double, name)
  IPT_SAME_BOTH(erf);
  IPT_SAME_BOTH(asin);
  IPT_SAME_BOTH(acos);
  IPT_SAME_BOTH(atan);
  IPT_SAME_BOTH(log1p);
  IPT_SAME_BOTH(expm1);
  IPT_SAME_BOTH(log2);
  IPT_SAME_BOTH(log10);
#undef IPT_SAME_BOTH
#undef IPT_SAME
}

// Note [float log] in log_float.cpp: its table gives exact reductions, and the scalar, AVX2 and
// AVX-512 paths give the same bits, within an ulp of log and almost always the correctly
// rounded float.
float float_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

TEST(LogFloat, TableGivesExactReductions) {
  for (int i = 0; i < 32; ++i) {
    const uint32_t first = 0x3f330000u + (static_cast<uint32_t>(i) << 18), last = first + (1u << 18);
    const float invc = log_float::inverse_centres()[i];
    const double lo = float_from_bits(first), hi = float_from_bits(last);
    EXPECT_LT(std::fabs(1.0 / invc - (lo <= 1.0 && 1.0 < hi ? 1.0 : (lo + hi) / 2)), (hi - lo) / 2)
        << i;                                  // within half an interval
    for (uint32_t b = first; b < last; ++b) {  // r = z * invc - 1 is exact in float, and small
      const double r = static_cast<double>(float_from_bits(b)) * invc - 1.0;
      ASSERT_EQ(static_cast<double>(static_cast<float>(r)), r) << i;
      ASSERT_LT(std::fabs(r), 0.024) << i;
    }
    const float log_hi = log_float::log_centres_high()[i], log_lo = log_float::log_centres_low()[i];
    EXPECT_EQ(std::ldexp(std::nearbyint(std::ldexp(log_hi, 16)), -16), log_hi) << i;  // a multiple of 2^-16
    const long double log_c = -std::log(static_cast<long double>(invc));
    EXPECT_EQ(static_cast<float>(log_c - log_hi), log_lo) << i;
    EXPECT_LE(std::fabs(static_cast<double>(log_c - log_hi)), 0x1p-17) << i;
  }
}

TEST(LogFloat, EveryPathGivesTheSameBitsWithinAnUlp) {
  // every 101st positive float bit pattern, zero to infinity, and the specials
  std::vector<float> x;
  for (uint64_t b = 0; b <= 0x7f800000u; b += 101) x.push_back(float_from_bits(static_cast<uint32_t>(b)));
  for (float v : {0.0f, -0.0f, -1.0f, 1.0f, 2.0f, 0.5f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                  std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                  std::numeric_limits<float>::max(), float_from_bits(0x3f7fffffu), float_from_bits(0x3f800001u)})
    x.push_back(v);
  const int64_t n = static_cast<int64_t>(x.size());
  std::vector<float> scalar(x.size());
  for (size_t i = 0; i < x.size(); ++i) scalar[i] = log_float::scalar(x[i]);
  int64_t rounded_otherwise = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = static_cast<float>(std::log(static_cast<long double>(x[i])));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(scalar[i])) << x[i];
      continue;
    }
    if (scalar[i] == want) continue;
    ++rounded_otherwise;
    ASSERT_EQ(std::nextafter(want, scalar[i]), scalar[i]) << "log(" << x[i] << ") = " << scalar[i] << ", want " << want;
  }
  EXPECT_LE(rounded_otherwise, n / 100000) << "of " << n;  // 56 of 21M when written
  const auto same_bits = [&](const char* name, const std::vector<float>& got) {
    for (size_t i = 0; i < x.size(); ++i)
      ASSERT_EQ(std::memcmp(&got[i], &scalar[i], sizeof(float)), 0) << name << " log(" << x[i] << "): " << got[i];
  };
  if (has_avx2()) {
    std::vector<float> lanes(x.size()), rows(x.size());
    for (size_t i = 0; i < x.size(); ++i) lanes[i] = log_float::lane(x[i]);
    log_float::avx2(x.data(), rows.data(), n);
    same_bits("lane", lanes);
    same_bits("avx2", rows);
  }
  if (has_avx512()) {
    std::vector<float> rows(x.size());
    log_float::avx512(x.data(), rows.data(), n);
    same_bits("avx512", rows);
  }
}

}  // namespace
}  // namespace ipt::cpu
