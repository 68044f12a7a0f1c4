#pragma once
// im2col and col2im (F.unfold and F.fold): the sliding blocks of a 2-D image as columns, and back.
// Their checks (with PyTorch 2.15's messages) and geometry, shared by the CPU kernels
// (backends/cpu/fold_kernels.cpp) and the Meta kernels.
//
// Note [Sliding blocks]
// A block is the kernel_size window at one of the L = blocks_h * blocks_w positions, stepping
// by `stride` over the image padded with zeros by `padding`, its taps `dilation` apart. The
// column of an image [N, C, H, W] is [N, C * kh * kw, L]: row c * kh * kw + i * kw + j holds
// tap (i, j) of channel c at every block. im2col reads the taps (zeros in the padding); col2im
// adds every tap back onto its pixel, channel by channel and tap by tap in that row order, so
// a pixel that several blocks cover sums its taps in the order PyTorch's kernel does.
#include <cstdint>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::native {

struct SlidingBlocks {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
  int64_t height, width;       // the image
  int64_t blocks_h, blocks_w;  // blocks along each dim
};

// im2col's checks; the geometry of the blocks over self's last two dims.
SlidingBlocks im2col_blocks(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                            IntArrayRef stride);
// im2col's result: [N, C * kh * kw, L], or [C * kh * kw, L] for an unbatched image.
std::vector<int64_t> im2col_output_sizes(const Tensor& self, const SlidingBlocks& b);

// col2im's checks; the geometry for an image of output_size.
SlidingBlocks col2im_blocks(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
                            IntArrayRef padding, IntArrayRef stride);
// col2im's result: [N, C, H, W], or [C, H, W] for unbatched columns.
std::vector<int64_t> col2im_output_sizes(const Tensor& self, const SlidingBlocks& b);

}  // namespace ipt::native
