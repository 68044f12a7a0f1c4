#pragma once
// PyTorch's CPU generator, the one behind torch.manual_seed and every torch.Generator: an
// MT19937 engine, plus the second value of the last Box-Muller pair (one for float draws, one
// for double draws), which the next normal draw returns before it draws again.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "core/random/mt19937.h"

namespace ipt::random {

class CpuGenerator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // PyTorch's default_rng_seed_val
  static constexpr size_t kStateBytes = 5056;                  // CPUGeneratorImplState
  static constexpr size_t kLegacyStateBytes = 5048;            // its older form, without the float cache

  explicit CpuGenerator(uint64_t seed = kDefaultSeed) : engine_(seed) {}

  // Seeds the engine (from the low 32 bits) and forgets the cached normal values.
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const { return engine_.state().seed; }
  // Seeds from the operating system's entropy and returns that seed (torch.seed()).
  uint64_t seed();

  uint32_t random() { return engine_(); }
  // The next n 32-bit draws (n calls of random()).
  void random_fill(uint32_t* out, int64_t n) { engine_.fill(out, n); }
  // Two 32-bit draws, the first as the high half.
  uint64_t random64() {
    const uint64_t hi = engine_();
    const uint64_t lo = engine_();
    return (hi << 32) | lo;
  }

  std::optional<double> next_double_normal;
  std::optional<float> next_float_normal;

  // torch.get_rng_state(): PyTorch's byte layout (seed, left, seeded, next, the 624 words widened
  // to 64 bits, the double cache as normal_y/normal_is_valid, the float cache).
  std::vector<uint8_t> get_state() const;
  // Accepts the 5056-byte form and the 5048-byte legacy one; throws RuntimeError (and changes
  // nothing) for any other size or a state MT19937 cannot be in.
  void set_state(const uint8_t* bytes, size_t size);

  std::mutex& mutex() { return mutex_; }

 private:
  Mt19937 engine_;
  std::mutex mutex_;
};

// The default CPU generator (torch.default_generator).
CpuGenerator& default_cpu_generator();
// The simulated GPU's default generator (torch.cuda.default_generators[0]): the same engine, so a
// program's draws on the device leave the CPU generator's sequence as PyTorch leaves it. Its
// numbers are not CUDA's (Philox): no CPU can reproduce those.
CpuGenerator& default_cuda_generator();

}  // namespace ipt::random
