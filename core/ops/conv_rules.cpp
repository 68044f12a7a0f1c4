#include "core/ops/conv_rules.h"

#include <string>

#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt {

std::vector<int64_t> expand_param(IntArrayRef v, int64_t dims, const char* name) {
  if (static_cast<int64_t>(v.size()) == dims) return {v.begin(), v.end()};
  IPT_CHECK(v.size() == 1, RuntimeError, "expected ", name, " to be a single integer value or a list of ", dims,
            " values to match the convolution dimensions, but got ", name, "=", int_list_str(v));
  return std::vector<int64_t>(static_cast<size_t>(dims), v[0]);
}

ConvParams conv_params(IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, IntArrayRef output_padding,
                       bool transposed, int64_t groups, int64_t dims) {
  ConvParams p;
  p.stride = expand_param(stride, dims, "stride");
  p.padding = expand_param(padding, dims, "padding");
  p.dilation =
      dilation.empty() ? std::vector<int64_t>(static_cast<size_t>(dims), 1) : expand_param(dilation, dims, "dilation");
  p.output_padding = output_padding.empty() ? std::vector<int64_t>(static_cast<size_t>(dims), 0)
                                            : expand_param(output_padding, dims, "output_padding");
  p.transposed = transposed;
  p.groups = groups;
  return p;
}

void check_conv_forward(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        const ConvParams& p) {
  const int64_t k = input.dim(), weight_dim = weight.dim();
  const auto ws = weight.sizes();
  for (int64_t v : p.padding) IPT_CHECK(v >= 0, RuntimeError, "negative padding is not supported");
  for (int64_t v : p.output_padding) IPT_CHECK(v >= 0, RuntimeError, "negative output_padding is not supported");
  for (int64_t v : p.stride) IPT_CHECK(v > 0, RuntimeError, "non-positive stride is not supported");
  for (int64_t v : p.dilation) IPT_CHECK(v > 0, RuntimeError, "dilation should be greater than zero");
  IPT_CHECK(weight_dim == k, RuntimeError, "Expected ", weight_dim, "-dimensional input for ", weight_dim,
            "-dimensional weight ", int_list_str(ws), ", but got ", k, "-dimensional input of size ",
            int_list_str(input.sizes()), " instead");
  IPT_CHECK(ws[0] >= p.groups, RuntimeError, "Given groups=", p.groups, ", expected weight to be at least ", p.groups,
            " at dimension 0, but got weight of size ", int_list_str(ws), " instead");
  IPT_CHECK(ws[0] % p.groups == 0, RuntimeError, "Given groups=", p.groups, ", expected weight to be divisible by ",
            p.groups, " at dimension 0, but got weight of size [", int_list_str(ws), "] instead");
  const bool has_bias = bias && bias->defined();
  if (!p.transposed) {
    IPT_CHECK(input.sizes()[1] == ws[1] * p.groups, RuntimeError, "Given groups=", p.groups, ", weight of size ",
              int_list_str(ws), ", expected input", int_list_str(input.sizes()), " to have ", ws[1] * p.groups,
              " channels, but got ", input.sizes()[1], " channels instead");
    IPT_CHECK(!has_bias || (bias->dim() == 1 && bias->sizes()[0] == ws[0]), RuntimeError, "Given weight of size ",
              int_list_str(ws), ", expected bias to be 1-dimensional with ", ws[0], " elements",
              ", but got bias of size ", int_list_str(bias->sizes()), " instead");
    std::string input_shape, kernel_shape;
    bool too_big = false;
    for (int64_t i = 2; i < k; ++i) {
      const size_t d = static_cast<size_t>(i - 2);
      const int64_t padded = input.sizes()[i] + 2 * p.padding[d];
      const int64_t kernel = p.dilation[d] * (ws[i] - 1) + 1;
      input_shape += (i > 2 ? " x " : "") + std::to_string(padded);
      kernel_shape += (i > 2 ? " x " : "") + std::to_string(kernel);
      too_big = too_big || padded < kernel;
    }
    IPT_CHECK(!too_big, RuntimeError, "Calculated padded input size per channel: (", input_shape, "). Kernel size: (",
              kernel_shape, "). Kernel size can't be greater than actual input size");
  } else {
    IPT_CHECK(input.sizes()[1] == ws[0], RuntimeError, "Given transposed=1, weight of size ", int_list_str(ws),
              ", expected input", int_list_str(input.sizes()), " to have ", ws[0], " channels, but got ",
              input.sizes()[1], " channels instead");
    IPT_CHECK(!has_bias || (bias->dim() == 1 && bias->sizes()[0] == ws[1] * p.groups), RuntimeError,
              "Given transposed=1, weight of size ", int_list_str(ws), ", expected bias to be 1-dimensional with ",
              ws[1] * p.groups, " elements", ", but got bias of size ", int_list_str(bias->sizes()), " instead");
  }
}

std::vector<int64_t> conv_output_sizes(IntArrayRef input, IntArrayRef weight, const ConvParams& p) {
  std::vector<int64_t> out = {input[0], p.transposed ? weight[1] * p.groups : weight[0]};
  for (size_t i = 2; i < input.size(); ++i) {
    const size_t d = i - 2;
    const int64_t kernel = p.dilation[d] * (weight[i] - 1) + 1;
    if (p.transposed) out.push_back((input[i] - 1) * p.stride[d] - 2 * p.padding[d] + kernel + p.output_padding[d]);
    else out.push_back((input[i] + 2 * p.padding[d] - kernel) / p.stride[d] + 1);
  }
  return out;
}

}  // namespace ipt

namespace ipt {

namespace {
ConvBackwardFn g_conv_backward[3] = {};  // by DeviceType: CPU, CUDA, Meta
}

void register_conv_backward(DeviceType device, ConvBackwardFn fn) { g_conv_backward[static_cast<size_t>(device)] = fn; }

ConvBackwardFn conv_backward_stub(DeviceType device) {
  ConvBackwardFn fn = g_conv_backward[static_cast<size_t>(device)];
  IPT_CHECK(fn != nullptr, NotImplementedError, "convolution_backward has no kernel for the ", Device(device).str(),
            " device");
  return fn;
}

}  // namespace ipt
