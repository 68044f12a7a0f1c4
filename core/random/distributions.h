#pragma once
// PyTorch's transforms from the generator's raw bits to each distribution's values, so a seed
// gives PyTorch's numbers. The multiply-adds are fused (std::fma), as PyTorch's CPU kernels
// are on x86-64 with AVX2: its kernels are compiled with FMA there and the compiler fuses them.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "core/random/cpu_generator.h"
#include "core/tensor/scalar_type.h"

namespace ipt::random {

template <typename T>
constexpr int mantissa_digits() {
  return std::numeric_limits<T>::digits;
}

// A draw's low `digits` bits as a fraction of 2^digits: U[0, 1) in T.
template <typename T>
T unit_from_bits(uint64_t bits) {
  constexpr int digits = mantissa_digits<T>();
  constexpr uint64_t mask = (uint64_t(1) << digits) - 1;
  constexpr T divisor = T(1) / T(uint64_t(1) << digits);
  return static_cast<T>(bits & mask) * divisor;
}

// U[from, to) for float or double from one draw (64 bits for double, 32 for float). PyTorch
// 2.15 draws float16 and bfloat16 values as floats (their opmath type) and rounds them.
template <typename T>
requires(std::is_same_v<T, float> || std::is_same_v<T, double>) T uniform_real(CpuGenerator& g, T from, T to) {
  const T x = unit_from_bits<T>(std::is_same_v<T, double> ? g.random64() : g.random());
  if (from == T(0) && to == T(1)) return x;  // fma(x, 1, 0) is x: no libm call for rand / randn
  return std::fma(x, to - from, from);
}

// n floats of U[0, 1), the values n calls of uniform_real<float>(g, 0, 1) give, drawn in runs.
inline void uniform_floats(CpuGenerator& g, float* out, int64_t n) {
  constexpr int64_t kRun = 1024;
  uint32_t bits[kRun];
  for (int64_t i = 0; i < n; i += kRun) {
    const int64_t m = std::min(kRun, n - i);
    g.random_fill(bits, m);
    for (int64_t j = 0; j < m; ++j) out[i + j] = unit_from_bits<float>(bits[j]);
  }
}

// N(mean, std) by Box-Muller on two double draws; the pair's second value is kept in the
// generator and returned by the next call.
inline double normal_double(CpuGenerator& g, double mean, double std) {
  if (g.next_double_normal) {
    const double cached = *g.next_double_normal;
    g.next_double_normal.reset();
    return std::fma(cached, std, mean);
  }
  const double u1 = uniform_real<double>(g, 0.0, 1.0);
  const double u2 = uniform_real<double>(g, 0.0, 1.0);
  const double r = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * std::numbers::pi * u1;
  g.next_double_normal = r * std::sin(theta);
  return std::fma(r * std::cos(theta), std, mean);
}

// Integers base + (draw mod range); a range of 2^28 or more takes a 64-bit draw, whatever the
// type (PyTorch 2.15, to keep the modulo's skew small).
template <typename T>
T uniform_int_from_to(CpuGenerator& g, uint64_t range, int64_t base) {
  const uint64_t bits = range >= (uint64_t(1) << 28) ? g.random64() : g.random();
  return static_cast<T>(static_cast<int64_t>(bits % range + static_cast<uint64_t>(base)));
}

// random_() with no bounds: [0, 2^digits] for floating types, [0, max] for integers, 0/1 for bool.
template <typename T>
T uniform_int_full(CpuGenerator& g) {
  const uint64_t bits = (std::is_same_v<T, double> || std::is_same_v<T, int64_t>) ? g.random64() : g.random();
  if constexpr (std::is_same_v<T, bool>) {
    return static_cast<bool>(bits & 1);
  } else if constexpr (is_float_v<T>) {
    return static_cast<T>(static_cast<double>(bits % ((uint64_t(1) << mantissa_digits<T>()) + 1)));
  } else {
    return static_cast<T>(bits % (static_cast<uint64_t>(std::numeric_limits<T>::max()) + 1));
  }
}

// A whole 64-bit draw reinterpreted as int64 (random_(from=INT64_MIN)).
template <typename T>
T uniform_int_full_range(CpuGenerator& g) {
  return static_cast<T>(static_cast<int64_t>(g.random64()));
}

// -log1p(-u) / lambda for u ~ U[0, 1) in double.
inline double exponential_double(CpuGenerator& g, double lambda) {
  const double u = uniform_real<double>(g, 0.0, 1.0);
  return -1.0 / lambda * std::log1p(-u);
}

}  // namespace ipt::random
