#include "core/ops/generator.h"

namespace ipt {

void manual_seed(uint64_t seed) {
  for (random::CpuGenerator* gen : {&random::default_cpu_generator(), &random::default_cuda_generator()}) {
    std::lock_guard<std::mutex> lock(gen->mutex());
    gen->set_current_seed(seed);
  }
}

uint64_t initial_seed() { return random::default_cpu_generator().current_seed(); }

random::CpuGenerator& generator_of(const std::optional<Generator>& g) {
  return g && g->impl ? *g->impl : random::default_cpu_generator();
}

}  // namespace ipt
