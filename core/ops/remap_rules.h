#pragma once
// The operators whose every output element is one input element picked by its index: flip,
// reflection and replication padding, nearest upsampling. Their checks and result shapes (with
// PyTorch 2.15's messages), and each output index's source index along a dim, shared by the
// CPU kernels (backends/cpu/remap_kernels.cpp), the Meta kernels and the composites.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::native {

// One source index per output index along each dim; an empty map is the identity.
using IndexMaps = std::vector<std::vector<int64_t>>;

// flip's dims, wrapped; a dim given twice is an error.
std::vector<int64_t> flip_dims(const Tensor& self, IntArrayRef dims);
IndexMaps flip_maps(const Tensor& self, IntArrayRef dims);

// Reflection / replication padding of the last padding.size() / 2 dims (`padding` is (left,
// right) for the last dim first, as F.pad's): the result's sizes, after 2.15's checks.
// `spatial` is the operator's number of padded dims (1, 2 or 3).
std::vector<int64_t> pad_output_sizes(const Tensor& self, IntArrayRef padding, int64_t spatial, bool reflection);
// The source index of each output index along each dim.
IndexMaps pad_maps(const Tensor& self, IntArrayRef padding, int64_t spatial, bool reflection);
// Checks a padding backward's gradient against the forward's result shape.
void check_pad_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef padding, int64_t spatial,
                        bool reflection);

// upsample_nearest2d / upsample_bilinear2d: checks and the [N, C, H_out, W_out] result.
std::vector<int64_t> upsample2d_output_sizes(const Tensor& self, IntArrayRef output_size);
// The backward's checks: input_size [N, C, H, W] and a gradient of the forward result's shape.
void check_upsample2d_backward(const Tensor& grad_output, IntArrayRef output_size, IntArrayRef input_size);
// PyTorch's nearest_idx: the source of output index o along a dim of input size `in`.
int64_t nearest_source_index(int64_t o, int64_t in, int64_t out, std::optional<double> scale);
IndexMaps upsample_nearest2d_maps(IntArrayRef input_size, IntArrayRef output_size, std::optional<double> scales_h,
                                  std::optional<double> scales_w);

}  // namespace ipt::native
