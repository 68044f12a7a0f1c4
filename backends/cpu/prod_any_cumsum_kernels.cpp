// CPU reductions on the reduction engine (reduce_loops.h) besides sum: prod, all / any (over
// everything or along a dim); and cumsum / cumprod along a dim.
#include <algorithm>
#include <cstring>
#include <limits>

#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/reduce_loops.h"
#include "backends/cpu/reduction_dims.h"
#include "backends/cpu/reduction_rows.h"
#include "backends/cpu/vml.h"
#include "backends/cpu/wrapping.h"
#include "core/ops/shape_rules.h"
#include "core/parallel/parallel.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
// Note [prod's order of operations]
// PyTorch 2.15 multiplies in the output dtype (float in float, float16 and bfloat16 rounded to
// their own type after each product, integers and bools in int64, wrapping), with its
// vectorized reduction (binary_kernel_reduce_vec; AVX2 vectors of 32 bytes, W lanes):
// - along a contiguous reduced dim, a row of 4W or more holds four W-lane accumulators over
//   blocks of 4W (lane k of block i times lane k of the accumulators), which then meet as
//   (a0 * a1) * (a2 * a3), their lanes multiplied left to right, and the output times that; the
//   rest of the row follows one element at a time;
// - any other layout multiplies each output's elements in order.
// A product to one value of at least a grain of elements on several threads multiplies each
// thread's range so into its own slot (from 1), and then the output by the slots in order.
template <typename T>
[[gnu::always_inline]] inline T times(T a, T b) {
  if constexpr (is_reduced_float_v<T>) return static_cast<T>(static_cast<float>(a) * static_cast<float>(b));
  else if constexpr (std::is_integral_v<T>) return cpu::wrapping_mul(a, b);
  else return a * b;
}

template <typename T>
[[gnu::always_inline]] inline T row_prod_body(const T* x, int64_t n, T acc) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T)), B = 4 * W;
  const int64_t blocks = n / B;
  if (blocks > 0) {
    T v[W];
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      // Four vector accumulators in registers (GCC's vector types; an array of lanes stayed in
      // memory, a store and load per product).
      typedef T Vec __attribute__((vector_size(32)));
      Vec a0, a1, a2, a3, b0, b1, b2, b3;  // loaded with memcpy (unaligned), not returned: see -Wpsabi
      std::memcpy(&a0, x, sizeof a0);
      std::memcpy(&a1, x + W, sizeof a1);
      std::memcpy(&a2, x + 2 * W, sizeof a2);
      std::memcpy(&a3, x + 3 * W, sizeof a3);
      for (int64_t i0 = 1; i0 < blocks; i0 += 4096) {
        check_interrupt();
        for (int64_t i = i0, i1 = std::min(blocks, i0 + 4096); i < i1; ++i) {
          const T* p = x + i * B;
          std::memcpy(&b0, p, sizeof b0);
          std::memcpy(&b1, p + W, sizeof b1);
          std::memcpy(&b2, p + 2 * W, sizeof b2);
          std::memcpy(&b3, p + 3 * W, sizeof b3);
          a0 *= b0, a1 *= b1, a2 *= b2, a3 *= b3;
        }
      }
      const Vec m = (a0 * a1) * (a2 * a3);
      for (int64_t l = 0; l < W; ++l) v[l] = m[l];
    } else {
      T lanes[B];
      for (int64_t k = 0; k < B; ++k) lanes[k] = x[k];
      for (int64_t i = 1; i < blocks; ++i) {
        if ((i & 0xfff) == 0) check_interrupt();
        for (int64_t k = 0; k < B; ++k) lanes[k] = times(lanes[k], x[i * B + k]);
      }
      for (int64_t l = 0; l < W; ++l)
        v[l] = times(times(lanes[l], lanes[W + l]), times(lanes[2 * W + l], lanes[3 * W + l]));
    }
    T b = v[0];
    for (int64_t l = 1; l < W; ++l) b = times(b, v[l]);
    acc = times(acc, b);
  }
  for (int64_t i = blocks * B; i < n; ++i) acc = times(acc, x[i]);
  return acc;
}

// The same products compiled for AVX2 (whole vectors: a product that passes through subnormals
// costs one microcode assist per vector instruction, as in PyTorch's kernel, not per pair of SSE
// halves).
template <typename T>
[[gnu::target("avx2")]] T row_prod_avx2(const T* x, int64_t n, T acc) {
  return row_prod_body(x, n, acc);
}

