#pragma once
// Python numbers as operands: `x + 1` passes a "wrapped number" 0-dim tensor to add.Tensor,
// which takes part in type promotion like a number (see result_type in shape_rules.h).

#include "core/tensor/scalar.h"
#include "core/tensor/tensor.h"

namespace ipt::native {

// A 0-dim CPU tensor holding `s` (float64 / int64 / bool), marked as a wrapped number.
Tensor wrapped_scalar_tensor(const Scalar& s);

}  // namespace ipt::native
