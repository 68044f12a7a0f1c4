#include "core/ops/generator.h"

#include <mutex>

namespace ipt {

static uint64_t g_seed = 67280421310721ULL;  // PyTorch's default seed value

std::mt19937_64& default_generator() {
  static std::mt19937_64 gen(g_seed);
  return gen;
}

void manual_seed(uint64_t seed) {
  g_seed = seed;
  default_generator().seed(seed);
}

uint64_t initial_seed() { return g_seed; }

std::mt19937_64& engine_of(const std::optional<Generator>& g) {
  return g && g->engine ? *g->engine : default_generator();
}

}  // namespace ipt
