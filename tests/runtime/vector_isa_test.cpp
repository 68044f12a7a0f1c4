// The vector functions picked by CPU capability give the same bits whichever is picked: SLEEF's
// AVX-512 rows (16 floats or 8 doubles at a time) against its AVX2 rows, on random bit patterns
// (every sign, NaN, infinity and denormal among them) and on the ranges kernels meet. (SLEEF's
// AVX-512 sin and cos are not its AVX2 ones in the last bit, so vml.h keeps those on AVX2.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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
#undef IPT_SAME
}

// Units in the last place between two floats of the same sign.
int64_t ulps(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return ia > ib ? int64_t(ia) - ib : int64_t(ib) - ia;
}

// The elementwise float log (Note [A float log evaluated in double]) is within one ulp of the
// exact log, rounded once, over every 61st positive normal float (a full sweep of all 2^31 gives
// the same bound, with 1 float of 2,130,706,432 not the correctly rounded one; it takes too long
// for a unit test under the sanitizers), and is SLEEF's for
// zero, negative, subnormal, infinite and NaN inputs. Runs of every length give the same bits as
// one long run (the tail's padding changes nothing).
TEST(VectorIsa, FloatLogAvx512IsWithinOneUlp) {
  if (!has_avx512()) GTEST_SKIP() << "no AVX-512 on this CPU";
  std::vector<float> x;
  for (uint32_t bits = 0x00800000; bits < 0x7f800000; bits += 61) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    x.push_back(f);
  }
  std::vector<float> y(x.size());
  log_avx512::log(x.data(), y.data(), static_cast<int64_t>(x.size()));
  int64_t off = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const float exact = static_cast<float>(std::log(static_cast<double>(x[i])));
    const int64_t u = ulps(y[i], exact);
    off += u != 0;
    ASSERT_LE(u, 1) << "log(" << x[i] << ") = " << y[i] << ", exact " << exact;
  }
  EXPECT_LT(off, static_cast<int64_t>(x.size() / 10000)) << "rounded otherwise than the exact value too often";

  const std::vector<float> special = samples<float>(1 << 16);
  std::vector<float> a(special.size()), b(special.size());
  log_avx512::log(special.data(), a.data(), static_cast<int64_t>(special.size()));
  sleef_avx2::log(special.data(), b.data(), static_cast<int64_t>(special.size()));
  for (size_t i = 0; i < special.size(); ++i) {
    const float v = special[i];
    if (v > 0 && std::isnormal(v) && std::isfinite(v)) continue;
    ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(float)), 0) << "log(" << v << "): " << a[i] << " vs " << b[i];
  }
  for (int64_t n = 1; n <= 40; ++n) {
    std::vector<float> part(static_cast<size_t>(n));
    log_avx512::log(special.data() + 7, part.data(), n);
    ASSERT_EQ(std::memcmp(part.data(), a.data() + 7, static_cast<size_t>(n) * sizeof(float)), 0) << n;
    ASSERT_EQ(std::memcmp(&part[0], &a[7], sizeof(float)), 0);
    const float one = log_avx512::log(special[7 + n]);
    ASSERT_EQ(std::memcmp(&one, &a[static_cast<size_t>(7 + n)], sizeof(float)), 0) << n;
  }
}

}  // namespace
}  // namespace ipt::cpu
