// Meta kernels of the losses with kernels of their own, log_sigmoid and clamp to one bound: the
// result shapes (a 0-dim loss when it is reduced), no data.
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
const Device kMeta(DeviceType::Meta);
Tensor reduced(std::vector<int64_t> sizes, ScalarType dt, int64_t reduction) {
  return make_empty(reduction == 0 ? sizes : std::vector<int64_t>{}, dt, kMeta);
}
}  // namespace

Tensor loss_meta(const Tensor& self, const Tensor&, const std::optional<Tensor>&, int64_t reduction) {
  return reduced(self.sizes(), self.dtype(), reduction);
}
Tensor loss_backward_meta(const Tensor&, const Tensor& self, const Tensor&, const std::optional<Tensor>&, int64_t) {
  return make_empty(self.sizes(), self.dtype(), kMeta);
}
Tensor smooth_l1_loss_meta(const Tensor& self, const Tensor& target, int64_t reduction, double) {
  return reduced(broadcast_shapes(self.sizes(), target.sizes()), result_type({&self, &target}), reduction);
}
Tensor smooth_l1_loss_backward_meta(const Tensor&, const Tensor& self, const Tensor& target, int64_t, double) {
  return make_empty(broadcast_shapes(self.sizes(), target.sizes()), result_type({&self, &target}), kMeta);
}
std::tuple<Tensor, Tensor> log_sigmoid_forward_meta(const Tensor& self) {
  return {make_empty(self.sizes(), self.dtype(), kMeta), make_empty(self.sizes(), self.dtype(), kMeta)};
}
Tensor log_sigmoid_backward_meta(const Tensor&, const Tensor& self, const Tensor&) {
  return make_empty(self.sizes(), self.dtype(), kMeta);
}
Tensor clamp_min_meta(const Tensor& self, const Scalar& min) { return clamp_meta(self, min, std::nullopt); }
Tensor clamp_min_meta_(const Tensor& self, const Scalar& min) { return clamp_meta_(self, min, std::nullopt); }
Tensor clamp_max_meta(const Tensor& self, const Scalar& max) { return clamp_meta(self, std::nullopt, max); }
Tensor clamp_max_meta_(const Tensor& self, const Scalar& max) { return clamp_meta_(self, std::nullopt, max); }

}  // namespace ipt::native
