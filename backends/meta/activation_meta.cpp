// Meta kernels of the activations' unstructured operators (mish_backward's is its composite) and of pixel_shuffle / unshuffle: the
// result shapes and dtypes, no data.
#include "core/ops/pixel_shuffle_rules.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
const Device kMeta(DeviceType::Meta);
Tensor activation_binary_meta(const Tensor& a, const Tensor& b) {
  const PointwiseGeometry g = binary_geometry(a, b);
  return make_empty(g.sizes, g.out_dtype, kMeta);
}
}  // namespace

Tensor hardswish_backward_meta(const Tensor& grad_output, const Tensor& self) {
  return activation_binary_meta(grad_output, self);
}
Tensor glu_backward_meta(const Tensor&, const Tensor& self, int64_t dim) {
  IPT_CHECK(self.dim() > 0, RuntimeError, "glu does not support 0-dimensional tensors");
  const int64_t d = wrap_dim(dim, self.dim());
  IPT_CHECK(self.sizes()[d] % 2 == 0, RuntimeError, "Halving dimension must be even, but dimension ", d, " is size ",
            self.sizes()[d]);
  return make_empty(self.sizes(), self.dtype(), kMeta);
}
Tensor prelu_kernel_meta(const Tensor& self, const Tensor& weight) { return activation_binary_meta(self, weight); }
std::tuple<Tensor, Tensor> prelu_kernel_backward_meta(const Tensor& grad_output, const Tensor& self,
                                                      const Tensor& weight) {
  const std::vector<int64_t> sizes =
      broadcast_shapes(broadcast_shapes(self.sizes(), weight.sizes()), grad_output.sizes());
  return {make_empty(sizes, self.dtype(), kMeta), make_empty(sizes, weight.dtype(), kMeta)};
}
Tensor pixel_shuffle_meta(const Tensor& self, int64_t upscale_factor) {
  return make_empty(pixel_shuffle_sizes(self, upscale_factor), self.dtype(), kMeta);
}
Tensor pixel_unshuffle_meta(const Tensor& self, int64_t downscale_factor) {
  return make_empty(pixel_unshuffle_sizes(self, downscale_factor), self.dtype(), kMeta);
}

}  // namespace ipt::native
