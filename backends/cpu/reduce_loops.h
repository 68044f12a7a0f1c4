#pragma once
// The reduction engine's outer loops, as PyTorch 2.15's TensorIterator runs a reduction
// (TensorIteratorBase::parallel_reduce): the loop dims of reduction_dims.h walked in 2-D steps,
// each step handed to the operation's 2-D loop, `loop(in, out, a, b)` (a the faster dim). A
// reduction to one value of at least a grain of elements on more than one thread is PyTorch's
// two_pass_reduction: each thread reduces its range of the loop's index space into its own slot
// (starting from the identity), and the slots are then combined by `finish(out, slots, n)`.
// Every other reduction walks the whole index space on this thread; a 2-D loop may split its
// outputs over the threads (PyTorch's parallel_dim_reduction splits outputs too, so no output's
// order of operations depends on the thread count).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "backends/cpu/reduction_dims.h"
#include "core/parallel/parallel.h"

namespace ipt::cpu {

// The range [begin, end) of the loop's index space (dims[0] fastest) in 2-D steps, as
// TensorIterator's serial_for_each hands them to a loop: a step is a run of dims[0] and, when it
// starts at a row's beginning, as many whole rows of dims[1] as fit.
template <typename T, typename O, typename Loop>
void for_each_2d_step(const T* in, O* out, const std::vector<LoopDim>& dims, int64_t begin, int64_t end,
                      const Loop& loop) {
  const size_t nd = dims.size();
  std::vector<int64_t> index(nd, 0);
  for (size_t d = 0, rest = static_cast<size_t>(begin); d < nd; ++d) {
    index[d] = static_cast<int64_t>(rest % static_cast<size_t>(dims[d].size));
    rest /= static_cast<size_t>(dims[d].size);
  }
  for (int64_t at = begin; at < end;) {
    const int64_t size0 = std::min(dims[0].size - index[0], end - at);
    int64_t size1 = 1;
    if (index[0] == 0 && size0 == dims[0].size && nd > 1) size1 = std::min(dims[1].size - index[1], (end - at) / size0);
    int64_t in_off = 0, out_off = 0;
    for (size_t d = 0; d < nd; ++d) {
      in_off += index[d] * dims[d].in_stride;
      out_off += index[d] * dims[d].out_stride;
    }
    loop(in + in_off, out + out_off, LoopDim{size0, dims[0].in_stride, dims[0].out_stride},
         LoopDim{size1, nd > 1 ? dims[1].in_stride : 0, nd > 1 ? dims[1].out_stride : 0});
    at += size0 * size1;
    index[0] += size0;
    if (size1 > 1 || index[0] == dims[0].size) {
      index[0] = 0;
      int64_t carry = size1;
      for (size_t d = 1; d < nd && carry; ++d) {
        index[d] += carry;
        carry = index[d] / dims[d].size;
        index[d] %= dims[d].size;
      }
    }
  }
}

// Reduces `in` (laid out by `dims`) into `out` (the contiguous keepdim output, already holding
// the identity): the two-pass reduction when there is one output and enough work for the
// threads, otherwise one walk.
template <typename T, typename O, typename Loop, typename Finish>
void reduce_loops(const T* in, O* out, const std::vector<LoopDim>& dims, O identity, const Loop& loop,
                  const Finish& finish) {
  bool one_output = true;
  int64_t n = 1;
  for (const LoopDim& d : dims) {
    one_output = one_output && d.out_stride == 0;
    n *= d.size;
  }
  const int threads = get_num_threads();
  if (one_output && n >= kGrainSize && threads > 1 && !in_parallel_region()) {
    std::unique_ptr<O[]> slots(new O[static_cast<size_t>(threads)]);  // not vector<bool>: O may be bool
    std::fill(slots.get(), slots.get() + threads, identity);
    parallel_for(0, n, kGrainSize,
                 [&](int64_t b, int64_t e) { for_each_2d_step(in, slots.get() + get_thread_num(), dims, b, e, loop); });
    finish(*out, slots.get(), static_cast<int64_t>(threads));
    return;
  }
  for_each_2d_step(in, out, dims, 0, n, loop);
}

// The grain for splitting a 2-D step's outputs over the threads: a grain's worth of input each.
inline int64_t output_grain(int64_t reduced_per_output) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(reduced_per_output, 1));
}

}  // namespace ipt::cpu
