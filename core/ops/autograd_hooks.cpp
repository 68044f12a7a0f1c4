#include "core/ops/autograd_hooks.h"

#include <string>

#include "core/autograd/node.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt {

static void before_call(const char* op, const Tensor* const* inputs, size_t n, bool is_mutable, const char* node) {
  bool any_requires_grad = false;
  for (size_t i = 0; i < n; ++i) any_requires_grad = any_requires_grad || (inputs[i]->defined() && inputs[i]->requires_grad());
  if (is_mutable && grad_mode_enabled() && n > 0) {
    const Tensor* self = inputs[0];
    IPT_CHECK(!(self->requires_grad() && autograd::is_leaf(*self) && !self->impl()->is_view()), RuntimeError,
              "a leaf Variable that requires grad is being used in an in-place operation.");
    if (self->impl()->is_view() && self->requires_grad()) {
      auto base = self->impl()->view_base();
      IPT_CHECK(!(base && base->requires_grad() && !base->autograd_meta_grad_fn()), RuntimeError,
                "a view of a leaf Variable that requires grad is being used in an in-place operation.");
    }
  }
  if (!trace::tracing_enabled()) return;
  const bool grad = grad_mode_enabled();
  std::string text = std::string(op) + ": grad mode " + (grad ? "on" : "off") + ", " +
                     (any_requires_grad ? "an input requires grad" : "no input requires grad") + " -> " +
                     (grad && any_requires_grad ? std::string("records ") + (node && *node ? node : "a backward node")
                                                : std::string("no graph is recorded"));
  trace::Recorder::current().instant(trace::Category::Autograd, "autograd decision", trace::Text{std::move(text)});
}

void autograd_before_call(const char* op, std::initializer_list<const Tensor*> inputs, bool is_mutable,
                          const char* node) {
  before_call(op, inputs.begin(), inputs.size(), is_mutable, node);
}
void autograd_before_call(const char* op, const std::vector<const Tensor*>& inputs, bool is_mutable, const char* node) {
  before_call(op, inputs.data(), inputs.size(), is_mutable, node);
}

void increment_version(const Tensor& t) { t.impl()->bump_version(); }

Tensor as_view(const Tensor& base, const Tensor& view) {
  view.impl()->set_is_view(true);
  // Views of views remember the root base (as PyTorch's _base).
  auto root = base.impl()->view_base();
  view.impl()->set_view_base(root ? root : base.impl_ptr());
  // A view made while grad mode is off still reports requires_grad like its base (PyTorch).
  if (!grad_mode_enabled() && base.requires_grad() && !inference_mode_enabled()) view.impl()->set_requires_grad(true);
  return view;
}

}  // namespace ipt
