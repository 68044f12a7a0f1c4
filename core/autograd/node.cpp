#include "core/autograd/node.h"

#include "core/autograd/formulas.h"

#include <atomic>

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/trace/recorder.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt {

namespace autograd {

static std::atomic<uint64_t> g_next_sequence_nr{0};
static std::atomic<uint64_t> g_next_node_id{1};

Node::Node()
    : sequence_nr(g_next_sequence_nr.fetch_add(1, std::memory_order_relaxed)),
      id(g_next_node_id.fetch_add(1, std::memory_order_relaxed)) {}

Node::~Node() {
  static thread_local bool draining = false;
  static thread_local std::vector<std::shared_ptr<Node>> pending;
  for (Edge& e : next_edges)
    if (e.fn && e.fn.use_count() == 1) pending.push_back(std::move(e.fn));
  next_edges.clear();
  if (draining) return;  // an outer destructor is already draining the list
  draining = true;
  while (!pending.empty()) {
    std::shared_ptr<Node> n = std::move(pending.back());
    pending.pop_back();
    n.reset();  // its destructor only queues its own children
  }
  draining = false;
}

AccumulateGrad::AccumulateGrad(const std::shared_ptr<TensorImpl>& leaf) : variable_(leaf) {
  sequence_nr = UINT64_MAX;  // as in PyTorch: gradients reach leaves as early as possible
}

std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>&& grads) {
  auto impl = variable_.lock();
  if (!impl || grads.empty() || !grads[0].defined()) return {};
  Tensor leaf(impl);
  AutogradMeta& meta = autograd_meta(leaf);
  Tensor g = grads[0];
  if (g.dtype() != impl->dtype()) {  // gradients have the dtype of the tensor they belong to
    Tensor cast = ops::empty_memory_format(g.sizes(), impl->dtype(), std::nullopt, g.device());
    g = ops::copy_(cast, g);
  }
  const bool first = !meta.grad.defined();
  // The gradient layout contract: a first .grad has its parameter's strides when the parameter
  // is dense and non-overlapping, and is contiguous otherwise (PyTorch's clone_obey_contract).
  auto obey_contract = [&](const Tensor& grad) {
    if (is_non_overlapping_and_dense(leaf.sizes(), leaf.strides()))
      return ops::copy_(ops::empty_strided(leaf.sizes(), leaf.strides(), grad.dtype(), std::nullopt, grad.device()),
                        grad);
    return ops::clone(grad, MemoryFormat::Contiguous);
  };
  if (grad_mode_enabled()) {
    // create_graph: .grad keeps the gradient's own graph (a copy, then out-of-place sums, as
    // PyTorch's AccumulateGrad does in grad mode).
    meta.grad = first ? obey_contract(g) : ops::add_Tensor(meta.grad, g);
  } else if (first) {
    // The first gradient becomes .grad (a fresh tensor, so later in-place adds are safe).
    meta.grad = obey_contract(g);  // never shared with another buffer or leaf
  } else {
    ops::add__Tensor(meta.grad, g);
  }
  if (trace::tracing_enabled()) {
    trace::EngineStep d;
    d.node = id;
    d.name = name();
    d.tensor = impl->id();
    d.grad_tensor = meta.grad.impl()->id();
    d.action = first ? trace::EngineAction::GradWritten : trace::EngineAction::GradAdded;
    trace::Recorder::current().instant(trace::Category::Autograd, first ? "grad written" : "grad added", std::move(d));
  }
  return {};
}

namespace {
// The gradient of a view with respect to its base, from the two geometries over one storage
// (PyTorch's as_strided_backward): scatter-add the view's gradient into a zero buffer in
// storage coordinates (views such as expand overlap themselves), then read the base's elements.
class AsStridedBackward : public Node {
 public:
  AsStridedBackward(const Tensor& base, const Tensor& view)
      : base_sizes_(base.sizes()),
        base_strides_(base.strides()),
        base_offset_(base.storage_offset()),
        sizes_(view.sizes()),
        strides_(view.strides()),
        offset_(view.storage_offset()) {}
  const char* name() const override { return "AsStridedBackward0"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override {
    const Tensor& g = grads[0];
    if (!g.defined()) return {Tensor()};
    return {as_strided_backward(g, base_sizes_, base_strides_, base_offset_, sizes_, strides_, offset_)};
  }

 private:
  std::vector<int64_t> base_sizes_, base_strides_;
  int64_t base_offset_;
  std::vector<int64_t> sizes_, strides_;
  int64_t offset_;
};
}  // namespace

AutogradMeta& autograd_meta(TensorImpl& impl) {
  if (AutogradMeta* m = find_autograd_meta(impl)) return *m;
  auto meta = std::make_shared<AutogradMeta>();
  AutogradMeta& m = *meta;
  impl.set_autograd_meta(std::move(meta));
  return m;
}
AutogradMeta& autograd_meta(const Tensor& t) { return autograd_meta(*t.impl()); }

// A view autograd follows whose values changed since its history was recorded (an in-place
// write into it, its base or another view of the base): as PyTorch does, its history becomes an
// AsStridedBackward0 from the base's current history.
static void refresh_view_history(const Tensor& t) {
  TensorImpl& impl = *t.impl();
  if (!impl.is_differentiable_view() || impl.view_creation() != ViewCreation::Default) return;
  const AutogradMeta* m = find_autograd_meta(impl);
  const uint64_t recorded = m && m->grad_fn ? m->history_version : impl.view_created_version();
  if (impl.version() == recorded) return;
  const Tensor base(impl.view_base());
  if (!base.requires_grad()) return;
  auto fn = std::make_shared<AsStridedBackward>(base, t);
  fn->next_edges = {gradient_edge(base)};
  set_history(t, fn, 0);
}

const std::shared_ptr<Node>& grad_fn(const Tensor& t) {
  static const std::shared_ptr<Node> none;
  refresh_view_history(t);
  const AutogradMeta* m = find_autograd_meta(*t.impl());
  return m ? m->grad_fn : none;
}

bool is_leaf(const Tensor& t) { return grad_fn(t) == nullptr; }

Edge gradient_edge(const Tensor& t) {
  if (!t.defined()) return {};
  refresh_view_history(t);
  AutogradMeta* m = find_autograd_meta(*t.impl());
  if (m && m->grad_fn) return {m->grad_fn, m->output_nr};
  if (!t.impl()->requires_grad()) return {};
  AutogradMeta& meta = autograd_meta(t);
  std::shared_ptr<Node> acc = meta.grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t.impl_ptr());
    meta.grad_accumulator = acc;
  }
  return {acc, 0};
}

void add_grad_hook(const Tensor& t, GradHook hook) {
  IPT_CHECK(t.requires_grad(), RuntimeError, "cannot register a hook on a tensor that doesn't require gradient");
  AutogradMeta& m = autograd_meta(t);
  if (m.grad_fn) m.grad_fn->pre_hooks.emplace_back(m.output_nr, std::move(hook));
  else m.leaf_hooks.push_back(std::move(hook));
}

void set_history(const Tensor& t, const std::shared_ptr<Node>& fn, uint32_t output_nr) {
  if (!t.defined()) return;  // an output the call did not compute (convolution_backward's masked ones)
  AutogradMeta& m = autograd_meta(t);
  m.grad_fn = fn;
  m.output_nr = output_nr;
  m.history_version = t.impl()->version();
}

}  // namespace autograd
}  // namespace ipt
