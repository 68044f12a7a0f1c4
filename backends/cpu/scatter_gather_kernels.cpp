// CPU kernels for gather, scatter_ (a tensor or a value), scatter_add_, scatter_reduce_ and
// masked_select.
//
// Note [gather and scatter]
// Over every position p of index (row-major): gather reads self at p with p[dim] replaced by
// index[p]; scatter writes src[p] (or the value) there, and scatter_add adds it there. Indices
// are not wrapped: each must lie in [0, self.size(dim)), and all are checked before anything is
// written, so a bad index leaves self as it was. A 0-dim tensor counts as one of size [1].
// gather splits the positions over threads (and reports the first bad index its thread meets);
// scatter runs them in order (positions that share a target are in the same row along dim, met
// in the order PyTorch's kernel meets them, so scatter_add adds duplicates in the same order and
// the last write of scatter wins).
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "backends/cpu/cpu_loops.h"
#include "core/ops/shape_rules.h"
#include "core/ops/tensor_iterator.h"
#include "core/parallel/parallel.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

std::vector<int64_t> nonempty(const std::vector<int64_t>& v) { return v.empty() ? std::vector<int64_t>{1} : v; }

// The element offsets of t at every position of `sizes` (row-major), t's dim `zero` (if >= 0)
// left out; 0-dim tensors as [1].
std::vector<int64_t> offsets_at(const std::vector<int64_t>& sizes, const Tensor& t, int64_t zero = -1) {
  std::vector<int64_t> strides = t.dim() == 0 ? std::vector<int64_t>{1} : t.strides();
  if (zero >= 0) strides[static_cast<size_t>(zero)] = 0;
  return cpu::offsets_of(nonempty(sizes), strides);
}

// index's values in row-major order, each checked against [0, size).
std::vector<int64_t> checked_indices(const Tensor& index, int64_t dim, int64_t size) {
  std::vector<int64_t> v = cpu::long_values(index);
  for (int64_t x : v)
    IPT_CHECK(x >= 0 && x < size, RuntimeError, "index ", x, " is out of bounds for dimension ", dim, " with size ",
              size);
  return v;
}

int64_t size_at(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.sizes()[d]; }
int64_t stride_at(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.strides()[d]; }

// self[p with p[dim] = index[p]] gets f(target, k) for each position p of index, k its number.
template <typename T, typename F>
void scatter_each(const Tensor& self, int64_t d, const Tensor& index, F f) {
  if (index.numel() == 0) return;
  const std::vector<int64_t> idx = checked_indices(index, d, size_at(self, d));
  const std::vector<int64_t> base = offsets_at(index.sizes(), self, d);
  T* dst = self.data_ptr<T>();
  const int64_t stride = stride_at(self, d);
  for (size_t k = 0; k < idx.size(); ++k) {
    if ((k & 65535) == 0) check_interrupt();
    f(dst[base[k] + idx[k] * stride], k);
  }
}

}  // namespace

// gather as PyTorch runs it: self restrided to index's shape with dim's stride 0, so one
// TensorIterator walks (out, index, self) and splits them over threads; each element then steps
// index[p] rows along dim.
Tensor gather_cpu(const Tensor& self, int64_t dim, const Tensor& index, bool) {
  const int64_t d = gather_check(self, dim, index);
  Tensor out = make_empty(index.sizes(), self.dtype(), self.device());
  if (index.numel() == 0) return out;
  auto as_1d = [](const Tensor& t) { return t.dim() == 0 ? make_view(t, {1}, {1}, t.storage_offset()) : t; };
  const Tensor o = as_1d(out), idx = as_1d(index), x = as_1d(self);
  std::vector<int64_t> strides = x.strides();
  const int64_t size = x.sizes()[d], stride_d = strides[d];
  strides[d] = 0;
  const Tensor src_view = make_view(x, idx.sizes(), strides, x.storage_offset());
  const Tensor inputs[] = {idx, src_view};
  TensorIterator iter(o, inputs);
  visit_dtype(self.dtype(), [&]<typename T>() {
    visit_dtype(index.dtype(), [&]<typename I>() {
      if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool>) {
        iter.for_each([&](char** data, const int64_t* st, int64_t size0, int64_t size1) {
          for (int64_t r = 0; r < size1; ++r) {
            char* po = data[0] + r * st[3];
            const char* pi = data[1] + r * st[4];
            const char* ps = data[2] + r * st[5];
            auto check = [&](int64_t k) {
              IPT_CHECK(k >= 0 && k < size, RuntimeError, "index ", k, " is out of bounds for dimension ", d,
                        " with size ", size);
            };
            if (st[0] == sizeof(T) && st[1] == sizeof(I) && st[2] == 0) {
              // A contiguous row along dim: one compare and a branch that is never taken per
              // element (the first bad index stops the row, as PyTorch's check does).
              const I* ix = reinterpret_cast<const I*>(pi);
              const T* row = reinterpret_cast<const T*>(ps);
              T* dst = reinterpret_cast<T*>(po);
              const uint64_t bound = static_cast<uint64_t>(size);
              const int64_t step = stride_d;
              for (int64_t i = 0; i < size0; ++i) {
                const int64_t k = static_cast<int64_t>(ix[i]);
                if (static_cast<uint64_t>(k) >= bound) [[unlikely]]
                  check(k);
                dst[i] = row[k * step];
              }
              continue;
            }
            for (int64_t i = 0; i < size0; ++i) {
              const int64_t k = static_cast<int64_t>(*reinterpret_cast<const I*>(pi + i * st[1]));
              check(k);
              *reinterpret_cast<T*>(po + i * st[0]) = reinterpret_cast<const T*>(ps + i * st[2])[k * stride_d];
            }
          }
        });
      }
    });
  });
  return out;
}

