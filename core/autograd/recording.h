#pragma once
// What the generated Autograd kernels call to decide and record history.

#include <initializer_list>
#include <optional>
#include <vector>

#include "core/autograd/node.h"

namespace ipt::autograd {

// Called by every Autograd kernel before it redispatches: decides whether a backward graph
// would be recorded (grad mode on and some input requires grad) and records that decision.
// Raises PyTorch's error for an in-place operation on a leaf that requires grad.
// `node` is the backward node it will record (null when it records nothing). Both are string
// literals (the generated kernels pass them), recorded as they are.
void autograd_before_call(const char* op, std::initializer_list<const Tensor*> inputs, bool is_mutable,
                          const char* node);
void autograd_before_call(const char* op, const std::vector<const Tensor*>& inputs, bool is_mutable, const char* node);
// Grad mode is on and some input requires grad.
bool compute_requires_grad(std::initializer_list<const Tensor*> inputs);
bool compute_requires_grad(const std::vector<const Tensor*>& inputs);  // a Tensor[] input (cat)
// One edge per input (invalid where the input needs no gradient).
std::vector<Edge> collect_next_edges(std::initializer_list<const Tensor*> inputs);
std::vector<Edge> collect_next_edges(const std::vector<const Tensor*>& inputs);
// Before an in-place operation autograd records: PyTorch's errors for writing into a view made
// in no-grad mode, in inference mode or by an operator that returns several views.
void check_inplace(const Tensor& self);
// How autograd's error messages name the operation behind a node: its name without the
// "Backward<N>" suffix ("output 0 of Exp" for ExpBackward0, "of MyFunc" for a custom Function's
// MyFuncBackward); names without that suffix (torch::autograd::CopySlices) stay as they are.
std::string node_op_name(const Node& fn);
// After it: `fn` becomes self's history. When self is a view autograd follows, the history of
// its base is rebased instead (a CopySlices node wrapping fn, PyTorch's rebase_history), and the
// view's own grad_fn is regenerated from the base when it is next asked for (AsStridedBackward0).
void rebase_history(const Tensor& self, const std::shared_ptr<Node>& fn);
[[noreturn]] void report_not_differentiable(const char* op);
// An out= overload called with an input (or the out tensor) that requires grad, in grad mode:
// "abs(): functions with out=... arguments don't support automatic differentiation, ...".
[[noreturn]] void report_out_requires_grad(const char* fn);
// In grad mode, an argument the operator is not differentiable for must not require grad:
// "The function 'nll_loss_forward' is not differentiable with respect to argument 'weight'. ..."
void check_no_requires_grad(const std::optional<Tensor>& t, const char* name, const char* fn);
// Records that `fn` was created for output `output` (tracing on only): the graph view draws
// the graph as it is built, before any backward.
void record_node_created(const Node& fn, const Tensor& output);

}  // namespace ipt::autograd
