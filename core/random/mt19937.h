#pragma once
// The Mersenne Twister MT19937 (Matsumoto and Nishimura, 1998), 32-bit outputs.
// Its state is kept in the shape PyTorch's CPU generator saves (the seed, how many words are
// left before the next twist, whether it was seeded, the index of the next word, 624 words),
// so torch.get_rng_state() gives PyTorch's bytes and set_rng_state() accepts them.

#include <array>
#include <cstdint>

namespace ipt::random {

constexpr int kMtStateWords = 624;

struct Mt19937State {
  uint64_t seed = 5489;
  int32_t left = 1;
  bool seeded = false;
  uint32_t next = 0;
  std::array<uint32_t, kMtStateWords> words{};
};

class Mt19937 {
 public:
  explicit Mt19937(uint64_t seed = 5489) { reseed(seed); }

  // Seeds from the low 32 bits (the whole 64-bit value is remembered as the seed).
  void reseed(uint64_t seed);
  // Inline: a fill of a million floats draws a million times.
  uint32_t operator()() {
    if (--s_.left <= 0) twist();
    return temper(s_.words[s_.next++]);
  }

  // The next n outputs into out, the same words n calls give: the runs between twists are
  // tempered in one loop (which the compiler vectorizes).
  void fill(uint32_t* out, int64_t n);

  const Mt19937State& state() const { return s_; }
  // False (and nothing changes) when the state is not one MT19937 can be in.
  bool set_state(const Mt19937State& s);

 private:
  // A state word as the generator hands it out.
  static uint32_t temper(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
  }
  void twist();
  Mt19937State s_;
};

}  // namespace ipt::random
