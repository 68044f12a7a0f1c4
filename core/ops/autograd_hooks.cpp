#include "core/ops/autograd_hooks.h"

#include <string>

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/tensor/index_math.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt {

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
