#pragma once
// Strided element loops for CPU kernels.
//
// for_each_offsets(sizes, {strides_0, ..., strides_{N-1}}, f) calls f(off_0, ..., off_{N-1})
// once per logical index of `sizes` in row-major order, where off_k is the element offset
// of that index in operand k (its strides; 0 for broadcast dimensions). The innermost
// dimension is a plain loop so the compiler can vectorise contiguous cases.

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/tensor/index_math.h"
#include "core/tensor/tensor.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"

namespace ipt::cpu {

// Strides of `t` as seen from an output of shape `out_sizes` (broadcast dims get stride 0).
inline std::vector<int64_t> broadcast_strides(const Tensor& t, const std::vector<int64_t>& out_sizes) {
  std::vector<int64_t> st(out_sizes.size(), 0);
  int64_t shift = static_cast<int64_t>(out_sizes.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d) st[d + shift] = t.sizes()[d] == 1 ? 0 : t.strides()[d];
  return st;
}

// Elements a kernel works through between two checks for a stop request.
inline constexpr int64_t kInterruptChunk = int64_t(1) << 16;

template <size_t N, typename F>
void for_each_offsets(const std::vector<int64_t>& sizes, const std::array<std::vector<int64_t>, N>& strides, F&& f) {
  const int64_t nd = static_cast<int64_t>(sizes.size());
  for (int64_t s : sizes)
    if (s == 0) return;
  std::array<int64_t, N> base{};
  if (nd == 0) {
    std::apply(f, base);
    return;
  }
  const int64_t inner = sizes[nd - 1];
  std::array<int64_t, N> inner_stride;
  for (size_t k = 0; k < N; ++k) inner_stride[k] = strides[k][nd - 1];
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  while (true) {
    std::array<int64_t, N> off = base;
    // Rows of at most kInterruptChunk elements, with a stop check between them (Note
    // [Stopping a kernel]): an expanded input can make a loop of 10^12 steps.
    for (int64_t start = 0; start < inner; start += kInterruptChunk) {
      check_interrupt();
      const int64_t end = inner - start > kInterruptChunk ? start + kInterruptChunk : inner;
      for (int64_t i = start; i < end; ++i) {
        std::apply(f, off);
        for (size_t k = 0; k < N; ++k) off[k] += inner_stride[k];
      }
    }
    int64_t d = nd - 2;
    for (; d >= 0; --d) {
      for (size_t k = 0; k < N; ++k) base[k] += strides[k][d];
      if (++idx[d] < sizes[d]) break;
      for (size_t k = 0; k < N; ++k) base[k] -= strides[k][d] * sizes[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// The offsets of every index of `sizes` (row-major) under `strides`.
inline std::vector<int64_t> offsets_of(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(numel_of(sizes)));
  std::array<std::vector<int64_t>, 1> st{strides};
  for_each_offsets<1>(sizes, st, [&](int64_t o) { out.push_back(o); });
  return out;
}

// The order PyTorch's TensorIterator visits an output in: its dimensions sorted so the largest
// stride is outermost (memory order for a permuted tensor, row-major for a contiguous one). A
// serial kernel that draws random numbers must write them in this order to give PyTorch's values.
struct IterationOrder {
  std::vector<int64_t> sizes, strides;
  std::vector<size_t> dims;  // the tensor's dimension at each position, outermost first
};
inline IterationOrder memory_order(const Tensor& t) {
  IterationOrder r;
  r.dims = stride_order(t.sizes(), t.strides());
  for (size_t d : r.dims) {
    r.sizes.push_back(t.sizes()[d]);
    r.strides.push_back(t.strides()[d]);
  }
  return r;
}

// Reads element `off` of a tensor of dtype `t` as C++ type T.
template <typename T>
inline T load_as(const void* base, ScalarType t, int64_t off) {
  return visit_dtype(t, [&]<typename S>() -> T { return convert_element<T>(static_cast<const S*>(base)[off]); });
}

template <typename T>
inline void store_as(void* base, ScalarType t, int64_t off, T v) {
  visit_dtype(t, [&]<typename S>() { static_cast<S*>(base)[off] = convert_element<S>(v); });
}

// The values of an integer tensor as int64, row-major.
inline std::vector<int64_t> long_values(const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  if (t.dtype() == ScalarType::Long && t.is_contiguous()) {
    std::copy_n(t.data_ptr<int64_t>(), v.size(), v.begin());
    return v;
  }
  const void* p = t.impl()->raw_data();
  size_t k = 0;
  std::array<std::vector<int64_t>, 1> st{t.strides()};
  for_each_offsets<1>(t.sizes(), st, [&](int64_t i) { v[k++] = load_as<int64_t>(p, t.dtype(), i); });
  return v;
}

}  // namespace ipt::cpu
