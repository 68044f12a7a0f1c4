#pragma once
// Autograd benchmarks (bench_autograd.cpp): names shared with the report table.
//
//   AutogradChain/<who>/backward  backward through a chain of kChainNodes 1-element muls
//                                 (y = y * c, c = 1.0001 a constant tensor; then y.sum()):
//                                 only the backward is timed; building and freeing the graph
//                                 are outside the timed region.
//   AutogradChain/<who>/forward   building (recording) the same chain, for information.
//   AutogradSmall/<who>           (a*b + a).sum() on 1-element tensors, forward + backward.

#include <cstdint>

namespace ipt_bench {

namespace names {
inline constexpr const char* kChainBwdOurs = "AutogradChain/ours/backward";
inline constexpr const char* kChainBwdTorch = "AutogradChain/libtorch/backward";
inline constexpr const char* kChainFwdOurs = "AutogradChain/ours/forward";
inline constexpr const char* kChainFwdTorch = "AutogradChain/libtorch/forward";
inline constexpr const char* kSmallOurs = "AutogradSmall/ours";
inline constexpr const char* kSmallTorch = "AutogradSmall/libtorch";
}  // namespace names

inline constexpr int64_t kChainNodes = 10000;

}  // namespace ipt_bench
