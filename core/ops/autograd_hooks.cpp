#include "core/ops/autograd_hooks.h"

#include <string>

#include "core/autograd/node.h"
#include "core/autograd/recording.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/tensor/index_math.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt {

static void before_call(const char* op, const Tensor* const* inputs, size_t n, bool is_mutable, const char* node) {
  bool any_requires_grad = false;
  for (size_t i = 0; i < n; ++i)
    any_requires_grad = any_requires_grad || (inputs[i]->defined() && inputs[i]->requires_grad());
  if (is_mutable && n > 0)
    IPT_CHECK(
        !inputs[0]->impl()->is_inference() || inference_mode_enabled(), RuntimeError,
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
        "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.");
  if (is_mutable && grad_mode_enabled() && n > 0) {
    const Tensor* self = inputs[0];
    if (any_requires_grad) autograd::check_inplace(*self);  // views made in no-grad mode ... first
    IPT_CHECK(!(self->requires_grad() && autograd::is_leaf(*self) && !self->impl()->is_view()), RuntimeError,
              "a leaf Variable that requires grad is being used in an in-place operation.");
    if (self->impl()->is_view() && self->requires_grad()) {
      auto base = self->impl()->view_base();
      IPT_CHECK(!(base && base->requires_grad() && !base->autograd_meta_grad_fn()), RuntimeError,
                "a view of a leaf Variable that requires grad is being used in an in-place operation.");
    }
  }
  if (!trace::tracing_enabled()) return;
  trace::Recorder::current().instant(
      trace::Category::Autograd, "autograd decision",
      trace::AutogradDecision{op, grad_mode_enabled(), any_requires_grad, node ? node : ""});
}

void autograd_before_call(const char* op, std::initializer_list<const Tensor*> inputs, bool is_mutable,
                          const char* node) {
  before_call(op, inputs.begin(), inputs.size(), is_mutable, node);
}
void autograd_before_call(const char* op, const std::vector<const Tensor*>& inputs, bool is_mutable, const char* node) {
  before_call(op, inputs.data(), inputs.size(), is_mutable, node);
}

void check_no_internal_overlap(const Tensor& t) {
  if (!t.defined() || is_non_overlapping_and_dense(t.sizes(), t.strides())) return;
  for (int64_t d = 0; d < t.dim(); ++d)
    IPT_CHECK(!(t.strides()[d] == 0 && t.sizes()[d] > 1), RuntimeError,
              "unsupported operation: more than one element of the written-to tensor refers to a single memory "
              "location. Please clone() the tensor before performing the operation.");
}

void increment_version(const Tensor& t) { t.impl()->bump_version(); }

Tensor as_view(const Tensor& base, const Tensor& view, ViewCreation kind) {
  view.impl()->set_is_view(true);
  if (kind != ViewCreation::NotDifferentiable)
    kind = inference_mode_enabled() ? ViewCreation::InferenceMode
                                    : (grad_mode_enabled() ? kind : ViewCreation::NoGradMode);
  // A view of a view keeps its base's restriction (inference mode wins), as PyTorch propagates
  // it; a view of a detached tensor is a view of that tensor, not of what it was detached from.
  const bool base_tracked = base.impl()->is_differentiable_view();
  if (kind != ViewCreation::NotDifferentiable && base_tracked) {
    const ViewCreation parent = base.impl()->view_creation();
    kind = kind == ViewCreation::Default ? parent : (parent == ViewCreation::InferenceMode ? parent : kind);
  }
  view.impl()->set_view_creation(kind);
  // Views of views remember the root base (as PyTorch's _base).
  auto root = base_tracked ? base.impl()->view_base() : nullptr;
  view.impl()->set_view_base(root ? root : base.impl_ptr());
  // A view made while grad mode is off still reports requires_grad like its base (PyTorch).
  if (!grad_mode_enabled() && base.requires_grad() && !inference_mode_enabled()) view.impl()->set_requires_grad(true);
  return view;
}

}  // namespace ipt
