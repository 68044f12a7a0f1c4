#pragma once
// Integer arithmetic that wraps modulo 2^bits, as PyTorch's kernels do on this machine, but
// without signed-overflow undefined behaviour (UBSan stays silent): the operation is done in
// uint64_t and converted back, which C++20 defines as modular. Other types pass through.

#include <cstdint>
#include <type_traits>

namespace ipt::cpu {

template <typename T>
inline constexpr bool wraps_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
constexpr T wrapping_add(T a, T b) {
  if constexpr (wraps_v<T>) return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else return static_cast<T>(a + b);
}
template <typename T>
constexpr T wrapping_mul(T a, T b) {
  if constexpr (wraps_v<T>) return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else return static_cast<T>(a * b);
}
template <typename T>
constexpr T wrapping_neg(T a) {
  if constexpr (wraps_v<T>) return static_cast<T>(uint64_t(0) - static_cast<uint64_t>(a));
  else return static_cast<T>(-a);
}

}  // namespace ipt::cpu