namespace {
// scatter_ and scatter_add_ with a src tensor: op(target, src element) at each position of index.
template <typename Op>
Tensor scatter_from_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const Op& op) {
  const int64_t d = scatter_check(self, dim, index, &src);
  visit_dtype(self.dtype(), [&]<typename T>() {
    const std::vector<int64_t> from = index.numel() ? offsets_at(index.sizes(), src) : std::vector<int64_t>{};
    const T* s = src.data_ptr<T>();
    scatter_each<T>(self, d, index, [&](T& target, size_t k) { op(target, s[from[k]]); });
  });
  return self;
}
}  // namespace

Tensor scatter_src_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_from_src(self, dim, index, src, [](auto& target, auto v) { target = v; });
}

Tensor scatter_value_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = scatter_check(self, dim, index, nullptr);
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T v = value.to<T>();
    scatter_each<T>(self, d, index, [&](T& target, size_t) { target = v; });
  });
  return self;
}

Tensor scatter_add_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_from_src(self, dim, index, src, []<typename T>(T& target, T v) {
    if constexpr (std::is_same_v<T, bool>) target = target || v;
    else target = static_cast<T>(target + v);
  });
}

namespace {

// The identity each reduction starts a target from when include_self is false.
template <typename T>
T reduction_identity(ScatterReduction r) {
  switch (r) {
    case ScatterReduction::Prod: return T(1);
    case ScatterReduction::Amax:
      if constexpr (std::is_floating_point_v<T> || !std::numeric_limits<T>::is_integer)
        return static_cast<T>(-std::numeric_limits<float>::infinity());
      else return std::numeric_limits<T>::lowest();
    case ScatterReduction::Amin:
      if constexpr (std::is_floating_point_v<T> || !std::numeric_limits<T>::is_integer)
        return static_cast<T>(std::numeric_limits<float>::infinity());
      else return std::numeric_limits<T>::max();
    default: return T(0);
  }
}

template <typename T>
void reduce_into(T& target, T v, ScatterReduction r) {
  if constexpr (std::is_same_v<T, bool>) {
    if (r == ScatterReduction::Prod || r == ScatterReduction::Amin) target = target && v;
    else target = target || v;
  } else {
    switch (r) {
      case ScatterReduction::Sum:
      case ScatterReduction::Mean: target = static_cast<T>(target + v); break;
      case ScatterReduction::Prod: target = static_cast<T>(target * v); break;
      // A NaN from src wins (and a NaN target stays), as in 2.15's ReduceMaximum / ReduceMinimum.
      case ScatterReduction::Amax: target = v != v ? v : (target < v ? v : target); break;
      case ScatterReduction::Amin: target = v != v ? v : (v < target ? v : target); break;
    }
  }
}

}  // namespace

