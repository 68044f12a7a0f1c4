#pragma once
// TensorIterator: how a pointwise kernel walks its operands (PyTorch's ATen/TensorIterator).
//
// Note [The iteration plan]
// The operands (outputs first, then inputs) share the output's shape; an input of fewer or size-1
// dimensions is broadcast with stride 0. The iterator then
//   1. orders the dimensions so the output's smallest stride is innermost (an input's breaks a tie),
//      which walks a transposed or channels-last output in memory order;
//   2. coalesces neighbouring dimensions that every operand steps through as one (stride of the
//      outer = size * stride of the inner), so a contiguous tensor of any rank is one dimension;
//   3. hands a kernel 2-D loops: `loop(data, strides, size0, size1)`, with the operands' base
//      pointers, their inner strides then their outer strides (in bytes), the inner size and the
//      number of rows;
//   4. splits the elements over the thread team (parallel_for with PyTorch's grain, 32768) when
//      there are more than one grain of them, each thread walking its own range of the flattened
//      index space.
// The plan (coalesced dimensions, layout, threads) is what the trace shows for the kernel.
//
// Every operand must already have the computation's dtype: the CPU kernels convert an input of
// another dtype, and compute into a temporary for an output of another dtype, before and after
// (as PyTorch's CPU TensorIterator does with its common dtype).

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt {

class TensorIterator {
 public:
  // At most this many operands (an output and three inputs) and dimensions. The iterator keeps
  // its plan in fixed arrays: building one allocates nothing, which matters for small tensors.
  static constexpr int kMaxOperands = 4;
  static constexpr int kMaxDims = 64;

  // (context, data, strides: ntensors inner then ntensors outer, size0, size1)
  using Loop2d = void (*)(const void* ctx, char** data, const int64_t* strides, int64_t size0, int64_t size1);

  // Outputs first, then inputs; every operand broadcasts to the first output's sizes. The
  // iterator does not keep the tensors: the caller keeps them alive while it runs.
  TensorIterator(std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs);
  TensorIterator(const Tensor& output, std::span<const Tensor> inputs);
  TensorIterator(const Tensor& output, std::span<const Tensor* const> inputs);

  int ntensors() const { return nt_; }
  int ndim() const { return nd_; }
  int64_t numel() const { return numel_; }
  std::span<const int64_t> shape() const { return {shape_, static_cast<size_t>(nd_)}; }
  // Operand k's strides in bytes, in iteration order (innermost first).
  std::span<const int64_t> strides(int k) const { return {strides_[k], static_cast<size_t>(nd_)}; }
  char* data(int k) const { return data_[k]; }
  // True when every operand is contiguous in iteration order (one dimension, element-sized strides).
  bool is_contiguous() const;
  // Operand k is one value for every element (stride 0 in every dimension).
  bool is_scalar(int k) const;
  // Makes input operand k (a one-element tensor) read its value from `value` instead, which the
  // caller keeps alive while the iterator runs: a Python number converted to the computation's
  // dtype without a tensor.
  void set_scalar_operand(int k, void* value);
  // Runs loop over every element, split over the threads when numel() > grain_size.
  template <typename F>
  void for_each(const F& loop, int64_t grain_size = kDefaultGrain) const {
    run([](const void* ctx, char** data, const int64_t* strides, int64_t size0,
           int64_t size1) { (*static_cast<const F*>(ctx))(data, strides, size0, size1); },
        &loop, grain_size);
  }
  // Runs loop over the elements [begin, end) of the flattened iteration space, on this thread.
  template <typename F>
  void serial_for_each(const F& loop, int64_t begin, int64_t end) const {
    serial([](const void* ctx, char** data, const int64_t* strides, int64_t size0,
              int64_t size1) { (*static_cast<const F*>(ctx))(data, strides, size0, size1); },
           &loop, begin, end);
  }

  // The threads for_each uses for this iterator.
  int threads(int64_t grain_size = kDefaultGrain) const;
  // "2 dims [1024, 1024] strided, 2 threads": the plan, as the trace and views show it.
  std::string plan(int64_t grain_size = kDefaultGrain) const;
  // The coalesced shape, outermost first ("[1024, 1024]"), and the element ranges for_each gives
  // each thread ("[0, 524288) [524288, 1048576)").
  std::string shape_text() const;
  std::string chunks_text(int64_t grain_size = kDefaultGrain) const;

  static constexpr int64_t kDefaultGrain = 32768;

 private:
  void init(const Tensor* const* operands, int n, int noutputs);
  void run(Loop2d loop, const void* ctx, int64_t grain_size) const;
  void serial(Loop2d loop, const void* ctx, int64_t begin, int64_t end) const;
  void reorder();
  void coalesce();

  int nt_ = 0, nd_ = 0, noutputs_ = 0;
  int64_t numel_ = 1;
  int64_t shape_[kMaxDims];                  // innermost first
  int64_t strides_[kMaxOperands][kMaxDims];  // bytes, innermost first
  char* data_[kMaxOperands];
  int64_t item_[kMaxOperands];  // element sizes
  int64_t operand_numel_[kMaxOperands];
};

}  // namespace ipt
