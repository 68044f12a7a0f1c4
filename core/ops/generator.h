#pragma once
// The default random number generator (torch.manual_seed / torch.randn / torch.rand).
// Values are reproducible for a seed, but are not PyTorch's own random streams.

#include <cstdint>
#include <random>

namespace ipt {

std::mt19937_64& default_generator();
void manual_seed(uint64_t seed);
uint64_t initial_seed();

}  // namespace ipt
