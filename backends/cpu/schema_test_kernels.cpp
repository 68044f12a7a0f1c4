// Kernels that break their own schemas, on purpose: the schema check mode's tests
// (the `_test_schema_*` entries at the end of native_functions.yaml).
#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/into_kernels.h"
#include "core/ops/scalar_tensor.h"
#include "generated/native_functions.h"

namespace ipt::native {

Tensor test_schema_unannotated_write_cpu(const Tensor& self) {
  add_into_cpu(self, self, wrapped_scalar_tensor(Scalar(int64_t(1))), Scalar(int64_t(1)));  // writes its input
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  copy_cpu_(out, self, false);
  return out;
}

Tensor test_schema_unannotated_alias_cpu(const Tensor& self) {
  Tensor view = make_view(self, self.sizes(), self.strides(), self.storage_offset());  // shares self's memory
  view.impl()->set_is_view(false);
  return view;
}

Tensor test_schema_unused_write_cpu(const Tensor& self) { return self; }  // writes nothing

std::tuple<Tensor, Tensor> test_schema_outputs_alias_cpu(const Tensor& self) {
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  copy_cpu_(out, self, false);
  return {out, out};
}

}  // namespace ipt::native
