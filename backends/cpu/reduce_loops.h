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
#include <limits>
#include <memory>
#include <vector>

#include "backends/cpu/reduction_dims.h"
#include "backends/cpu/vml.h"
#include "core/parallel/parallel.h"
#include "core/util/interrupt.h"

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
  if (n == 0) return;  // nothing to reduce: out keeps the identity
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

// out[j] = op(out[j], x[i * row_stride + j]) for each row i in order, then the next row: the
// order of fold_2d's column loop, over contiguous columns and outputs.
template <typename T, typename O, typename Op>
[[gnu::target("avx2")]] void fold_columns_avx2(const T* x, O* out, int64_t rows, int64_t row_stride, int64_t cols,
                                               const Op& op) {
  for (int64_t i = 0; i < rows; ++i) {
    if ((i & 0xfff) == 0) check_interrupt();
    const T* r = x + i * row_stride;
    for (int64_t j = 0; j < cols; ++j) out[j] = op(out[j], r[j]);
  }
}

// The 2-D loop of a reduction by a binary operation (PyTorch's binary_kernel_reduce_vec): along
// a contiguous reduced dim a, each output's row goes to `row(x, n, acc)`, which folds x[0..n)
// into acc (vectorized, in the operation's own order); any other step folds each output's
// elements in order with `op(acc, x)`, the reduced dim outermost so that the kept dim's outputs
// advance side by side. Outputs are split over the threads; an output's order never depends on
// the split.
template <typename T, typename O, typename Row, typename Op>
void fold_2d(const T* in, O* out, LoopDim a, LoopDim b, const Row& row, const Op& op) {
  if (a.out_stride == 0 && a.in_stride == 1) {
    const int64_t grain = b.out_stride == 0 ? std::numeric_limits<int64_t>::max() : output_grain(a.size);
    parallel_for(0, b.size, grain, [&](int64_t jb, int64_t je) {
      for (int64_t j = jb; j < je; ++j) {
        check_interrupt();
        O& o = out[j * b.out_stride];
        o = row(in + j * b.in_stride, a.size, o);
      }
    });
    return;
  }
  if (a.out_stride != 0 && b.out_stride == 0) std::swap(a, b);  // a is now the reduced (or no) dim
  if (a.out_stride == 0 && b.out_stride == 1 && b.in_stride == 1 && has_avx2()) {
    // Contiguous columns (x.amax(0) of a contiguous matrix): each row folded into the outputs
    // side by side, compiled for AVX2 so that the fold runs a vector of columns at a time.
    parallel_for(0, b.size, output_grain(a.size), [&](int64_t jb, int64_t je) {
      fold_columns_avx2(in + jb, out + jb, a.size, a.in_stride, je - jb, op);
    });
    return;
  }
  auto columns = [&](int64_t jb, int64_t je) {
    for (int64_t i = 0; i < a.size; ++i) {
      if ((i & 0xfff) == 0) check_interrupt();
      const T* x = in + i * a.in_stride;
      O* dst = out + i * a.out_stride;
      for (int64_t j = jb; j < je; ++j) dst[j * b.out_stride] = op(dst[j * b.out_stride], x[j * b.in_stride]);
    }
  };
  if (a.out_stride == 0 && b.out_stride != 0) parallel_for(0, b.size, output_grain(a.size), columns);
  else columns(0, b.size);
}

// A whole reduction by a binary operation: `out` (the contiguous keepdim output) is filled with
// the identity, then reduce_loops runs fold_2d, and the threads' slots are folded in order.
template <typename T, typename O, typename Row, typename Op>
void fold_reduce(const T* in, O* out, int64_t n_out, const std::vector<LoopDim>& dims, O identity, const Row& row,
                 const Op& op) {
  std::fill(out, out + n_out, identity);
  reduce_loops(
      in, out, dims, identity, [&](const T* x, O* o, LoopDim a, LoopDim b) { fold_2d(x, o, a, b, row, op); },
      [&](O& dst, const O* slots, int64_t n) {
        for (int64_t i = 0; i < n; ++i) dst = op(dst, slots[i]);
      });
}

}  // namespace ipt::cpu
