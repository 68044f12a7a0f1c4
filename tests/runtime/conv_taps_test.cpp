// Note [Stride-1 convolutions tap by tap]: the register-blocked kernels add each element's terms
// in (channel, tap) order with one fused multiply-add each, so the AVX-512 and the AVX2 kernel
// give the bits of a plain loop of std::fma, whichever the CPU runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "backends/cpu/conv_taps.h"
#include "backends/cpu/vml.h"

namespace ipt::cpu {
namespace {

constexpr int64_t kChannels = 19, kTaps = 9, kRows = 13, kTileRows = 3, kInRow = 50;

struct Problem {
  std::vector<float> image, weight;  // weight (rows, channels, taps)
  std::vector<int64_t> shifts;
  int64_t plane = 0;
};

Problem problem() {
  Problem p;
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  p.plane = kTileRows * kInRow + 64;
  p.image.resize(static_cast<size_t>(kChannels * p.plane + 64));
  for (float& v : p.image) v = normal(rng);
  p.weight.resize(static_cast<size_t>(kRows * kChannels * kTaps));
  for (float& v : p.weight) v = normal(rng);
  for (int64_t t = 0; t < kTaps; ++t) p.shifts.push_back((t / 3) * 7 + t % 3);
  return p;
}

// out (rows, tile rows * columns_a_row) by one kernel with `block_rows` x `block_columns` blocks.
std::vector<float> run(const Problem& pr, void (*kernel)(const TapProduct&), int64_t block_rows, int64_t block_columns,
                       int64_t columns_a_row) {
  const int64_t row_blocks = (kRows + block_rows - 1) / block_rows;
  std::vector<float> packed(static_cast<size_t>(row_blocks * kChannels * kTaps * block_rows), 0.f);
  for (int64_t o = 0; o < kRows; ++o)
    for (int64_t c = 0; c < kChannels; ++c)
      for (int64_t t = 0; t < kTaps; ++t)
        packed[static_cast<size_t>(((o / block_rows) * kChannels + c) * kTaps * block_rows + t * block_rows +
                                   o % block_rows)] = pr.weight[static_cast<size_t>((o * kChannels + c) * kTaps + t)];
  const int64_t ld = kTileRows * columns_a_row;
  std::vector<float> out(static_cast<size_t>(row_blocks * block_rows * ld));
  TapProduct p{};
  p.weights = packed.data();
  p.image = pr.image.data();
  p.shifts = pr.shifts.data();
  p.channels = kChannels;
  p.plane = pr.plane;
  p.taps = kTaps;
  p.out = out.data();
  p.ld = ld;
  p.tile_rows = kTileRows;
  p.row_tiles = columns_a_row / block_columns;
  p.grid_h = kTileRows;
  p.in_slab = 0;
  p.in_row = kInRow;
  p.out_row = columns_a_row;
  p.row_block_begin = 0;
  p.row_block_end = row_blocks;
  kernel(p);
  out.resize(static_cast<size_t>(kRows * ld));
  return out;
}

std::vector<float> plain_fma(const Problem& pr, int64_t columns_a_row) {
  std::vector<float> out(static_cast<size_t>(kRows * kTileRows * columns_a_row));
  for (int64_t o = 0; o < kRows; ++o)
    for (int64_t r = 0; r < kTileRows; ++r)
      for (int64_t j = 0; j < columns_a_row; ++j) {
        float acc = 0.f;
        for (int64_t c = 0; c < kChannels; ++c)
          for (int64_t t = 0; t < kTaps; ++t)
            acc = std::fma(
                pr.weight[static_cast<size_t>((o * kChannels + c) * kTaps + t)],
                pr.image[static_cast<size_t>(c * pr.plane + pr.shifts[static_cast<size_t>(t)] + r * kInRow + j)], acc);
        out[static_cast<size_t>((o * kTileRows + r) * columns_a_row + j)] = acc;
      }
  return out;
}

TEST(ConvTaps, Avx2KernelGivesPlainFmaBits) {
  if (!has_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this CPU";
  const Problem pr = problem();
  EXPECT_EQ(run(pr, avx2::tap_product, avx2::kTapRows, avx2::kTapColumns, 32), plain_fma(pr, 32));
}

TEST(ConvTaps, Avx512KernelGivesPlainFmaBits) {
  if (!has_avx512()) GTEST_SKIP() << "no AVX-512 on this CPU";
  const Problem pr = problem();
  EXPECT_EQ(run(pr, avx512::tap_product, avx512::kTapRows, avx512::kTapColumns, 32), plain_fma(pr, 32));
}

}  // namespace
}  // namespace ipt::cpu