// scatter_reduce_ as 2.15's CPU kernel runs it: without include_self, the targets first take the
// reduction's identity; then each src element is reduced into its target in scatter's order;
// "mean" then divides each target by how many values it got (itself included), flooring for
// integers.
Tensor scatter_reduce_two_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                               std::string_view reduce, bool include_self) {
  const int64_t d = scatter_check(self, dim, index, &src);
  const ScatterReduction r = scatter_reduction(reduce);
  IPT_CHECK(r != ScatterReduction::Mean || self.dtype() != ScalarType::Bool, NotImplementedError,
            "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
  visit_dtype(self.dtype(), [&]<typename T>() {
    if (!include_self) {
      const T init = reduction_identity<T>(r);
      scatter_each<T>(self, d, index, [&](T& target, size_t) { target = init; });
    }
    const std::vector<int64_t> from = index.numel() ? offsets_at(index.sizes(), src) : std::vector<int64_t>{};
    const T* s = src.data_ptr<T>();
    scatter_each<T>(self, d, index, [&](T& target, size_t k) { reduce_into(target, s[from[k]], r); });
    if constexpr (!std::is_same_v<T, bool>) {
      if (r == ScatterReduction::Mean && index.numel() > 0) {
        // Counts in self's layout: 1 (self) or 0, plus one per value scattered there.
        const int64_t stride = stride_at(self, d);
        const std::vector<int64_t> idx = cpu::long_values(index);
        const std::vector<int64_t> base = offsets_at(index.sizes(), self, d);
        std::unordered_map<int64_t, int64_t> hits;
        for (size_t k = 0; k < idx.size(); ++k) ++hits[base[k] + idx[k] * stride];
        T* dst = self.data_ptr<T>();
        for (const auto& [offset, c] : hits) {
          const int64_t total = c + (include_self ? 1 : 0);
          T& v = dst[offset];
          if constexpr (std::numeric_limits<T>::is_integer) {
            const T q = static_cast<T>(v / static_cast<T>(total));
            v = (v % static_cast<T>(total) != 0 && (v < 0)) ? static_cast<T>(q - 1) : q;
          } else {
            v = static_cast<T>(v / static_cast<T>(total));
          }
        }
      }
    }
  });
  return self;
}

namespace {
// masked_select of a contiguous self and mask of one shape: the team counts each chunk's true
// elements (parallel_for's split), then each chunk copies its elements to its place. The copy
// writes every element and advances by the mask's 0 or 1 (no branch to mispredict on a random
// mask) up to the chunk's last true element, so it never writes past its own part of the output.
template <typename T>
Tensor masked_select_contiguous(const T* src, const bool* m, int64_t n, const Tensor& self) {
  const int threads = detail::threads_for(0, n, kGrainSize);
  const int64_t chunk = (n + threads - 1) / threads;
  std::vector<int64_t> offsets(static_cast<size_t>(threads) + 1, 0);
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    int64_t c = 0;
    for (int64_t i = b; i < e; ++i) c += m[i];
    offsets[static_cast<size_t>(b / chunk) + 1] = c;
  });
  for (size_t t = 1; t < offsets.size(); ++t) offsets[t] += offsets[t - 1];
  Tensor out = make_empty(std::vector<int64_t>{offsets.back()}, self.dtype(), self.device());
  T* dst = out.data_ptr<T>();
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    const size_t t = static_cast<size_t>(b / chunk);
    if (offsets[t] == offsets[t + 1]) return;
    int64_t last = e - 1;
    while (!m[last]) --last;
    T* d = dst + offsets[t];
    for (int64_t i = b; i <= last; ++i) {
      *d = src[i];
      d += m[i];
    }
  });
  return out;
}
}  // namespace

// The elements of self (broadcast with mask) where mask is true, in row-major order.
Tensor masked_select_cpu(const Tensor& self, const Tensor& mask) {
  const std::vector<int64_t> sizes = masked_select_shape(self, mask);
  const bool* m = mask.data_ptr<bool>();
  if (self.sizes() == mask.sizes() && self.is_contiguous() && mask.is_contiguous())
    return visit_dtype(self.dtype(), [&]<typename T>() {
      return masked_select_contiguous<T>(self.data_ptr<T>(), m, self.numel(), self);
    });
  std::array<std::vector<int64_t>, 2> st{cpu::broadcast_strides(self, sizes), cpu::broadcast_strides(mask, sizes)};
  int64_t count = 0;
  std::array<std::vector<int64_t>, 1> mst{st[1]};
  cpu::for_each_offsets<1>(sizes, mst, [&](int64_t k) { count += m[k] ? 1 : 0; });
  Tensor out = make_empty(std::vector<int64_t>{count}, self.dtype(), self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* src = self.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    int64_t n = 0;
    cpu::for_each_offsets<2>(sizes, st, [&](int64_t o, int64_t k) {
      if (m[k]) dst[n++] = src[o];
    });
  });
  return out;
}

}  // namespace ipt::native