template <typename T>
T row_prod(const T* x, int64_t n, T acc) {
  if (n >= 128 && cpu::has_avx2()) return row_prod_avx2(x, n, acc);
  return row_prod_body(x, n, acc);
}

Tensor prod_impl(const Tensor& self, const std::vector<bool>& reduced, const std::vector<int64_t>& out_sizes,
                 ScalarType out_dtype) {
  Tensor out = make_empty(out_sizes, out_dtype, self.device());
  Tensor in = self;
  if (self.dtype() != out_dtype) in = copy_cpu_(make_empty(self.sizes(), out_dtype, self.device()), self, false);
  const std::vector<cpu::LoopDim> dims = cpu::reduction_loop_dims(in.sizes(), in.strides(), reduced);
  visit_dtype(out_dtype, [&]<typename T>() {
    cpu::fold_reduce(in.data_ptr<T>(), out.data_ptr<T>(), out.numel(), dims, T(1), row_prod<T>,
                     [](T a, T b) { return times(a, b); });
  });
  return out;
}
}  // namespace

Tensor prod_cpu(const Tensor& self, std::optional<ScalarType> dtype) {
  return prod_impl(self, std::vector<bool>(static_cast<size_t>(self.dim()), true), {}, prod_dtype(self, dtype));
}

Tensor prod_dim_cpu(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  const OneDimReduction r = one_dim_reduction(self, dim, keepdim);
  return prod_impl(self, r.reduced, r.out_sizes, prod_dtype(self, dtype));
}

namespace {
// all / any: whether every / some element is nonzero (NaN counts as nonzero), a bool (uint8 for
// uint8 input, as PyTorch). The answer does not depend on the order.
template <bool All, typename T>
bool decides(T x) {
  return All ? x == T(0) : x != T(0);  // an element that settles the answer
}

template <bool All>
Tensor all_any(const Tensor& self, const std::vector<bool>& reduced, const std::vector<int64_t>& out_sizes) {
  const ScalarType out_dtype = all_any_dtype(self);
  Tensor out = make_empty(out_sizes, out_dtype, self.device());
  const std::vector<cpu::LoopDim> dims = cpu::reduction_loop_dims(self.sizes(), self.strides(), reduced);
  visit_dtype(out_dtype, [&]<typename O>() {
    if constexpr (std::is_same_v<O, bool> || std::is_same_v<O, uint8_t>) {
      visit_dtype(self.dtype(), [&]<typename T>() {
        // A row is a run of comparisons or-ed together (it vectorizes); an element or a thread's
        // slot that settles the answer sets it.
        auto row = [](const T* x, int64_t n, O acc) {
          bool hit = false;
          for (int64_t i = 0; i < n; ++i) hit |= decides<All>(x[i]);
          return hit ? O(!All) : acc;
        };
        auto op = [](O acc, auto x) { return decides<All>(x) ? O(!All) : acc; };
        cpu::fold_reduce(self.data_ptr<T>(), out.data_ptr<O>(), out.numel(), dims, O(All), row, op);
      });
    }
  });
  return out;
}

template <bool All>
Tensor all_any_dim(const Tensor& self, int64_t dim, bool keepdim) {
  const OneDimReduction r = one_dim_reduction(self, dim, keepdim);
  return all_any<All>(self, r.reduced, r.out_sizes);
}
}  // namespace

Tensor all_cpu(const Tensor& self) {
  return all_any<true>(self, std::vector<bool>(static_cast<size_t>(self.dim()), true), {});
}
Tensor any_cpu(const Tensor& self) {
  return all_any<false>(self, std::vector<bool>(static_cast<size_t>(self.dim()), true), {});
}
Tensor all_dim_cpu(const Tensor& self, int64_t dim, bool keepdim) { return all_any_dim<true>(self, dim, keepdim); }
Tensor any_dim_cpu(const Tensor& self, int64_t dim, bool keepdim) { return all_any_dim<false>(self, dim, keepdim); }

