// Meta kernels of flip, reflection / replication padding, upsampling, im2col / col2im and
// sorting: the CPU kernels' checks and result shapes (core/ops/remap_rules.h,
// core/ops/fold_rules.h, core/ops/sort_rules.h), no data.
#include "core/ops/fold_rules.h"
#include "core/ops/remap_rules.h"
#include "core/ops/sort_rules.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
const Device kMeta(DeviceType::Meta);
}  // namespace

Tensor flip_meta(const Tensor& self, IntArrayRef dims) {
  (void)flip_dims(self, dims);
  return make_empty_like_layout(self.sizes(), self.dtype(), kMeta, self);
}

Tensor reflection_pad1d_meta(const Tensor& self, IntArrayRef padding) {
  return make_empty(pad_output_sizes(self, padding, 1, true), self.dtype(), kMeta);
}
Tensor reflection_pad2d_meta(const Tensor& self, IntArrayRef padding) {
  return make_empty(pad_output_sizes(self, padding, 2, true), self.dtype(), kMeta);
}
Tensor reflection_pad3d_meta(const Tensor& self, IntArrayRef padding) {
  return make_empty(pad_output_sizes(self, padding, 3, true), self.dtype(), kMeta);
}
Tensor replication_pad1d_meta(const Tensor& self, IntArrayRef padding) {
  return make_empty(pad_output_sizes(self, padding, 1, false), self.dtype(), kMeta);
}
Tensor replication_pad2d_meta(const Tensor& self, IntArrayRef padding) {
  return make_empty(pad_output_sizes(self, padding, 2, false), self.dtype(), kMeta);
}
Tensor replication_pad3d_meta(const Tensor& self, IntArrayRef padding) {
  return make_empty(pad_output_sizes(self, padding, 3, false), self.dtype(), kMeta);
}
Tensor pad_backward_meta(const Tensor& grad_output, const Tensor& self, IntArrayRef) {
  return make_empty(self.sizes(), grad_output.dtype(), kMeta);
}

Tensor upsample_nearest2d_meta(const Tensor& self, IntArrayRef output_size, std::optional<double>,
                               std::optional<double>) {
  return make_empty(upsample2d_output_sizes(self, output_size), self.dtype(), kMeta);
}
Tensor upsample_bilinear2d_meta(const Tensor& self, IntArrayRef output_size, bool, std::optional<double>,
                                std::optional<double>) {
  return make_empty(upsample2d_output_sizes(self, output_size), self.dtype(), kMeta);
}
Tensor upsample_backward_meta(const Tensor& grad_output, IntArrayRef output_size, IntArrayRef input_size,
                              std::optional<double>, std::optional<double>) {
  check_upsample2d_backward(grad_output, output_size, input_size);
  return make_empty(input_size, grad_output.dtype(), kMeta);
}
Tensor upsample_bilinear_backward_meta(const Tensor& grad_output, IntArrayRef output_size, IntArrayRef input_size, bool,
                                       std::optional<double>, std::optional<double>) {
  check_upsample2d_backward(grad_output, output_size, input_size);
  return make_empty(input_size, grad_output.dtype(), kMeta);
}

Tensor im2col_meta(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                   IntArrayRef stride) {
  const SlidingBlocks b = im2col_blocks(self, kernel_size, dilation, padding, stride);
  return make_empty(im2col_output_sizes(self, b), self.dtype(), kMeta);
}
Tensor col2im_meta(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
                   IntArrayRef padding, IntArrayRef stride) {
  const SlidingBlocks b = col2im_blocks(self, output_size, kernel_size, dilation, padding, stride);
  return make_empty(col2im_output_sizes(self, b), self.dtype(), kMeta);
}

Tensor roll_meta(const Tensor& self, IntArrayRef, IntArrayRef) { return make_empty(self.sizes(), self.dtype(), kMeta); }

std::tuple<Tensor, Tensor> sort_stable_meta(const Tensor& self, std::optional<bool>, int64_t dim, bool) {
  (void)wrap_sort_dim(self, dim);
  return {make_empty_like_layout(self.sizes(), self.dtype(), kMeta, self),
          make_empty_like_layout(self.sizes(), ScalarType::Long, kMeta, self)};
}
std::tuple<Tensor, Tensor> topk_meta(const Tensor& self, int64_t k, int64_t dim, bool, bool) {
  const std::vector<int64_t> sizes = topk_output_sizes(self, k, dim);
  return {make_empty(sizes, self.dtype(), kMeta), make_empty(sizes, ScalarType::Long, kMeta)};
}
std::tuple<Tensor, Tensor> kthvalue_meta(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  const std::vector<int64_t> sizes = kthvalue_output_sizes(self, k, dim, keepdim);
  return {make_empty(sizes, self.dtype(), kMeta), make_empty(sizes, ScalarType::Long, kMeta)};
}

}  // namespace ipt::native
