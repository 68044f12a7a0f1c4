#pragma once
// The CPU backend's copy (its copy_stub): what copy_ runs for CPU tensors, and what CPU kernels
// call to copy without going through the dispatcher again.
#include "core/tensor/tensor.h"

namespace ipt::native {

// Copies src into self (broadcast, converted to self's dtype); checks the broadcast shape.
Tensor copy_cpu_(const Tensor& self, const Tensor& src, bool non_blocking);

}  // namespace ipt::native
