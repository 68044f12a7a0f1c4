// The composite kernels of convolution, as PyTorch 2.15 writes them (aten/src/ATen/native/
// Convolution.cpp): conv1d / conv2d / conv3d and the transposed forms add the batch dim an
// unbatched input lacks and call convolution, which calls _convolution; _convolution checks the
// shapes and calls the backend op for the case (Note [Convolution's backends]). 1-D
// convolutions run as 2-D ones over a height of 1, and a grouped convolution on a slow backend
// runs one call per group, whose outputs are concatenated, as in PyTorch.
#include <string>

#include "core/ops/conv_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "core/util/warning.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// PyTorch's batchify: an input without its batch dim gets one (and the result loses it again).
std::pair<Tensor, bool> batchify(const Tensor& input, int64_t spatial, const char* name) {
  const int64_t no_batch = spatial + 1, batch = spatial + 2;
  const bool batched = input.dim() == batch;
  IPT_CHECK(input.dim() == no_batch || batched, RuntimeError, "Expected ", no_batch, "D (unbatched) or ", batch,
            "D (batched) input to ", name, ", but got input of size: ", int_list_str(input.sizes()));
  return {batched ? input : ops::unsqueeze(input, 0), batched};
}

void check_bias_dtype(const Tensor& input, const std::optional<Tensor>& bias) {
  IPT_CHECK(!bias || !bias->defined() || bias->dtype() == input.dtype(), RuntimeError, "Input type (",
            dtype_cpp_name(input.dtype()), ") and bias type (", dtype_cpp_name(bias->dtype()), ") should be the same");
}

Tensor conv_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
               IntArrayRef padding, IntArrayRef dilation, int64_t groups, int64_t spatial, const char* name) {
  check_bias_dtype(input, bias);
  auto [x, batched] = batchify(input, spatial, name);
  const std::vector<int64_t> no_output_padding(static_cast<size_t>(spatial), 0);
  Tensor out = ops::convolution(x, weight, bias, stride, padding, dilation, false, no_output_padding, groups);
  return batched ? out : ops::squeeze_dim(out, 0);
}

Tensor conv_transpose_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                         IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding, int64_t groups,
                         IntArrayRef dilation, int64_t spatial, const char* name) {
  check_bias_dtype(input, bias);
  auto [x, batched] = batchify(input, spatial, name);
  Tensor out = ops::convolution(x, weight, bias, stride, padding, dilation, true, output_padding, groups);
  return batched ? out : ops::squeeze_dim(out, 0);
}

// conv1d / 2d / 3d with padding="valid" or "same" (PyTorch's _convolution_mode): "same" pads
// each side by half the kernel's extent, and an odd total by one more on the right, first.
Tensor conv_padding_mode(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                         IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups,
                         int64_t spatial, const char* name) {
  const std::vector<int64_t> zeros(static_cast<size_t>(spatial), 0);
  if (padding == "valid") return conv_nd(input, weight, bias, stride, zeros, dilation, groups, spatial, name);
  IPT_CHECK(padding == "same", RuntimeError, "Invalid padding string: '", std::string(padding), "'");
  const std::vector<int64_t> st = expand_param(stride, spatial, "stride"),
                             dil = expand_param(dilation, spatial, "dilation");
  for (int64_t s : st) IPT_CHECK(s == 1, RuntimeError, "padding='same' is not supported for strided convolutions");
  std::vector<int64_t> pad(static_cast<size_t>(spatial)), extra;  // extra: F.pad's list, last dim first
  bool asymmetric = false;
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t total = dil[static_cast<size_t>(i)] * (weight.sizes()[i + 2] - 1);
    pad[static_cast<size_t>(i)] = total / 2;
    asymmetric = asymmetric || total % 2 != 0;
  }
  Tensor x = input;
  if (asymmetric) {
    static bool warned = false;  // PyTorch's TORCH_WARN_ONCE
    if (!warned) {
      warned = true;
      IPT_WARN(
          "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
          "the input be created");
    }
    std::vector<int64_t> pad_nd(static_cast<size_t>(2 * spatial), 0);
    for (int64_t i = 0; i < spatial; ++i) {
      const int64_t total = dil[static_cast<size_t>(i)] * (weight.sizes()[i + 2] - 1);
      pad_nd[static_cast<size_t>(2 * (spatial - 1 - i) + 1)] = total % 2;
    }
    x = ops::constant_pad_nd(input, pad_nd, 0);
  }
  return conv_nd(x, weight, bias, stride, pad, dilation, groups, spatial, name);
}

