// Meta kernels of torch.lerp: the broadcast shape and the dtype checks, no data.
#include "core/ops/shape_rules.h"
#include "core/tensor/backend.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
void check_same_dtype(const Tensor& self, const Tensor& other, const char* what) {
  IPT_CHECK(self.dtype() == other.dtype(), RuntimeError, "expected dtype ", dtype_element_name(self.dtype()), " for `",
            what, "` but got dtype ", dtype_element_name(other.dtype()));
}
}  // namespace

Tensor lerp_scalar_meta(const Tensor& self, const Tensor& end, const Scalar&) {
  check_same_dtype(self, end, "end");
  return make_empty(binary_geometry(self, end).sizes, self.dtype(), Device(DeviceType::Meta));
}
Tensor lerp_scalar_meta_(const Tensor& self, const Tensor& end, const Scalar&) {
  check_same_dtype(self, end, "end");
  inplace_binary_geometry(self, end);
  return self;
}
Tensor lerp_tensor_meta(const Tensor& self, const Tensor& end, const Tensor& weight) {
  check_same_dtype(self, end, "end");
  if (weight.dim() != 0) check_same_dtype(self, weight, "weight");
  return make_empty(ternary_geometry(self, end, weight).sizes, self.dtype(), Device(DeviceType::Meta));
}
Tensor lerp_tensor_meta_(const Tensor& self, const Tensor& end, const Tensor& weight) {
  check_same_dtype(self, end, "end");
  if (weight.dim() != 0) check_same_dtype(self, weight, "weight");
  inplace_ternary_geometry(self, end, weight);
  return self;
}

}  // namespace ipt::native
