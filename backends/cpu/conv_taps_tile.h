// The register-blocked kernel of Note [Stride-1 convolutions tap by tap], for one vector ISA:
// included by conv_taps_avx512.cpp and conv_taps_avx2.cpp, each compiled for its ISA, with an
// `Isa` that names the vector type and its loads, broadcast, fused multiply-add and store.
#pragma once

#include "backends/cpu/conv_taps.h"

namespace ipt::cpu {

// A block of Isa::kRows output rows by Isa::kVecs vectors of columns, held in registers while
// channels and taps go by; each element adds its terms in (channel, tap) order, one fma each.
template <typename Isa>
void tap_block(const TapProduct& p, const float* weights, const float* image, float* out) {
  using V = typename Isa::V;
  constexpr int R = Isa::kRows, NV = Isa::kVecs;
  V acc[R][NV];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[r][j] = Isa::zero();
  const float* w = weights;
  for (int64_t c = 0; c < p.channels; ++c) {
    const float* channel = image + c * p.plane;
    for (int64_t t = 0; t < p.taps; ++t, w += R) {
      const float* in = channel + p.shifts[t];
      V x[NV];
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) x[j] = Isa::load(in + j * Isa::kWidth);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        const V s = Isa::broadcast(w + r);
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[r][j] = Isa::fma(s, x[j], acc[r][j]);
      }
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) Isa::store(out + r * p.ld + j * Isa::kWidth, acc[r][j]);
}

// Row block by row block (its packed weights stay in L1), each across all the columns.
template <typename Isa>
void tap_product_blocks(const TapProduct& p) {
  constexpr int64_t R = Isa::kRows, CW = Isa::kWidth * Isa::kVecs;
  const int64_t block_weights = p.channels * p.taps * R;
  for (int64_t rb = p.row_block_begin; rb < p.row_block_end; ++rb)
    for (int64_t r = 0; r < p.tile_rows; ++r) {
      const float* in = p.image + (r / p.grid_h) * p.in_slab + (r % p.grid_h) * p.in_row;
      float* out = p.out + rb * R * p.ld + r * p.out_row;
      for (int64_t j = 0; j < p.row_tiles * CW; j += CW)
        tap_block<Isa>(p, p.weights + rb * block_weights, in + j, out + j);
    }
}

}  // namespace ipt::cpu
