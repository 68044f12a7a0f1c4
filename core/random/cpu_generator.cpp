#include "core/random/cpu_generator.h"

#include <cstring>
#include <random>

#include "core/util/error.h"

namespace ipt::random {

namespace {
// Offsets in PyTorch's CPUGeneratorImplState (a legacy THGeneratorState followed by the float cache).
constexpr size_t kSeedAt = 0, kLeftAt = 8, kSeededAt = 12, kNextAt = 16, kWordsAt = 24;
constexpr size_t kNormalXAt = kWordsAt + 8 * kMtStateWords;  // 5016
constexpr size_t kNormalYAt = kNormalXAt + 8, kNormalRhoAt = kNormalYAt + 8, kNormalValidAt = kNormalRhoAt + 8;
constexpr size_t kFloatNormalAt = 5048, kFloatNormalValidAt = 5052;

template <typename T>
void put(std::vector<uint8_t>& out, size_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof v);
}
template <typename T>
T get(const uint8_t* in, size_t at) {
  T v;
  std::memcpy(&v, in + at, sizeof v);
  return v;
}
}  // namespace

void CpuGenerator::set_current_seed(uint64_t seed) {
  next_double_normal.reset();
  next_float_normal.reset();
  engine_.reseed(seed);
}

uint64_t CpuGenerator::seed() {
  std::random_device device;
  const uint64_t s = (static_cast<uint64_t>(device()) << 32) | device();
  set_current_seed(s);
  return s;
}

std::vector<uint8_t> CpuGenerator::get_state() const {
  std::vector<uint8_t> out(kStateBytes, 0);
  const Mt19937State& s = engine_.state();
  put<uint64_t>(out, kSeedAt, s.seed);
  put<int32_t>(out, kLeftAt, s.left);
  put<int32_t>(out, kSeededAt, s.seeded ? 1 : 0);
  put<uint64_t>(out, kNextAt, s.next);
  for (int i = 0; i < kMtStateWords; ++i) put<uint64_t>(out, kWordsAt + 8 * i, s.words[i]);
  put<double>(out, kNormalXAt, 0.0);
  put<double>(out, kNormalRhoAt, 0.0);
  put<double>(out, kNormalYAt, next_double_normal.value_or(0.0));
  put<int32_t>(out, kNormalValidAt, next_double_normal ? 1 : 0);
  put<float>(out, kFloatNormalAt, next_float_normal.value_or(0.0f));
  out[kFloatNormalValidAt] = next_float_normal ? 1 : 0;
  return out;
}

void CpuGenerator::set_state(const uint8_t* bytes, size_t size) {
  // PyTorch 2.15 no longer takes the legacy form (kLegacyStateBytes, without the float cache).
  IPT_CHECK(size == kStateBytes, RuntimeError, "Expected a CPUGeneratorImplState of size ", kStateBytes,
            " but found the input RNG state size to be ", size);
  Mt19937State s;
  s.seed = get<uint64_t>(bytes, kSeedAt);
  s.left = get<int32_t>(bytes, kLeftAt);
  s.seeded = get<int32_t>(bytes, kSeededAt) != 0;
  s.next = static_cast<uint32_t>(get<uint64_t>(bytes, kNextAt));
  for (int i = 0; i < kMtStateWords; ++i) s.words[i] = static_cast<uint32_t>(get<uint64_t>(bytes, kWordsAt + 8 * i));
  IPT_CHECK(engine_.set_state(s), RuntimeError, "Invalid mt19937 state");
  next_double_normal.reset();
  if (get<int32_t>(bytes, kNormalValidAt) != 0) next_double_normal = get<double>(bytes, kNormalYAt);
  next_float_normal.reset();
  if (bytes[kFloatNormalValidAt] != 0) next_float_normal = get<float>(bytes, kFloatNormalAt);
}

CpuGenerator& default_cpu_generator() {
  static CpuGenerator gen;
  return gen;
}

CpuGenerator& default_cuda_generator() {
  static CpuGenerator gen;
  return gen;
}

}  // namespace ipt::random
