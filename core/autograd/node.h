#pragma once
// Autograd graph nodes. A Node is one backward function: it receives the gradients of its
// forward op's outputs and returns the gradients of its inputs (a vector–Jacobian product),
// which flow along next_edges to the nodes that produced those inputs.
//
// Note [Edges and input numbers]
// next_edges[i] belongs to the i-th differentiable input of the forward op; an Edge names the
// node that produced that input and which of that node's outputs it was (input_nr). An input
// that does not require grad has an invalid edge (printed as None in next_functions). A leaf
// that requires grad is reached through its AccumulateGrad node, which writes into `.grad`.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::autograd {

class Node;

// A gradient hook (Tensor.register_hook): it sees the gradient arriving for one tensor and may
// return a replacement (an undefined tensor keeps the gradient as it is).
using GradHook = std::function<Tensor(const Tensor&)>;

struct Edge {
  std::shared_ptr<Node> fn;
  uint32_t input_nr = 0;
  bool valid() const { return fn != nullptr; }
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node();
  // Releases the graph behind this node iteratively (a chain of 100,000 nodes must not
  // recurse 100,000 destructors deep).
  virtual ~Node();
  virtual const char* name() const = 0;
  // grads[k]: gradient of forward output k (may be undefined = zero). Returns one gradient per
  // next edge (undefined where the input needs none).
  virtual std::vector<Tensor> apply(std::vector<Tensor>&& grads) = 0;
  // Frees saved tensors (after a backward without retain_graph).
  virtual void release_variables() {}
  virtual uint32_t num_outputs() const { return 1; }

  std::vector<Edge> next_edges;
  // Non-leaf tensors (output number) that asked to keep their gradient (retain_grad()).
  std::vector<std::pair<std::weak_ptr<TensorImpl>, uint32_t>> retained;
  // Hooks of non-leaf tensors this node produced: (output number, hook), run in order on the
  // gradient of that output before the node runs.
  std::vector<std::pair<uint32_t, GradHook>> pre_hooks;
  uint64_t sequence_nr;  // creation order: later nodes run first in the ready queue
  uint64_t id;           // process-unique, for traces
};

// The sink for a leaf tensor that requires grad: writes the first gradient into .grad and
// adds later ones.
class AccumulateGrad : public Node {
 public:
  explicit AccumulateGrad(const std::shared_ptr<TensorImpl>& leaf);
  const char* name() const override { return "torch::autograd::AccumulateGrad"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;
  std::shared_ptr<TensorImpl> variable() const { return variable_.lock(); }

 private:
  std::weak_ptr<TensorImpl> variable_;
};

// An in-place write into a view (PyTorch's CopySlices): the base's new history. Its backward
// takes the base's gradient, runs `fn` (the in-place operation's node) on the view's slice of
// it, and writes fn's gradient for self back into that slice; fn's gradients for its other
// inputs pass through as this node's other outputs.
class CopySlices : public Node {
 public:
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn);
  const char* name() const override { return "torch::autograd::CopySlices"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;
  void release_variables() override;
  const std::shared_ptr<Node>& wrapped() const { return fn_; }

 private:
  std::vector<int64_t> base_sizes_, base_strides_;
  int64_t base_offset_;
  std::vector<int64_t> view_sizes_, view_strides_;
  int64_t view_offset_;
  std::shared_ptr<Node> fn_;
  bool released_ = false;
};

// Per-tensor autograd state (held by TensorImpl, created on demand).
struct AutogradMeta final : AutogradMetaInterface {
  bool has_grad_fn() const override { return grad_fn != nullptr; }

  std::shared_ptr<Node> grad_fn;  // null for leaves
  uint32_t output_nr = 0;
  Tensor grad;  // accumulated gradient
  std::weak_ptr<Node> grad_accumulator;
  bool retains_grad = false;
  // A leaf's hooks, run on each gradient before it is accumulated into .grad. (A non-leaf's
  // hooks live on its grad_fn, so they outlive the tensor object as in PyTorch.)
  std::vector<GradHook> leaf_hooks;
  uint64_t history_version = 0;  // the version counter when grad_fn was set (stale views)
};

AutogradMeta& autograd_meta(const Tensor& t);  // creates it if missing
AutogradMeta& autograd_meta(TensorImpl& impl);
// The tensor's metadata, or null when it has none yet. (AutogradMeta is the only kind a tensor
// is given, by autograd_meta above.)
inline AutogradMeta* find_autograd_meta(const TensorImpl& impl) {
  return static_cast<AutogradMeta*>(impl.autograd_meta());
}
const std::shared_ptr<Node>& grad_fn(const Tensor& t);
bool is_leaf(const Tensor& t);
// The edge a gradient for `t` must travel along: its grad_fn, or its AccumulateGrad if it is
// a leaf requiring grad, or invalid.
Edge gradient_edge(const Tensor& t);
// Registers a gradient hook on `t` (which must require grad): on its AccumulateGrad if it is
// a leaf, on its grad_fn otherwise.
void add_grad_hook(const Tensor& t, GradHook hook);
// Makes `fn` (output `output_nr`) the history of `t`.
void set_history(const Tensor& t, const std::shared_ptr<Node>& fn, uint32_t output_nr = 0);

}  // namespace ipt::autograd
