#pragma once
// PyTorch's transforms from the generator's raw bits to each distribution's values, so a seed
// gives PyTorch's numbers. The multiply-adds are fused (std::fma), as PyTorch's CPU kernels
// are on x86-64 with AVX2: its kernels are compiled with FMA there and the compiler fuses them.

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "core/random/cpu_generator.h"
#include "core/tensor/scalar_type.h"

namespace ipt::random {

// The type a draw for T is computed in (PyTorch's dist_acctype): float for Half and BFloat16.
template <typename T>
using dist_acc_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T>
constexpr int mantissa_digits() {
  return std::numeric_limits<T>::digits;
}

// U[from, to): the low `digits` bits of one draw (64 bits for double, 32 otherwise) as a
// fraction of 2^digits.
template <typename T>
dist_acc_t<T> uniform_real(CpuGenerator& g, T from, T to) {
  using A = dist_acc_t<T>;
  constexpr int digits = mantissa_digits<T>();
  constexpr uint64_t mask = (uint64_t(1) << digits) - 1;
  constexpr A divisor = A(1) / A(uint64_t(1) << digits);
  const uint64_t bits = std::is_same_v<T, double> ? g.random64() : g.random();
  const A x = static_cast<A>(bits & mask) * divisor;
  const A range = static_cast<A>(static_cast<T>(static_cast<A>(to) - static_cast<A>(from)));
  return std::fma(x, range, static_cast<A>(from));
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
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * std::numbers::pi * u1;
  g.next_double_normal = r * std::sin(theta);
  return std::fma(r * std::cos(theta), std, mean);
}

// Integers base + (draw mod range); a range of 2^32 or more takes a 64-bit draw for the types
// that can hold it (int64, float, double).
template <typename T>
T uniform_int_from_to(CpuGenerator& g, uint64_t range, int64_t base) {
  constexpr bool wide = std::is_same_v<T, int64_t> || std::is_same_v<T, double> || std::is_same_v<T, float>;
  const uint64_t bits = (wide && range >= (uint64_t(1) << 32)) ? g.random64() : g.random();
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

// -log(1 - u) / lambda for u ~ U[0, 1) in double.
inline double exponential_double(CpuGenerator& g, double lambda) {
  const double u = uniform_real<double>(g, 0.0, 1.0);
  return -1.0 / lambda * std::log(1.0 - u);
}

}  // namespace ipt::random
