#pragma once
// What the generated kernels call around a write or a view (core/ops/autograd_hooks.cpp): version
// counters, overlap checks and view marks. (The Autograd kernels' own calls are in core/autograd/recording.h.)

#include "core/tensor/tensor.h"

namespace ipt {

// Before an in-place or out= write: RuntimeError when `t` has a dimension of stride 0 and size > 1
// (an expanded tensor), whose elements share memory (PyTorch's assert_no_internal_overlap).
void check_no_internal_overlap(const Tensor& t);
// Bumps the version counter shared by `t` and its views (in-place writes).
void increment_version(const Tensor& t);
// Marks `view` as a view of `base` (what ADInplaceOrView does for view operators). `kind` is
// MultiOutput for the pieces of split / unbind, NotDifferentiable for detach; otherwise the
// view records whether it was made in no-grad or inference mode (and inherits its base's mark).
Tensor as_view(const Tensor& base, const Tensor& view, ViewCreation kind = ViewCreation::Default);

}  // namespace ipt
