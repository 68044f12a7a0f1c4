// The vector functions picked by CPU capability give the same bits whichever is picked: SLEEF's
// AVX-512 rows (16 floats or 8 doubles at a time) against its AVX2 rows, on random bit patterns
// (every sign, NaN, infinity and denormal among them) and on the ranges kernels meet. (SLEEF's
// AVX-512 sin and cos are not its AVX2 ones in the last bit, so vml.h keeps those on AVX2.)
#include <gtest/gtest.h>

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
  IPT_SAME(float, log);
  IPT_SAME(double, log);
  IPT_SAME(float, tanh);
  IPT_SAME(double, tanh);
  IPT_SAME(float, tan);
#undef IPT_SAME
}

}  // namespace
}  // namespace ipt::cpu
