#include "core/autograd/recording.h"

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt::autograd {

namespace {
template <typename Inputs>
bool any_requires_grad(const Inputs& inputs) {
  if (!grad_mode_enabled()) return false;
  for (const Tensor* t : inputs)
    if (t->defined() && t->requires_grad()) return true;
  return false;
}
template <typename Inputs>
std::vector<Edge> edges_of(const Inputs& inputs) {
  std::vector<Edge> edges;
  edges.reserve(inputs.size());
  for (const Tensor* t : inputs) edges.push_back(gradient_edge(*t));
  return edges;
}
}  // namespace

bool compute_requires_grad(std::initializer_list<const Tensor*> inputs) { return any_requires_grad(inputs); }
bool compute_requires_grad(const std::vector<const Tensor*>& inputs) { return any_requires_grad(inputs); }
std::vector<Edge> collect_next_edges(std::initializer_list<const Tensor*> inputs) { return edges_of(inputs); }
std::vector<Edge> collect_next_edges(const std::vector<const Tensor*>& inputs) { return edges_of(inputs); }

// Note [Operation names in autograd errors]
// PyTorch 2.15 names the producer of a saved or viewed tensor by its operation, not its node
// ("which is output 0 of Exp", "Output 1 of Split is a view"): the node's name loses a trailing
// "Backward" and the overload number after it.
std::string node_op_name(const Node& fn) {
  std::string n = fn.name();
  size_t end = n.size();
  while (end > 0 && n[end - 1] >= '0' && n[end - 1] <= '9') --end;
  const std::string suffix = "Backward";
  if (end >= suffix.size() && n.compare(end - suffix.size(), suffix.size(), suffix) == 0 && end > suffix.size())
    n.resize(end - suffix.size());
  return n;
}

void check_inplace(const Tensor& self) {
  const TensorImpl& impl = *self.impl();
  if (!impl.is_differentiable_view() || impl.view_creation() == ViewCreation::Default) return;
  const AutogradMeta* m = find_autograd_meta(impl);
  std::string msg;
  if (m && m->grad_fn)
    msg = "Output " + std::to_string(m->output_nr) + " of " + node_op_name(*m->grad_fn) +
          " is a view and is being modified inplace.";
  else if (impl.view_creation() == ViewCreation::InferenceMode)
    msg = "A view was created in inference mode and is being modified inplace in normal mode.";
  else msg = "A view was created in no_grad mode and is being modified inplace with grad mode enabled.";
  if (impl.view_creation() == ViewCreation::MultiOutput)
    msg +=
        " This view is the output of a function that returns multiple views. Such functions do not allow the "
        "output views to be modified inplace. You should replace the inplace operation by an out-of-place one.";
  else
    msg += std::string(
               " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
               "code by moving both the view and the inplace either both inside the ") +
           (impl.view_creation() == ViewCreation::InferenceMode ? "inference_mode" : "no_grad") +
           " block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
           "tracked).";
  IPT_FAIL(RuntimeError, msg);
}

void rebase_history(const Tensor& self, const std::shared_ptr<Node>& fn) {
  if (!self.impl()->is_differentiable_view()) {
    set_history(self, fn);
    return;
  }
  const Tensor base(self.impl()->view_base());
  auto copy_slices = std::make_shared<CopySlices>(base, self, fn);
  set_history(base, copy_slices);
  record_node_created(*copy_slices, base);
  // The view's recorded history is now stale (its version moved on): grad_fn(self) regenerates it.
}

void record_node_created(const Node& fn, const Tensor& output) {
  if (!trace::tracing_enabled()) return;
  trace::GraphNode d;
  d.node = fn.id;
  d.name = trace::intern(fn.name());
  d.seq = fn.sequence_nr == UINT64_MAX ? -1 : static_cast<int64_t>(fn.sequence_nr);
  for (const Edge& e : fn.next_edges) {
    d.next.push_back(e.valid() ? trace::NextEdge{true, e.fn->id, e.input_nr} : trace::NextEdge{});
    if (e.valid())
      if (auto* acc = dynamic_cast<const AccumulateGrad*>(e.fn.get()))
        if (auto v = acc->variable()) d.leaves.push_back({e.fn->id, v->id()});
  }
  d.output_tensor = output.impl()->id();
  trace::Recorder::current().instant(trace::Category::Autograd, "node created", std::move(d));
}

void check_no_requires_grad(const std::optional<Tensor>& t, const char* name, const char* fn) {
  IPT_CHECK(!(t && t->defined() && t->requires_grad() && grad_mode_enabled()), RuntimeError, "The function '", fn,
            "' is not differentiable with respect to argument '", name,
            "'. This input cannot have requires_grad True.");
}

void report_not_differentiable(const char* op) {
  IPT_FAIL(NotImplementedError, "the derivative for '", op, "' is not implemented.");
}

void report_out_requires_grad(const char* fn) {
  IPT_FAIL(RuntimeError, fn,
           "(): functions with out=... arguments don't support automatic differentiation, but one of the "
           "arguments requires grad.");
}

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
    if (any_requires_grad) check_inplace(*self);  // views made in no-grad mode ... first
    IPT_CHECK(!(self->requires_grad() && is_leaf(*self) && !self->impl()->is_view()), RuntimeError,
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

}  // namespace ipt::autograd
