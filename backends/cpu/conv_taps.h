// Plain convolutions at stride 1, computed tap by tap instead of through im2col.
//
// Note [Stride-1 convolutions tap by tap]
// At stride 1, im2col's matrix holds every (padded) input row once per kernel tap, shifted by
// the tap's offset. Instead of building it, each output element is the sum, over input channels
// and then over taps, of a weight times the zero-padded input read at the tap's offset: seen as
// matrices, one (out_c, in_c) product per tap with the padded image as a matrix of one row per
// channel, whose leading dim is the padded image's size. Output position (od, oh, ow) is column
// (od * Hp + oh) * Wp + ow of every product; the columns that fall between output rows
// (ow >= OW) are computed and dropped when the output is copied out with its bias.
// - float, on a CPU with AVX2 and FMA: conv_taps_tile.h's kernel, which keeps a block of output
//   in registers and adds channel by channel, tap by tap, one fused multiply-add each. Every
//   element's order of additions is fixed, so its bits depend neither on the thread count nor
//   on the vector width (AVX-512 or AVX2).
// - double, or float without AVX2: one BLAS product per tap, added up with BLAS's beta = 1.
#pragma once

#include <cstdint>

#include "backends/cpu/conv_geometry.h"
#include "core/tensor/tensor.h"

namespace ipt::cpu {

// Whether conv_forward_by_taps computes this plain convolution: float or double, stride 1, a
// kernel of more than one tap over at least 16 input channels a group, and at most twice as many
// columns computed as kept.
bool conv_by_taps(const ConvGeometry& g, ScalarType dtype);

// out (N, G * out_c, grid) = conv(input (N, G * g.C, img), weight (G * out_c, g.C, k)) + bias
// (undefined: none). input, weight and bias contiguous.
void conv_forward_by_taps(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                          const ConvGeometry& g, int64_t groups, int64_t out_c);

// One vector kernel's work: out rows [row_block_begin, row_block_end) * rows (of ld columns) =
// the sum over channels c, then taps t, of weight * image[c * plane + shift[t] + column].
// `weights` is packed (row block, channel, tap, row within the block), zero past the last row.
// The columns come in tile_rows rows of row_tiles register blocks: tile row r starts at column
// (r / grid_h) * in_slab + (r % grid_h) * in_row of the image and r * out_row of out, and the
// image is readable as far as the last block reads.
struct TapProduct {
  const float* weights;
  const float* image;
  const int64_t* shifts;
  int64_t channels, plane, taps;
  float* out;
  int64_t ld;
  int64_t tile_rows, row_tiles, grid_h, in_slab, in_row, out_row;
  int64_t row_block_begin, row_block_end;
};

// The kernels, with the rows and columns of their register block (conv_taps_avx512.cpp,
// conv_taps_avx2.cpp).
namespace avx512 {
constexpr int64_t kTapRows = 8, kTapColumns = 32;
void tap_product(const TapProduct& p);
}  // namespace avx512
namespace avx2 {
constexpr int64_t kTapRows = 6, kTapColumns = 16;
void tap_product(const TapProduct& p);
}  // namespace avx2

}  // namespace ipt::cpu
