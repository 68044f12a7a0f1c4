#pragma once
// SavedVariable: a tensor a backward node keeps for later, stamped with the version counter's
// value at save time. Unpacking checks the version so an in-place change of a saved tensor is
// an error instead of a silently wrong gradient; releasing it (backward without retain_graph)
// makes a second backward an error too. Both messages are PyTorch's.

#include <memory>
#include <string>

#include "core/tensor/tensor.h"

namespace ipt::autograd {

class SavedVariable {
 public:
  SavedVariable() = default;
  // is_output: the tensor is an output of the node saving it (saved without its history, so
  // the node does not keep itself alive).
  SavedVariable(const Tensor& t, bool is_output);
  Tensor unpack() const;
  void reset();
  bool defined() const { return saved_; }

 private:
  Tensor data_;                          // an alias: same storage and version counter
  std::weak_ptr<TensorImpl> original_;   // to name its current grad_fn in the error
  uint64_t version_ = 0;
  std::string output_of_;  // outputs: ", which is output N of NODE," as at save time
  bool saved_ = false;
  bool released_ = false;
};

}  // namespace ipt::autograd
