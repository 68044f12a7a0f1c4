#include "core/autograd/recording.h"

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/util/error.h"

namespace ipt::autograd {

bool compute_requires_grad(std::initializer_list<const Tensor*> inputs) {
  if (!grad_mode_enabled()) return false;
  for (const Tensor* t : inputs)
    if (t->defined() && t->requires_grad()) return true;
  return false;
}

std::vector<Edge> collect_next_edges(std::initializer_list<const Tensor*> inputs) {
  std::vector<Edge> edges;
  edges.reserve(inputs.size());
  for (const Tensor* t : inputs) edges.push_back(gradient_edge(*t));
  return edges;
}

void check_inplace(const Tensor& self) {
  IPT_CHECK(!self.impl()->is_view(), NotImplementedError,
            "in-place operations on a view of a tensor that takes part in autograd are not supported by Inside "
            "PyTorch yet (PyTorch rebases the base's history with CopySlices)");
}

void report_not_differentiable(const char* op) {
  IPT_FAIL(NotImplementedError, "the derivative for '", op, "' is not implemented.");
}

}  // namespace ipt::autograd