// 1-D as 2-D: a height of 1 before the width (PyTorch's view1d_as_2d).
void view1d_as_2d(ConvParams& p) {
  p.stride.insert(p.stride.begin(), 1);
  p.padding.insert(p.padding.begin(), 0);
  p.dilation.insert(p.dilation.begin(), 1);
  p.output_padding.insert(p.output_padding.begin(), 0);
}

bool dilated(const ConvParams& p) {
  for (int64_t d : p.dilation)
    if (d != 1) return true;
  return false;
}

std::vector<int64_t> kernel_size_of(const Tensor& weight) { return {weight.sizes().begin() + 2, weight.sizes().end()}; }

// Rows [g * n, (g + 1) * n) of dim `dim`, contiguous (PyTorch's subtensor).
Tensor subtensor(const Tensor& t, int64_t dim, int64_t groups, int64_t g) {
  const int64_t n = t.sizes()[dim] / groups;
  return ops::contiguous(ops::narrow(t, dim, g * n, n), MemoryFormat::Contiguous);
}

// One group's convolution on the slow backend the case calls for.
Tensor slow_backend(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, const ConvParams& p) {
  const std::vector<int64_t> k = kernel_size_of(weight);
  if (p.transposed) {
    if (input.dim() == 4)
      return ops::slow_conv_transpose2d(input, weight, k, bias, p.stride, p.padding, p.output_padding, p.dilation);
    return ops::slow_conv_transpose3d(input, weight, k, bias, p.stride, p.padding, p.output_padding, p.dilation);
  }
  if (input.dim() == 4) {
    if (dilated(p)) return ops::slow_conv_dilated2d(input, weight, k, bias, p.stride, p.padding, p.dilation);
    return ops::thnn_conv2d(input, weight, k, bias, p.stride, p.padding);
  }
  if (dilated(p)) return ops::slow_conv_dilated3d(input, weight, k, bias, p.stride, p.padding, p.dilation);
  return ops::slow_conv3d(input, weight, k, bias, p.stride, p.padding);
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d");
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d");
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d");
}
Tensor conv1d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                      std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_padding_mode(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d");
}
Tensor conv2d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                      std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_padding_mode(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d");
}
Tensor conv3d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                      std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_padding_mode(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d");
}
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding, int64_t groups,
                        IntArrayRef dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d");
}
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding, int64_t groups,
                        IntArrayRef dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d");
}
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding, int64_t groups,
                        IntArrayRef dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                           "conv_transpose3d");
}

// cuDNN's flags as convolution passes them: benchmark off, not deterministic, enabled, TF32 allowed.
Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                   int64_t groups) {
  return ops::_convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, false,
                           false, true, true);
}

Tensor _convolution(const Tensor& input_, const Tensor& weight_, const std::optional<Tensor>& bias, IntArrayRef stride,
                    IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                    int64_t groups, bool, bool, bool, bool) {
  const int64_t spatial = input_.dim() - 2;
  IPT_CHECK(spatial >= 1 && spatial <= 3, RuntimeError,
            "Expected 3D, 4D or 5D input to convolution, but got input of size: ", int_list_str(input_.sizes()));
  ConvParams p = conv_params(stride, padding, dilation, output_padding, transposed, groups, spatial);
  IPT_CHECK(groups > 0, RuntimeError, "non-positive groups is not supported");
  check_conv_forward(input_, weight_, bias, p);
  Tensor input = input_, weight = weight_;
  if (spatial == 1) {
    view1d_as_2d(p);
    input = ops::unsqueeze(input, 2);
    weight = ops::unsqueeze(weight, 2);
  }
  Tensor out;
  if (groups == 1) {
    out = slow_backend(ops::contiguous(input, MemoryFormat::Contiguous), weight, bias, p);
  } else {
    std::vector<Tensor> outputs;
    for (int64_t g = 0; g < groups; ++g) {
      std::optional<Tensor> bias_g;
      if (bias && bias->defined()) bias_g = subtensor(*bias, 0, groups, g);
      outputs.push_back(slow_backend(subtensor(input, 1, groups, g), subtensor(weight, 0, groups, g), bias_g, p));
    }
    out = ops::cat(outputs, 1);
  }
  return spatial == 1 ? ops::squeeze_dim(out, 2) : out;
}

