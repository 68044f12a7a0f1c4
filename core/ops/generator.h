#pragma once
// The default random number generator (torch.manual_seed / torch.randn / torch.rand).
// Values are reproducible for a seed, but are not PyTorch's own random streams.

#include <cstdint>
#include <optional>
#include <random>

namespace ipt {

// A torch.Generator argument (`Generator? generator=None` in a schema): the engine an operator
// draws from. An absent one means the default generator.
struct Generator {
  std::mt19937_64* engine = nullptr;
};

std::mt19937_64& default_generator();
void manual_seed(uint64_t seed);
uint64_t initial_seed();
// The engine of `g`, or the default generator's.
std::mt19937_64& engine_of(const std::optional<Generator>& g);

}  // namespace ipt
