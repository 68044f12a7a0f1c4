// CompositeImplicitAutograd functions that are another operator under a second name, as PyTorch
// decomposes them (the Dispatch view shows the call they make): square is pow(self, 2), and the
// NumPy names of the inverse trigonometric and hyperbolic functions (arcsin ...) are asin ....
#include "core/ops/scalar_tensor.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

Tensor square(const Tensor& self) { return ops::pow_Tensor_Scalar(self, 2); }
Tensor square_(const Tensor& self) { return ops::pow__Scalar(self, 2); }

#define IPT_ALIAS(alias, op)                                       \
  Tensor alias(const Tensor& self) { return ops::op(self); }       \
  Tensor alias##_(const Tensor& self) { return ops::op##_(self); } \
  Tensor alias##_out(const Tensor& self, const Tensor& out) { return ops::op##_out(self, out); }
IPT_ALIAS(arcsin, asin)
IPT_ALIAS(arccos, acos)
IPT_ALIAS(arctan, atan)
IPT_ALIAS(arcsinh, asinh)
IPT_ALIAS(arccosh, acosh)
IPT_ALIAS(arctanh, atanh)
#undef IPT_ALIAS

}  // namespace ipt::native
