#include "core/autograd/node.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt::autograd {

CopySlices::CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
    : base_sizes_(base.sizes()),
      base_strides_(base.strides()),
      base_offset_(base.storage_offset()),
      view_sizes_(view.sizes()),
      view_strides_(view.strides()),
      view_offset_(view.storage_offset()),
      fn_(std::move(fn)) {
  // fn's edges, except the first (the view's), which goes to the base's previous history.
  next_edges.push_back(gradient_edge(base));
  for (size_t i = 1; i < fn_->next_edges.size(); ++i) next_edges.push_back(fn_->next_edges[i]);
  // fn computes its gradient for self exactly when the base needs one.
  if (!fn_->next_edges.empty()) fn_->next_edges[0] = next_edges[0];
}

std::vector<Tensor> CopySlices::apply(std::vector<Tensor>&& grads) {
  IPT_CHECK(!released_, RuntimeError,
            "Trying to backward through the graph a second time (or directly access saved tensors after they have "
            "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
            "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
            "if you need to access saved tensors after calling backward.");
  std::vector<Tensor> out(next_edges.size());
  const Tensor& grad = grads[0];
  if (!grad.defined()) return out;
  Tensor result = ops::empty_strided(base_sizes_, base_strides_, grad.dtype(), std::nullopt, grad.device());
  ops::copy_(result, grad);
  Tensor slice = ops::as_strided(result, view_sizes_, view_strides_, view_offset_ - base_offset_);
  std::vector<Tensor> res = fn_->apply({ops::clone(slice, MemoryFormat::Contiguous)});
  if (next_edges[0].valid()) {
    if (!res.empty() && res[0].defined()) ops::copy_(slice, res[0]);
    else ops::zero_(slice);  // fn's gradient for self is zero (the write replaced those values)
    out[0] = result;
  }
  for (size_t i = 1; i < out.size() && i < res.size(); ++i) out[i] = res[i];
  return out;
}

void CopySlices::release_variables() {
  fn_->release_variables();
  released_ = true;
}

}  // namespace ipt::autograd
