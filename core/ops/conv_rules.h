#pragma once
// The shapes and checks of a convolution, shared by its composite kernels (which check, as
// PyTorch's convolution does, before choosing a backend), its backends' kernels and their Meta
// kernels: the output's size, and the geometry the im2col kernels walk.
#include <cstdint>
#include <array>
#include <optional>
#include <tuple>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt {

// A convolution's arguments for its spatial dims (1, 2 or 3 of them).
struct ConvParams {
  std::vector<int64_t> stride, padding, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 1;
};

// PyTorch's check_shape_forward: padding, stride and dilation in range, the weight's rank and
// channels, the bias, and (not transposed) a kernel no larger than the padded input. Throws
// PyTorch's messages.
void check_conv_forward(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        const ConvParams& p);

// The output's sizes: (N, C_out, spatial...). The input has its batch dim.
std::vector<int64_t> conv_output_sizes(IntArrayRef input, IntArrayRef weight, const ConvParams& p);

// The arguments for `dims` spatial dims: a list of one element is repeated (int[2] stride=1).
std::vector<int64_t> expand_param(IntArrayRef v, int64_t dims, const char* name);

// A convolution's arguments for `dims` spatial dims, each list expanded; an empty dilation is 1s
// and an empty output_padding 0s (the slow backend ops have neither, or only some).
ConvParams conv_params(IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, IntArrayRef output_padding,
                       bool transposed, int64_t groups, int64_t dims);

}  // namespace ipt

namespace ipt {

// Note [Convolution's backends]
// PyTorch's _convolution and convolution_backward pick a backend for the call (its ConvBackend):
// without oneDNN or cuDNN, the slow kernels. Some are operators (_slow_conv2d_forward and its
// backward, slow_conv_dilated2d, slow_conv3d_forward, slow_conv_transpose2d ...), which the
// composite kernels call through the dispatcher; the other backwards are DispatchStubs, a
// function per device type that convolution_backward calls directly. This is that stub: each
// backend registers its function when it loads.
using ConvBackwardFn = std::tuple<Tensor, Tensor, Tensor> (*)(const Tensor& grad_output, const Tensor& input,
                                                              const Tensor& weight, const ConvParams& p,
                                                              std::array<bool, 3> output_mask);
void register_conv_backward(DeviceType device, ConvBackwardFn fn);
ConvBackwardFn conv_backward_stub(DeviceType device);  // throws for a device without one

}  // namespace ipt
