// CPU softmax and log_softmax, computing what PyTorch's AVX2 kernels compute, to the bit.
//
// Note [Softmax's order of operations]
// The input is made contiguous and read as (outer, len, inner) around the softmax dim.
//  - Along the last dim (inner == 1), each row: its max; e = exp(x - max); the sum of e over
//    the row in W lanes (W = 8 floats or 4 doubles, one AVX2 register): lane l adds elements
//    l, l+W, l+2W, ..., the last partial group adding into its first lanes; for float the lanes
//    then meet in a tree (lane i + lane i^4, then i^2, then i^1, as the register's halves are
//    swapped and added), for double they add left to right. Rows shorter than W add left to
//    right. softmax = e * (1 / sum); log_softmax = (x - max) - log(sum).
//  - Along another dim, W adjacent inner positions are done at once: per lane, the max over the
//    dim, then e and the sum added in dim order; softmax = e / sum (a division), log_softmax =
//    (x - max) - log(sum). Inner positions left over at the end of a row (fewer than W) are done
//    one at a time in scalar code, whose exp is the C library's, not SLEEF's. softmax splits the
//    flattened (outer, inner) positions over threads and a vector also needs W positions left
//    in its thread's range, so which positions are scalar depends on the thread count, as in
//    PyTorch; log_softmax vectorizes chunks of a row (the same on any thread count).
// exp and log are SLEEF's (backends/cpu/vml.h) wherever PyTorch uses its vectorized functions.
// bfloat16 is computed in float and rounded at the end, except that log_softmax along the last
// dim keeps its sum and log(sum) in bfloat16 (each rounded), and softmax along another dim
// takes 16 positions per vector and, in its scalar tail, rounds each exp to bfloat16 before
// dividing it by the (unrounded) sum. float16 takes bfloat16's path with its own roundings
// (PyTorch 2.15 runs both reduced float types through one kernel). (bfloat16 log_softmax
// along another dim may still differ by one ulp in rare elements.)
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "backends/cpu/cascade_sum.h"
#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "core/parallel/parallel.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using cpu::cascade::kLanes;  // floats or doubles in one AVX2 vector

// NaN wins (a NaN b falls to b): the max of the last-dim rows and of log_softmax's lanes.
template <typename T>
T nan_max(T a, T b) {
  return (std::isnan(a) || a > b) ? a : b;
}
// vec::maximum, the max of softmax's lanes along another dim: max(a, b), or all ones (a NaN)
// where either is NaN.
template <typename T>
T vec_maximum(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) {
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    return std::bit_cast<T>(~Bits(0));
  }
  return a > b ? a : b;
}

// The lane-wise sum of a row, then the lanes' tree (Note [Softmax's order of operations]).
template <typename T>
T lane_sum(const T* v, int64_t n) {
  constexpr int64_t W = kLanes<T>;
  if (n < W) {
    T acc = v[0];
    for (int64_t i = 1; i < n; ++i) acc += v[i];
    return acc;
  }
  T lanes[W];
  for (int64_t l = 0; l < W; ++l) lanes[l] = v[l];
  int64_t d = W;
  for (; d < n - n % W; d += W)
    for (int64_t l = 0; l < W; ++l) lanes[l] += v[d + l];
  for (int64_t l = 0; d + l < n; ++l) lanes[l] += v[d + l];
  if constexpr (std::is_same_v<T, double>) {  // PyTorch has the shuffle tree for float only
    T acc = lanes[0];
    for (int64_t l = 1; l < W; ++l) acc += lanes[l];
    return acc;
  }
  for (int64_t half = W / 2; half >= 1; half /= 2) {
    T next[W];
    for (int64_t l = 0; l < W; ++l) next[l] = lanes[l] + lanes[l ^ half];
    for (int64_t l = 0; l < W; ++l) lanes[l] = next[l];
  }
  return lanes[0];
}

// The row's max, W lanes side by side (any order gives the same max; NaN wins).
template <typename T>
T row_max(const T* x, int64_t n) {
  constexpr int64_t W = kLanes<T>;
  T mx = x[0];
  int64_t k = 0;
  if (n >= W) {
    T lanes[W];
    for (int64_t l = 0; l < W; ++l) lanes[l] = x[l];
    for (k = W; k + W <= n; k += W)
      for (int64_t l = 0; l < W; ++l) lanes[l] = nan_max(lanes[l], x[k + l]);
    mx = lanes[0];
    for (int64_t l = 1; l < W; ++l) mx = nan_max(mx, lanes[l]);
  }
  for (; k < n; ++k) mx = nan_max(mx, x[k]);
  return mx;
}

// e = exp(x - mx) over the row, and its lane-wise sum.
template <typename T>
T exp_lane_sum(const T* x, T mx, T* e, int64_t n) {
  for (int64_t k = 0; k < n; ++k) e[k] = static_cast<T>(x[k] - mx);
  cpu::vml::exp_row(e, e, n);
  return lane_sum(e, n);
}

