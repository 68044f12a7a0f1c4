#pragma once
// SavedVariable: a tensor a backward node keeps for later, stamped with the version counter's
// value at save time. Unpacking checks the version so an in-place change of a saved tensor is
// an error instead of a silently wrong gradient; releasing it (backward without retain_graph)
// makes a second backward an error too. Both messages are PyTorch's.
//
// Note [Saved tensors keep their history for double backward]
// An input is saved as the tensor itself, so a backward formula run with grad mode on
// (create_graph=True) differentiates through it. An output of the saving node cannot be kept
// with its history (the node would own itself), so it is saved as an alias without history
// plus a weak reference to the node; unpacking it in grad mode gives back an alias whose
// grad_fn is that node again, as PyTorch's SavedVariable does.

#include <memory>
#include <string>

#include "core/tensor/tensor.h"

namespace ipt::autograd {

class Node;

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
  Tensor data_;                         // the input itself, or an output's alias (same version counter)
  std::weak_ptr<TensorImpl> original_;  // to name its current grad_fn in the error
  std::weak_ptr<Node> output_grad_fn_;  // outputs: the node that produced it
  uint32_t output_nr_ = 0;
  uint64_t version_ = 0;
  std::string output_of_;  // outputs: ", which is output N of NODE," as at save time
  bool saved_ = false;
  bool released_ = false;
};

}  // namespace ipt::autograd
