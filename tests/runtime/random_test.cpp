// PyTorch's CPU generator: the engine, its saved state, and the transforms' edge cases. The values
// PyTorch prints for a seed are checked end to end by tests/reference/programs/random_*.py.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "backends/cpu/cascade_sum.h"
#include "core/random/avx2_box_muller.h"
#include "core/random/cpu_generator.h"
#include "core/random/distributions.h"
#include "core/util/error.h"

namespace ipt::random {
namespace {

TEST(Mt19937, SameStreamAsTheStandardEngine) {
  for (uint64_t seed : {0ULL, 1ULL, 5489ULL, 67280421310721ULL, 0xffffffffULL}) {
    Mt19937 ours(seed);
    std::mt19937 reference(static_cast<uint32_t>(seed));
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(ours(), reference()) << "seed " << seed << " draw " << i;
  }
}

// fill(n) hands out the words n calls would, across twists, from any point of the stream.
TEST(Mt19937, FillGivesTheWordsOfThatManyCalls) {
  for (int64_t skip : {0, 1, 622, 623, 624, 625, 1000}) {
    for (int64_t n : {0, 1, 7, 623, 624, 625, 1300, 2500}) {
      random::Mt19937 a(42), b(42);
      for (int64_t i = 0; i < skip; ++i) a(), b();
      std::vector<uint32_t> filled(static_cast<size_t>(n));
      a.fill(filled.data(), n);
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(filled[static_cast<size_t>(i)], b()) << skip << " " << n << " " << i;
      EXPECT_EQ(a(), b()) << "the stream goes on from the same place";
    }
  }
}

TEST(Distributions, UniformFloatsAreUniformRealDraws) {
  CpuGenerator a(7), b(7);
  std::vector<float> x(3000);
  random::uniform_floats(a, x.data(), static_cast<int64_t>(x.size()));
  for (float v : x) ASSERT_EQ(v, random::uniform_real<float>(b, 0.0f, 1.0f));
}

TEST(CpuGenerator, SeedKeepsAll64BitsButSeedsFromTheLow32) {
  CpuGenerator a(uint64_t(1) << 32 | 7), b(7);
  EXPECT_EQ(a.current_seed(), (uint64_t(1) << 32) | 7);
  EXPECT_EQ(a.random(), b.random());
  EXPECT_EQ(a.random64(), b.random64());
}

TEST(CpuGenerator, StateRoundTripsWithTheNormalCache) {
  CpuGenerator g(0);
  normal_double(g, 0.0, 1.0);  // leaves the pair's second value cached
  ASSERT_TRUE(g.next_double_normal.has_value());
  const std::vector<uint8_t> state = g.get_state();
  ASSERT_EQ(state.size(), CpuGenerator::kStateBytes);
  const double next = normal_double(g, 0.0, 1.0);
  const uint32_t after = g.random();
  CpuGenerator h;
  h.set_state(state.data(), state.size());
  EXPECT_EQ(normal_double(h, 0.0, 1.0), next);
  EXPECT_EQ(h.random(), after);
}

TEST(CpuGenerator, BadStatesAreRefusedAndChangeNothing) {
  CpuGenerator g(3);
  std::vector<uint8_t> state = g.get_state();
  const uint32_t expected = CpuGenerator(3).random();
  std::vector<uint8_t> short_state(state.begin(), state.begin() + 10);
  EXPECT_THROW(g.set_state(short_state.data(), short_state.size()), Error);
  std::vector<uint8_t> bad = state;
  bad[8] = bad[9] = bad[10] = bad[11] = 0;  // left = 0
  EXPECT_THROW(g.set_state(bad.data(), bad.size()), Error);
  bad = state;
  bad[8] = 2;  // left = 2 with next = 624: the next draw would read past the words
  bad[16] = 0x70;
  bad[17] = 0x02;
  EXPECT_THROW(g.set_state(bad.data(), bad.size()), Error);
  EXPECT_EQ(g.random(), expected);
}

TEST(Distributions, UniformBitsAndRanges) {
  CpuGenerator g(0);
  // The first MT19937 output for seed 0 is 2357136044; its low 24 bits over 2^24.
  EXPECT_EQ(uniform_real<float>(g, 0.0f, 1.0f), static_cast<float>(2357136044U & 0xffffffU) / 16777216.0f);
  CpuGenerator h(0);
  for (int i = 0; i < 1000; ++i) {
    const double u = uniform_real<double>(h, -2.0, 3.0);
    ASSERT_GE(u, -2.0);
    ASSERT_LT(u, 3.0);
    const int64_t k = uniform_int_from_to<int64_t>(h, 10, -5);
    ASSERT_GE(k, -5);
    ASSERT_LT(k, 5);
  }
}

TEST(AvxMathfun, CloseToTheC_Library) {
  for (float x = 1e-6f; x < 1e4f; x *= 1.37f)
    EXPECT_NEAR(cephes_logf_avx(x), std::log(x), 2e-6f * std::fabs(std::log(x)) + 1e-6f);
  for (float x = -20.f; x < 20.f; x += 0.173f) {
    float s, c;
    cephes_sincosf_avx(x, &s, &c);
    EXPECT_NEAR(s, std::sin(x), 2e-6f);
    EXPECT_NEAR(c, std::cos(x), 2e-6f);
  }
  EXPECT_TRUE(std::isnan(cephes_logf_avx(-1.0f)));
}

// The vector Box-Muller (where the CPU has AVX2 and FMA) gives the scalar code's bits, on
// uniform draws and on the edges of [0, 1): u1 = 1 - 0 = 1 and u1 near 0 (the largest draw).
TEST(AvxMathfun, VectorBoxMullerMatchesTheScalarCode) {
  CpuGenerator g(7);
  std::vector<float> draws(16 * 4096);
  for (float& u : draws) u = uniform_real<float>(g, 0.0f, 1.0f);
  for (int j = 0; j < 16; ++j) draws[static_cast<size_t>(j)] = j % 2 ? 0.0f : 0.99999994f;
  std::vector<float> vec = draws, scalar = draws;
  box_muller_blocks_avx2(vec.data(), static_cast<int64_t>(vec.size() / 16), 0.25f, 3.0f);
  for (size_t b = 0; b < scalar.size(); b += 16) box_muller_16_scalar(scalar.data() + b, 0.25f, 3.0f);
  for (size_t i = 0; i < vec.size(); ++i) {
    uint32_t a, e;
    std::memcpy(&a, &vec[i], 4);
    std::memcpy(&e, &scalar[i], 4);
    ASSERT_EQ(a, e) << "element " << i << ": " << vec[i] << " vs " << scalar[i];
  }
}

TEST(CascadeSum, ExactOnIntegersAndOrderSensitive) {
  std::vector<float> ones(100003, 1.0f);
  EXPECT_EQ(cpu::cascade::inner_sum(ones.data(), static_cast<int64_t>(ones.size()), 1), 100003.0f);
  // 2^24 + 1 + 1: a left-to-right float sum loses both ones; the cascade keeps them apart.
  std::vector<float> v(64, 0.0f);
  v[0] = 16777216.0f;
  v[8] = 1.0f;
  v[16] = 1.0f;
  EXPECT_EQ(cpu::cascade::inner_sum(v.data(), 64, 1), 16777216.0f);
  std::vector<float> cols(20 * 3);
  for (size_t i = 0; i < cols.size(); ++i) cols[i] = static_cast<float>(i % 3);
  float out[3] = {0.0f, 0.0f, 0.0f};  // outer_sum adds into out
  cpu::cascade::outer_sum(cols.data(), 20, 3, 3, 1, out, 1);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 20.0f);
  EXPECT_EQ(out[2], 40.0f);
}

}  // namespace
}  // namespace ipt::random