// RoundSum: the sum and its log are rounded to bfloat16 (log_softmax of bfloat16 keeps them in
// bfloat16 buffers). Rows are independent, so they are split over threads.
template <typename T, bool Log, bool RoundSum = false, typename R = BFloat16>
void softmax_lastdim(const T* x, T* y, int64_t rows, int64_t len) {
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / len), [&](int64_t begin, int64_t end) {
    std::vector<T> e(static_cast<size_t>(len));
    T* ep = e.data();
    for (int64_t r = begin; r < end; ++r) {
      if ((r & 63) == 0) check_interrupt();
      const T* xr = x + r * len;
      T* yr = y + r * len;
      T mx, sum;                                    // T is float or double (reduced floats come as float copies)
      if (len >= kLanes<T> && cpu::has_avx512()) {  // exp 16 at a time, then the same lane sums
        mx = cpu::rows_avx2::row_max(xr, len);
        sum = exp_lane_sum(xr, mx, ep, len);
      } else if (len >= kLanes<T> && cpu::has_avx2()) {
        mx = cpu::rows_avx2::row_max(xr, len);
        sum = cpu::rows_avx2::exp_sum(xr, mx, Log ? nullptr : ep, len);
      } else {
        mx = row_max(xr, len);
        sum = exp_lane_sum(xr, mx, ep, len);
      }
      if constexpr (Log) {
        if constexpr (RoundSum) sum = static_cast<T>(R(sum));
        T ls = cpu::vml::log(sum);
        if constexpr (RoundSum) ls = static_cast<T>(R(ls));
        for (int64_t k = 0; k < len; ++k) yr[k] = static_cast<T>(static_cast<T>(xr[k] - mx) - ls);
      } else {
        const T inv = T(1) / sum;
        for (int64_t k = 0; k < len; ++k) yr[k] = ep[k] * inv;
      }
    }
  });
}

// One inner position along the dim in PyTorch's scalar tail (the C library's exp, std::max; the
// vector lanes are softmax_lanes below). RoundTail: the scalar tail of bfloat16 softmax stores
// each exp rounded to bfloat16 (and divides that), while its sum adds the unrounded values.
template <typename T, bool Log, bool RoundTail = false, typename R = BFloat16>
void softmax_column(const T* x, T* y, int64_t len, int64_t stride) {
  T mx = x[0];
  for (int64_t k = 1; k < len; ++k) mx = std::max(mx, x[k * stride]);
  T sum = 0;
  for (int64_t k = 0; k < len; ++k) {
    const T e = static_cast<T>(std::exp(static_cast<T>(x[k * stride] - mx)));
    if constexpr (!Log) y[k * stride] = RoundTail ? static_cast<T>(R(e)) : e;
    sum += e;
  }
  if constexpr (Log) {
    const T ls = cpu::vml::log(sum);  // SLEEF for every position: vec::map covers the tail too
    for (int64_t k = 0; k < len; ++k) y[k * stride] = static_cast<T>(static_cast<T>(x[k * stride] - mx) - ls);
  } else {
    for (int64_t k = 0; k < len; ++k) y[k * stride] = y[k * stride] / sum;
  }
}

// W adjacent inner positions at once, each as PyTorch computes a vector lane (SLEEF's exp, NaN
// wins the max): the positions are contiguous at every step along the dim, so exp runs on them as
// one vector run.
template <typename T, bool Log>
void softmax_lanes(const T* x, T* y, int64_t len, int64_t stride, int64_t W) {
  constexpr int64_t kMaxW = 16;
  alignas(32) T mx[kMaxW], sum[kMaxW];
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (cpu::has_avx2() && W % kLanes<T> == 0) {  // the same operations a vector at a time
      cpu::rows_avx2::dim_exp_sum(x, y, len, stride, W / kLanes<T>, mx, sum, !Log, !Log);
      if constexpr (!Log) return;
      for (int64_t l = 0; l < W; ++l) sum[l] = cpu::vml::log(sum[l]);
      for (int64_t k = 0; k < len; ++k)
        for (int64_t l = 0; l < W; ++l)
          y[k * stride + l] = static_cast<T>(static_cast<T>(x[k * stride + l] - mx[l]) - sum[l]);
      return;
    }
  }
  for (int64_t l = 0; l < W; ++l) mx[l] = x[l], sum[l] = 0;
  for (int64_t k = 1; k < len; ++k)
    for (int64_t l = 0; l < W; ++l)
      mx[l] = Log ? nan_max(mx[l], x[k * stride + l]) : vec_maximum(mx[l], x[k * stride + l]);
  for (int64_t k = 0; k < len; ++k) {
    const T* xk = x + k * stride;
    T* yk = y + k * stride;
    for (int64_t l = 0; l < W; ++l) yk[l] = static_cast<T>(xk[l] - mx[l]);
    cpu::vml::exp_row(yk, yk, W);
    for (int64_t l = 0; l < W; ++l) sum[l] += yk[l];
  }
  if constexpr (Log) {
    for (int64_t l = 0; l < W; ++l) sum[l] = cpu::vml::log(sum[l]);
    for (int64_t k = 0; k < len; ++k)
      for (int64_t l = 0; l < W; ++l)
        y[k * stride + l] = static_cast<T>(static_cast<T>(x[k * stride + l] - mx[l]) - sum[l]);
  } else {
    for (int64_t k = 0; k < len; ++k)
      for (int64_t l = 0; l < W; ++l) y[k * stride + l] = y[k * stride + l] / sum[l];
  }
}

