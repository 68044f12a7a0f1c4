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
//    one at a time in scalar code, whose exp is the C library's, not SLEEF's.
// exp and log are SLEEF's (backends/cpu/vml.h) wherever PyTorch uses its vectorized functions.
// bfloat16 is computed in float and rounded at the end, except that log_softmax along the last
// dim keeps its sum and log(sum) in bfloat16 (each rounded), and softmax along another dim
// takes 16 positions per vector and, in its scalar tail, rounds each exp to bfloat16 before
// dividing it by the (unrounded) sum. float16 takes bfloat16's path with its own roundings
// (PyTorch 2.15 runs both reduced float types through one kernel). (bfloat16 log_softmax
// along another dim may still differ by one ulp in rare elements.)
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/cascade_sum.h"
#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using cpu::cascade::kLanes;  // floats or doubles in one AVX2 vector

// vec::maximum: NaN wins (a NaN b falls to b).
template <typename T>
T nan_max(T a, T b) {
  return (std::isnan(a) || a > b) ? a : b;
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

// RoundSum: the sum and its log are rounded to bfloat16 (log_softmax of bfloat16 keeps them in
// bfloat16 buffers).
template <typename T, bool Log, bool RoundSum = false, typename R = BFloat16>
void softmax_lastdim(const T* x, T* y, int64_t rows, int64_t len) {
  std::vector<T> e(static_cast<size_t>(len));
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * len;
    T* yr = y + r * len;
    T mx = xr[0];
    for (int64_t k = 1; k < len; ++k) mx = nan_max(mx, xr[k]);
    for (int64_t k = 0; k < len; ++k) e[static_cast<size_t>(k)] = cpu::vml::exp(static_cast<T>(xr[k] - mx));
    T sum = lane_sum(e.data(), len);
    if constexpr (Log) {
      if constexpr (RoundSum) sum = static_cast<T>(R(sum));
      T ls = cpu::vml::log(sum);
      if constexpr (RoundSum) ls = static_cast<T>(R(ls));
      for (int64_t k = 0; k < len; ++k) yr[k] = static_cast<T>(static_cast<T>(xr[k] - mx) - ls);
    } else {
      const T inv = T(1) / sum;
      for (int64_t k = 0; k < len; ++k) yr[k] = e[static_cast<size_t>(k)] * inv;
    }
  }
}

// One inner position along the dim; `vec` says whether PyTorch computes it in a vector lane
// (SLEEF's exp) or in its scalar tail (the C library's exp, std::max). RoundTail: the scalar
// tail of bfloat16 softmax stores each exp rounded to bfloat16 (and divides that), while its
// sum adds the unrounded values.
template <typename T, bool Log, bool RoundTail = false, typename R = BFloat16>
void softmax_column(const T* x, T* y, int64_t len, int64_t stride, bool vec) {
  T mx = x[0];
  for (int64_t k = 1; k < len; ++k) mx = vec ? nan_max(mx, x[k * stride]) : std::max(mx, x[k * stride]);
  T sum = 0;
  for (int64_t k = 0; k < len; ++k) {
    const T d = static_cast<T>(x[k * stride] - mx);
    const T e = vec ? cpu::vml::exp(d) : static_cast<T>(std::exp(d));
    if constexpr (!Log) y[k * stride] = RoundTail && !vec ? static_cast<T>(R(e)) : e;
    sum += e;
  }
  if constexpr (Log) {
    const T ls = cpu::vml::log(sum);  // SLEEF for every position: vec::map covers the tail too
    for (int64_t k = 0; k < len; ++k) y[k * stride] = static_cast<T>(static_cast<T>(x[k * stride] - mx) - ls);
  } else {
    for (int64_t k = 0; k < len; ++k) y[k * stride] = y[k * stride] / sum;
  }
}

// W: the positions one vector holds (16 for bfloat16 softmax, two float registers' worth).
template <typename T, bool Log, bool RoundTail = false, typename R = BFloat16>
void softmax_inner(const T* x, T* y, int64_t outer, int64_t len, int64_t inner, int64_t W = kLanes<T>) {
  // softmax walks the flattened (outer, inner) positions: a full vector needs W positions left
  // in the row; log_softmax works in chunks of a row, whose last size % W positions are scalar.
  // With one thread and chunks this large (>= 128 KiB / len) both leave the same tail.
  const int64_t chunk = std::max<int64_t>(128 * 1024 / len / static_cast<int64_t>(sizeof(T)), W) / W * W;
  for (int64_t o = 0; o < outer; ++o) {
    if ((o & 63) == 0) check_interrupt();
    for (int64_t b = 0; b < inner; b += Log ? chunk : inner) {
      const int64_t size = Log ? std::min(chunk, inner - b) : inner;
      const int64_t vec_end = size - size % W;
      for (int64_t i = 0; i < size; ++i) {
        const int64_t off = o * len * inner + b + i;
        softmax_column<T, Log, RoundTail, R>(x + off, y + off, len, inner, i < vec_end);
      }
    }
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
