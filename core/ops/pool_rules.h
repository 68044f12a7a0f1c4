#pragma once
// The shapes and checks of max, average and adaptive pooling over 2 or 3 spatial dims, shared
// by their CPU, simulated-GPU and Meta kernels (PyTorch's pool2d_shape_check / pool3d_shape_check
// and pooling_output_shape, with its messages).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt {

// A pooling window over the last `dims` (2 or 3) dims of an input with or without a batch dim.
struct PoolGeometry {
  int dims = 2;
  int64_t batch = 1, channels = 1;  // planes = batch * channels
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
  std::vector<int64_t> out_sizes;  // the output's sizes (the input's leading dims, then out)
  int64_t planes() const { return batch * channels; }
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

// max_pool2d / max_pool3d (`name`), avg_pool2d / avg_pool3d (dilation empty): the checks on the
// argument lists and the input, then the output's size.
PoolGeometry pool_geometry(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation, bool ceil_mode, int dims, const char* name);

// _adaptive_avg_pool2d / 3d: the output of `output_size`.
PoolGeometry adaptive_pool_geometry(const Tensor& input, IntArrayRef output_size, int dims, const char* name);

// adaptive_max_pool2d / 3d: the same output, after their own checks and messages.
PoolGeometry adaptive_max_pool_geometry(const Tensor& input, IntArrayRef output_size, int dims, const char* name);

// The window of adaptive pooling: output index o of `out` over an input of `in`.
inline int64_t adaptive_start(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
inline int64_t adaptive_end(int64_t o, int64_t out, int64_t in) { return ((o + 1) * in + out - 1) / out; }

}  // namespace ipt