std::tuple<Tensor, Tensor, Tensor> convolution_backward(const Tensor& grad_output, const Tensor& input,
                                                        const Tensor& weight, std::optional<IntArrayRef> bias_sizes,
                                                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                                        bool transposed, IntArrayRef output_padding, int64_t groups,
                                                        std::array<bool, 3> output_mask) {
  const int64_t spatial = input.dim() - 2;
  IPT_CHECK(
      spatial >= 1 && spatial <= 3, RuntimeError,
      "Expected 3D, 4D or 5D input to convolution_backward, but got input of size: ", int_list_str(input.sizes()));
  ConvParams p = conv_params(stride, padding, dilation, output_padding, transposed, groups, spatial);
  (void)bias_sizes;  // the bias gradient is the output gradient summed over all but the channels
  Tensor g = grad_output, x = input, w = weight;
  if (spatial == 1) {
    view1d_as_2d(p);
    g = ops::unsqueeze(g, 2);
    x = ops::unsqueeze(x, 2);
    w = ops::unsqueeze(w, 2);
  }
  std::tuple<Tensor, Tensor, Tensor> r;
  if (!transposed && groups == 1 && x.dim() == 4 && !dilated(p)) {
    r = ops::_slow_conv2d_backward_output_mask(ops::contiguous(g, MemoryFormat::Contiguous),
                                               ops::contiguous(x, MemoryFormat::Contiguous), w, kernel_size_of(w),
                                               p.stride, p.padding, output_mask);
  } else {
    r = conv_backward_stub(x.device().type)(g, x, w, p, output_mask);
  }
  if (spatial == 1) {
    if (std::get<0>(r).defined()) std::get<0>(r) = ops::squeeze_dim(std::get<0>(r), 2);
    if (std::get<1>(r).defined()) std::get<1>(r) = ops::squeeze_dim(std::get<1>(r), 2);
  }
  return r;
}

Tensor thnn_conv2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size, const std::optional<Tensor>& bias,
                   IntArrayRef stride, IntArrayRef padding) {
  return ops::_slow_conv2d_forward(self, weight, kernel_size, bias, stride, padding);
}

Tensor slow_conv3d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size, const std::optional<Tensor>& bias,
                   IntArrayRef stride, IntArrayRef padding) {
  return ops::slow_conv3d_forward(self, weight, kernel_size, bias, stride, padding);
}

}  // namespace ipt::native

namespace ipt::native {

// PyTorch's constant_pad_nd: pad holds (before, after) pairs for the last dims, last dim first;
// a negative pad crops. The result is filled with value, and the (cropped) input copied into
// its middle.
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  IPT_CHECK(pad.size() % 2 == 0, RuntimeError, "Length of pad must be even but instead it equals ", pad.size());
  const int64_t dims = static_cast<int64_t>(pad.size()) / 2;
  IPT_CHECK(dims <= self.dim(), RuntimeError,
            "Length of pad should be no more than twice the number of dimensions of the input. Pad length is ",
            pad.size(), " while the input has ", self.dim(), " dimensions.");
  Tensor input = self;
  std::vector<int64_t> new_shape(self.sizes().begin(), self.sizes().end());
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t d = self.dim() - 1 - i;
    const int64_t before = pad[static_cast<size_t>(2 * i)], after = pad[static_cast<size_t>(2 * i + 1)];
    if (before < 0) input = ops::narrow(input, d, -before, input.sizes()[d] + before);
    if (after < 0) input = ops::narrow(input, d, 0, input.sizes()[d] + after);
    new_shape[static_cast<size_t>(d)] = self.sizes()[d] + before + after;
    IPT_CHECK(new_shape[static_cast<size_t>(d)] > 0, RuntimeError, "The input size ", self.sizes()[d],
              ", plus negative padding ", before, " and ", after,
              " resulted in a negative output size, "
              "which is invalid. Check dimension ",
              d, " of your input.");
  }
  Tensor out =
      ops::empty_memory_format(new_shape, self.dtype(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  ops::fill__Scalar(out, value);
  Tensor middle = out;
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t d = self.dim() - 1 - i;
    const int64_t before = pad[static_cast<size_t>(2 * i)];
    middle = ops::narrow(middle, d, std::max<int64_t>(before, 0), input.sizes()[d]);
  }
  ops::copy_(middle, input, false);
  return out;
}

}  // namespace ipt::native
