#pragma once
// The backward engine (see Note [How the engine runs a graph] in engine.cpp).

#include <optional>

#include "core/tensor/tensor.h"

namespace ipt::autograd {

// tensor.backward(gradient, retain_graph): runs the graph behind `root`, accumulating into
// the .grad of the leaves it reaches. Raises PyTorch's errors for a root that does not
// require grad, a non-scalar root without a gradient, and a graph already freed.
void backward(const Tensor& root, std::optional<Tensor> gradient, bool retain_graph);

}  // namespace ipt::autograd
