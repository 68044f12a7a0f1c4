#include "core/random/mt19937.h"

#include <algorithm>

namespace ipt::random {

namespace {
constexpr int kN = kMtStateWords;
constexpr int kM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfU;
constexpr uint32_t kUpper = 0x80000000U;
constexpr uint32_t kLower = 0x7fffffffU;

uint32_t mix(uint32_t u, uint32_t v) {
  const uint32_t y = (u & kUpper) | (v & kLower);
  return (y >> 1) ^ ((v & 1U) ? kMatrixA : 0U);
}
}  // namespace

void Mt19937::reseed(uint64_t seed) {
  s_.seed = seed;
  s_.seeded = true;
  s_.words[0] = static_cast<uint32_t>(seed & 0xffffffffU);
  for (int j = 1; j < kN; ++j) {
    const uint32_t prev = s_.words[j - 1];
    s_.words[j] = 1812433253U * (prev ^ (prev >> 30)) + static_cast<uint32_t>(j);
  }
  s_.left = 1;
  s_.next = 0;
}

void Mt19937::twist() {
  s_.left = kN;
  s_.next = 0;
  auto& w = s_.words;
  for (int j = 0; j < kN - kM; ++j) w[j] = w[j + kM] ^ mix(w[j], w[j + 1]);
  for (int j = kN - kM; j < kN - 1; ++j) w[j] = w[j + kM - kN] ^ mix(w[j], w[j + 1]);
  w[kN - 1] = w[kM - 1] ^ mix(w[kN - 1], w[0]);
}

void Mt19937::fill(uint32_t* out, int64_t n) {
  while (n > 0) {
    if (s_.left <= 1) {  // this draw twists first
      *out++ = (*this)();
      --n;
      continue;
    }
    // Each call decrements left and twists when it reaches 0: left - 1 draws come before that.
    const int64_t k = std::min<int64_t>(n, s_.left - 1);
    const uint32_t* w = s_.words.data() + s_.next;
    for (int64_t j = 0; j < k; ++j) out[j] = temper(w[j]);
    s_.next += static_cast<uint32_t>(k);
    s_.left -= static_cast<int32_t>(k);
    out += k;
    n -= k;
  }
}

bool Mt19937::set_state(const Mt19937State& s) {
  // `next` indexes the word to hand out; `left` counts the words before the next twist, so a
  // state the generator can reach has next + left <= 625 (a larger sum would read past the words).
  if (!s.seeded || s.left < 1 || s.left > kN || s.next > static_cast<uint32_t>(kN)) return false;
  if (static_cast<int64_t>(s.next) + s.left > kN + 1) return false;
  s_ = s;
  return true;
}

}  // namespace ipt::random