// W: the positions one vector holds (16 for bfloat16 softmax, two float registers' worth).
template <typename T, bool Log, bool RoundTail = false, typename R = BFloat16>
void softmax_inner(const T* x, T* y, int64_t outer, int64_t len, int64_t inner, int64_t W = kLanes<T>) {
  auto lanes = [&](int64_t o, int64_t i) {
    softmax_lanes<T, Log>(x + o * len * inner + i, y + o * len * inner + i, len, inner, W);
  };
  auto column = [&](int64_t o, int64_t i) {
    softmax_column<T, Log, RoundTail, R>(x + o * len * inner + i, y + o * len * inner + i, len, inner);
  };
  if constexpr (Log) {
    // Chunks of a row (at least 128 KiB / len apart), each W positions at a time and its last
    // size % W positions scalar; the chunks are split over threads, so the tail is the same on any.
    const int64_t chunk = std::max<int64_t>(128 * 1024 / len / static_cast<int64_t>(sizeof(T)), W) / W * W;
    const int64_t chunks = (inner + chunk - 1) / chunk;
    parallel_for(0, outer * chunks, kGrainSize / (16 * len * chunk), [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        check_interrupt();
        const int64_t o = c / chunks, b = c % chunks * chunk;
        const int64_t size = std::min(chunk, inner - b), vec_end = size - size % W;
        for (int64_t i = 0; i < vec_end; i += W) lanes(o, b + i);
        for (int64_t i = vec_end; i < size; ++i) column(o, b + i);
      }
    });
  } else {
    // The flattened (outer, inner) positions, split over threads with a grain of one: a full
    // vector needs W positions left in both its row and its thread's range, so where the scalar
    // positions fall depends on the thread count, as in PyTorch.
    parallel_for(0, outer * inner, len > kGrainSize ? 0 : 1, [&](int64_t begin, int64_t end) {
      for (int64_t idx = begin; idx < end;) {
        if ((idx & 1023) == 0) check_interrupt();
        const int64_t o = idx / inner, i = idx % inner;
        if (i + W <= inner && idx + W <= end) {
          lanes(o, i);
          idx += W;
        } else {
          column(o, i);
          ++idx;
        }
      }
    });
  }
}

// Bf16: computing float copies of bfloat16 values, as PyTorch's bfloat16 kernels do (see the
// note), with their roundings along the way.
template <typename T, bool Log, bool Bf16 = false, typename R = BFloat16>
void softmax_any(const T* x, T* y, int64_t outer, int64_t len, int64_t inner) {
  if (inner == 1) softmax_lastdim<T, Log, Bf16 && Log, R>(x, y, outer, len);
  else if constexpr (Bf16 && !Log) softmax_inner<T, Log, true, R>(x, y, outer, len, inner, 16);
  else softmax_inner<T, Log>(x, y, outer, len, inner);
}

template <bool Log>
Tensor softmax_impl(const Tensor& self_in, int64_t dim) {
  const int64_t d = softmax_dim(self_in, dim, Log);
  Tensor self = ops::contiguous(self_in);
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  if (self.numel() == 0) return out;
  int64_t outer = 1, len = 1, inner = 1;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i < d) outer *= self.sizes()[i];
    else if (i == d) len = self.sizes()[i];
    else inner *= self.sizes()[i];
  }
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      softmax_any<T, Log>(self.data_ptr<T>(), out.data_ptr<T>(), outer, len, inner);
    } else if constexpr (is_reduced_float_v<T>) {
      const int64_t n = self.numel();
      std::vector<float> xf(static_cast<size_t>(n)), yf(static_cast<size_t>(n));
      const T* x = self.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) xf[static_cast<size_t>(i)] = static_cast<float>(x[i]);
      softmax_any<float, Log, true, T>(xf.data(), yf.data(), outer, len, inner);
      T* y = out.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) y[i] = T(yf[static_cast<size_t>(i)]);
    }
  });
  return out;
}

}  // namespace

Tensor softmax_cpu(const Tensor& self, int64_t dim, bool) { return softmax_impl<false>(self, dim); }
Tensor log_softmax_cpu(const Tensor& self, int64_t dim, bool) { return softmax_impl<true>(self, dim); }

}  // namespace ipt::native
