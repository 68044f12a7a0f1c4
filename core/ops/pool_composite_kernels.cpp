// The composite kernels of pooling, as PyTorch 2.15 writes them (aten/src/ATen/native/
// MaxPooling.cpp, AveragePool*.cpp, AdaptiveAveragePooling.cpp): 1-D pools are 2-D ones over a
// height of 1, max_pool2d / 3d keep the values of *_with_indices, and an adaptive average pool
// to 1x1 is a mean over the last two dims.
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
void check_one(IntArrayRef v, const char* fn, const char* arg, bool may_be_empty) {
  IPT_CHECK(v.size() == 1 || (may_be_empty && v.empty()), RuntimeError, fn, "() argument '", arg,
            "' should contain one int (got ", v.size(), ")");
}
std::vector<int64_t> with_one(int64_t first, IntArrayRef v) {
  if (v.empty()) return {};
  return {first, v[0]};
}
}  // namespace

std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  IPT_CHECK(self.dim() == 2 || self.dim() == 3, RuntimeError, "max_pool1d() Expected 2D or 3D input tensor, but got ",
            int_list_str(self.sizes()));
  check_one(kernel_size, "max_pool1d", "kernel_size", false);
  check_one(stride, "max_pool1d", "stride", true);
  check_one(padding, "max_pool1d", "padding", false);
  check_one(dilation, "max_pool1d", "dilation", false);
  const std::vector<int64_t> k = {1, kernel_size[0]}, p = {0, padding[0]}, d = {1, dilation[0]};
  const std::vector<int64_t> s = stride.empty() ? k : std::vector<int64_t>{1, stride[0]};
  auto [out, indices] = ops::max_pool2d_with_indices(ops::unsqueeze(self, -2), k, s, p, d, ceil_mode);
  return {ops::squeeze_dim(out, -2), ops::squeeze_dim(indices, -2)};
}

Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(ops::max_pool1d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(ops::max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor max_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(ops::max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                  bool count_include_pad) {
  IPT_CHECK(self.dim() == 2 || self.dim() == 3, RuntimeError, "avg_pool1d() Expected 2D or 3D input tensor, but got ",
            int_list_str(self.sizes()));
  check_one(kernel_size, "avg_pool1d", "kernel_size", false);
  check_one(stride, "avg_pool1d", "stride", true);
  check_one(padding, "avg_pool1d", "padding", false);
  const std::vector<int64_t> k = {1, kernel_size[0]};
  const std::vector<int64_t> s = stride.empty() ? k : with_one(1, stride);
  Tensor out =
      ops::avg_pool2d(ops::unsqueeze(self, -2), k, s, with_one(0, padding), ceil_mode, count_include_pad, std::nullopt);
  return ops::squeeze_dim(out, -2);
}

Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size) {
  check_one(output_size, "adaptive_avg_pool1d", "output_size", false);
  IPT_CHECK(self.dim() == 2 || self.dim() == 3, RuntimeError,
            "adaptive_avg_pool1d() Expected 2D or 3D input tensor, but got ", int_list_str(self.sizes()));
  return ops::squeeze_dim(ops::adaptive_avg_pool2d(ops::unsqueeze(self, -2), std::vector<int64_t>{1, output_size[0]}),
                          -2);
}

// adaptive_max_pool1d is adaptive_max_pool2d over a height of 1 (PyTorch's AdaptiveMaxPooling.cpp).
std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntArrayRef output_size) {
  IPT_CHECK(self.dim() == 2 || self.dim() == 3, RuntimeError, "Expected 2 to 3 dimensions, but got ", self.dim(),
            "-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_max_pool1d)");
  check_one(output_size, "adaptive_max_pool1d", "output_size", false);
  for (int64_t i = 1; i < self.dim(); ++i)
    IPT_CHECK(self.sizes()[static_cast<size_t>(i)] > 0, RuntimeError,
              "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but input has "
              "sizes ",
              int_list_str(self.sizes()), " with dimension ", i, " being empty");
  auto [output, indices] = ops::adaptive_max_pool2d(ops::unsqueeze(self, -2), std::vector<int64_t>{1, output_size[0]});
  return {ops::squeeze_dim(output, -2), ops::squeeze_dim(indices, -2)};
}

Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  IPT_CHECK(output_size.size() == 2, RuntimeError, "adaptive_avg_pool2d: output_size must be 2");
  IPT_CHECK(self.dim() == 3 || self.dim() == 4, RuntimeError,
            "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", int_list_str(self.sizes()));
  if (output_size[0] == 1 && output_size[1] == 1)
    return ops::mean_dim(self, std::vector<int64_t>{-1, -2}, true, std::nullopt);
  return ops::_adaptive_avg_pool2d(self, output_size);
}

Tensor adaptive_avg_pool3d(const Tensor& self, IntArrayRef output_size) {
  IPT_CHECK(output_size.size() == 3, RuntimeError, "adaptive_avg_pool3d: output_size must be 3");
  if (output_size[0] == 1 && output_size[1] == 1 && output_size[2] == 1 && (self.dim() == 4 || self.dim() == 5))
    return ops::mean_dim(self, std::vector<int64_t>{-1, -2, -3}, true, std::nullopt);
  return ops::_adaptive_avg_pool3d(self, output_size);
}

}  // namespace ipt::native
