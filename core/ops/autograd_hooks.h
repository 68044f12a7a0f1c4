#pragma once
// What the generated Autograd and ADInplaceOrView kernels call (core/ops/autograd_hooks.cpp).

#include <initializer_list>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt {

// Called by every Autograd kernel before it redispatches: decides whether a backward graph
// would be recorded (grad mode on and some input requires grad) and records that decision.
// Raises PyTorch's error for an in-place operation on a leaf that requires grad.
// `node` is the backward node it will record (null when it records nothing).
void autograd_before_call(const char* op, std::initializer_list<const Tensor*> inputs, bool is_mutable,
                          const char* node);
void autograd_before_call(const char* op, const std::vector<const Tensor*>& inputs, bool is_mutable, const char* node);
// Bumps the version counter shared by `t` and its views (in-place writes).
void increment_version(const Tensor& t);
// Marks `view` as a view of `base` (what ADInplaceOrView does for view operators).
Tensor as_view(const Tensor& base, const Tensor& view);

}  // namespace ipt
