#pragma once
// The generator an operator draws from: a torch.Generator argument (`Generator? generator=None`
// in a schema) or, when it is absent, the default CPU generator of torch.manual_seed.

#include <cstdint>
#include <memory>
#include <optional>

#include "core/random/cpu_generator.h"

namespace ipt {

struct Generator {
  std::shared_ptr<random::CpuGenerator> impl;
};

void manual_seed(uint64_t seed);
uint64_t initial_seed();
// The generator of `g`, or the default one.
random::CpuGenerator& generator_of(const std::optional<Generator>& g);

}  // namespace ipt
