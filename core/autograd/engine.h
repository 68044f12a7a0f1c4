#pragma once
// The backward engine (see Note [How the engine runs a graph] in engine.cpp).

#include <optional>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::autograd {

// tensor.backward(gradient, retain_graph): runs the graph behind `root`, accumulating into
// the .grad of the leaves it reaches. Raises PyTorch's errors for a root that does not
// require grad, a non-scalar root without a gradient, and a graph already freed.
// With create_graph the backward functions run with grad mode on, so the gradients have a
// graph of their own and can be differentiated again (double backward).
void backward(const Tensor& root, std::optional<Tensor> gradient, bool retain_graph, bool create_graph = false);

// torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph, allow_unused): the
// gradients of `outputs` with respect to `inputs`, returned instead of accumulated into
// .grad (undefined where an input was not reached and allow_unused is set).
std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<std::optional<Tensor>>& grad_outputs,
                         const std::vector<Tensor>& inputs, bool retain_graph, bool allow_unused,
                         bool create_graph = false);

}  // namespace ipt::autograd