namespace {
// cumsum's accumulator: PyTorch's CPU acc_type (double for float and double, float for float16
// and bfloat16, int64 for the integers the output holds).
template <typename T>
using cum_acc_t =
    std::conditional_t<is_reduced_float_v<T>, float, std::conditional_t<std::is_floating_point_v<T>, double, int64_t>>;

// Running sums of `len` elements `step` apart from each of positions [b, e) of an
// (outer, inner) grid, as PyTorch's cpu_cum_base_kernel computes each (in the output dtype,
// accumulated in cum_acc_t).
template <typename T, typename A = cum_acc_t<T>>
[[gnu::always_inline]] inline A cum_add(A a, T x) {
  if constexpr (std::is_integral_v<A>) return cpu::wrapping_add(a, static_cast<A>(x));
  else return a + static_cast<A>(x);
}
template <typename T, typename A = cum_acc_t<T>>
[[gnu::always_inline]] inline A cum_mul(A a, T x) {
  if constexpr (std::is_integral_v<A>) return cpu::wrapping_mul(a, static_cast<A>(x));
  else return a * static_cast<A>(x);
}

// Running sums (Mul: products) of `len` elements `inner` apart from each of positions [b, e) of
// an (outer, inner) grid, as PyTorch's cpu_cum_base_kernel computes each (in the output dtype,
// accumulated in cum_acc_t from 0, or 1 for products).
template <bool Mul, typename T>
void cum_positions(const T* in, T* out, int64_t len, int64_t inner, int64_t b, int64_t e) {
  using A = cum_acc_t<T>;
  const A init(Mul ? 1 : 0);
  auto step = [](A a, T x) { return Mul ? cum_mul<T>(a, x) : cum_add<T>(a, x); };
  if (inner == 1) {  // each position is a contiguous row
    for (int64_t p = b; p < e; ++p) {
      const T* x = in + p * len;
      T* y = out + p * len;
      A a = init;
      for (int64_t k0 = 0; k0 < len; k0 += cpu::kInterruptChunk) {
        check_interrupt();
        for (int64_t k = k0, k1 = std::min(len, k0 + cpu::kInterruptChunk); k < k1; ++k) {
          a = step(a, x[k]);
          y[k] = static_cast<T>(a);
        }
      }
    }
    return;
  }
  std::vector<A> acc;
  for (int64_t p = b; p < e;) {  // positions side by side along the inner dims
    const int64_t o = p / inner, i0 = p % inner, i1 = std::min(inner, i0 + (e - p));
    const int64_t base = o * len * inner;
    acc.assign(static_cast<size_t>(i1 - i0), init);
    A* a = acc.data() - i0;
    for (int64_t k = 0; k < len; ++k) {
      if ((k & 0xfff) == 0) check_interrupt();
      const T* x = in + base + k * inner;
      T* y = out + base + k * inner;
      for (int64_t i = i0; i < i1; ++i) {
        a[i] = step(a[i], x[i]);
        y[i] = static_cast<T>(a[i]);
      }
    }
    p += i1 - i0;
  }
}

// Running sums or products along dim in the output dtype (the input converted to it first, as
// PyTorch does), the positions split over the threads.
template <bool Mul>
Tensor cumulative(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const int64_t d = wrap_dim(dim, self.dim());
  const ScalarType dt = cumsum_dtype(self, dtype);
  Tensor out = make_empty(self.sizes(), dt, self.device());
  if (self.numel() == 0) return out;
  Tensor in = self;
  if (self.dtype() != dt || !self.is_contiguous())
    in = copy_cpu_(make_empty(self.sizes(), dt, self.device()), self, false);
  DimRows r = self.dim() == 0 ? DimRows{in} : dim_rows(in, d);
  visit_dtype(dt, [&]<typename T>() {
    const T* x = r.data.data_ptr<T>();
    T* y = out.data_ptr<T>();
    parallel_for(0, r.outer * r.inner, cpu::output_grain(r.len),
                 [&](int64_t b, int64_t e) { cum_positions<Mul>(x, y, r.len, r.inner, b, e); });
  });
  return out;
}
}  // namespace

Tensor cumsum_cpu(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return cumulative<false>(self, dim, dtype);
}
Tensor cumprod_cpu(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return cumulative<true>(self, dim, dtype);
}

}  // namespace ipt::native

namespace ipt::native {
// any over several dims (None or []: all): any.dim over each, the last first.
Tensor any_dims_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
  std::vector<int64_t> dims;
  if (dim && !dim->empty()) {
    for (int64_t d : *dim) dims.push_back(wrap_dim(d, std::max<int64_t>(self.dim(), 1)));
  } else {
    for (int64_t d = 0; d < self.dim(); ++d) dims.push_back(d);
  }
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  if (self.dim() == 0 || dims.empty()) return any_dim_cpu(self, 0, keepdim);
  Tensor r = self;
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) r = any_dim_cpu(r, *it, keepdim);
  return r;
}
}  // namespace ipt::native
