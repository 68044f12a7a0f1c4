#pragma once
// What the generated Autograd and ADInplaceOrView kernels call (core/ops/autograd_hooks.cpp).

#include <initializer_list>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt {

// Called by every Autograd kernel before it redispatches: decides whether a backward graph
// would be recorded (grad mode on and some input requires grad) and records that decision.
// Raises PyTorch's error for an in-place operation on a leaf that requires grad.
// `node` is the backward node it will record (null when it records nothing). Both are string
// literals (the generated kernels pass them), recorded as they are.
void autograd_before_call(const char* op, std::initializer_list<const Tensor*> inputs, bool is_mutable,
                          const char* node);
void autograd_before_call(const char* op, const std::vector<const Tensor*>& inputs, bool is_mutable, const char* node);
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
