#pragma once
// TensorGuard: what a compiled graph assumed about one tensor input (TorchDynamo's
// TENSOR_MATCH), and the check that decides whether a later call's tensor still matches.
//
// Note [What a tensor guard checks]
// A graph captured for one tensor is valid for another only if the dispatcher would send its
// operators down the same path and its shapes are the ones the graph was traced with: the
// dispatch key set as a call would compute it ((the tensor's keys | thread-local included) -
// thread-local excluded, Note [Thread-local included and excluded keys]), the dtype, the
// device, requires_grad, the rank, every static size and every static stride. A dimension
// marked dynamic (automatic dynamic shapes, after a size change forced one recompile) is left
// unchecked here; the shape guards on its symbol check it instead. The checks run in this
// order and the first mismatch is the reason, worded as PyTorch 2 words it ("size mismatch at
// index 0. expected 3, actual 4").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::compile {

// Why a tensor does not match, in PyTorch's words and in parts: "size mismatch at index 0.
// expected 3, actual 4" has expected "3" and actual "4".
struct TensorMismatch {
  std::string text;  // "" when the tensor matches
  std::string expected, actual;
};

class TensorGuard {
 public:
  // The guard `t` satisfies now, with the dimensions in `dynamic_dims` left free (their sizes
  // and the strides that depend on them).
  static TensorGuard of(const Tensor& t, const std::vector<int64_t>& dynamic_dims = {});

  // Empty when `t` matches; otherwise why not: "size mismatch at index 0. expected 3, actual 4".
  [[nodiscard]] std::string mismatch(const Tensor& t) const { return explain(t).text; }
  // The same, with what was expected and what `t` has.
  [[nodiscard]] TensorMismatch explain(const Tensor& t) const;
  // The same check without the words: what every call of a compiled frame runs.
  [[nodiscard]] bool matches(const Tensor& t) const;

  // TORCH_LOGS=guards' text: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect,
  // ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False,
  // size=[3, 3], stride=[3, 1])
  [[nodiscard]] std::string repr(std::string_view source) const;

  DispatchKeySet keys() const { return keys_; }
  const std::vector<std::optional<int64_t>>& sizes() const { return sizes_; }
  const std::vector<std::optional<int64_t>>& strides() const { return strides_; }

 private:
  DispatchKeySet keys_;
  ScalarType dtype_ = ScalarType::Float;
  Device device_;
  bool requires_grad_ = false;
  std::vector<std::optional<int64_t>> sizes_;    // nullopt: a dynamic dimension
  std::vector<std::optional<int64_t>> strides_;  // nullopt: depends on a dynamic size
};

// The key set a call on `t` would dispatch on, as the guard records it.
DispatchKeySet dispatch_keys_for_guard(const Tensor& t);

}  // namespace ipt::compile
