// Python numbers as 0-dim tensors (what `x + 1` passes to add.Tensor).
#include "core/ops/scalar_tensor.h"
#include "generated/native_functions.h"

namespace ipt::native {

Tensor wrapped_scalar_tensor(const Scalar& s) {
  ScalarType dt = s.is_floating() ? ScalarType::Double : s.is_bool() ? ScalarType::Bool : ScalarType::Long;
  Tensor t = make_empty(std::vector<int64_t>{}, dt, Device(DeviceType::CPU));
  visit_dtype(dt, [&]<typename T>() { *t.data_ptr<T>() = s.to<T>(); });
  t.impl()->set_wrapped_number(true);
  return t;
}

}  // namespace ipt::native
