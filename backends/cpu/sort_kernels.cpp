// CPU sort, topk and kthvalue, as PyTorch 2.15's kernels order them (aten/src/ATen/native/cpu/
// SortingKernel.cpp, native/Sorting.cpp): each slice along `dim` becomes (value, index) pairs
// ordered by value only, NaN above every number, by the same standard-library algorithm
// (std::sort, or std::stable_sort when stable; topk's std::partial_sort when k * 64 <= the
// slice, else std::nth_element and std::sort of the first k - 1; kthvalue's quickselect with a
// median-of-three pivot), so ties keep PyTorch's order of indices.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/ops/sort_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

template <typename T>
using Key = std::conditional_t<is_reduced_float_v<T>, float, T>;

template <typename K>
bool is_nan_key(K v) {
  if constexpr (std::is_floating_point_v<K>) return std::isnan(v);
  else return false;
}
// a before b ascending (NaN last) / descending (NaN first).
template <typename K>
bool less_nan_last(K a, K b) {
  return (!is_nan_key(a) && is_nan_key(b)) || (a < b);
}
template <typename K>
bool greater_nan_first(K a, K b) {
  return (is_nan_key(a) && !is_nan_key(b)) || (a > b);
}

// Runs f(slice values in, slice index base) for every slice along dim: `in` strided pointers.
struct Slices {
  int64_t count = 1, size = 1;
  int64_t in_stride = 1;
  std::vector<int64_t> outer_sizes, outer_strides;  // of self, without dim
  int64_t offset(int64_t s, IntArrayRef strides_without_dim) const {
    int64_t off = 0;
    for (size_t d = outer_sizes.size(); d-- > 0;) {
      off += (s % outer_sizes[d]) * strides_without_dim[d];
      s /= outer_sizes[d];
    }
    return off;
  }
};
Slices slices_of(const Tensor& t, int64_t dim) {
  Slices s;
  s.size = t.dim() ? t.sizes()[static_cast<size_t>(dim)] : 1;
  s.in_stride = t.dim() ? t.strides()[static_cast<size_t>(dim)] : 1;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (d != dim) {
      s.outer_sizes.push_back(t.sizes()[static_cast<size_t>(d)]);
      s.outer_strides.push_back(t.strides()[static_cast<size_t>(d)]);
      s.count *= t.sizes()[static_cast<size_t>(d)];
    }
  return s;
}
std::vector<int64_t> strides_without(const Tensor& t, int64_t dim) {
  std::vector<int64_t> v;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (d != dim) v.push_back(t.strides()[static_cast<size_t>(d)]);
  return v;
}

// For each slice: fills `q` with its (value, index) pairs, runs order(q), writes the first
// `keep` pairs to values / indices along dim.
template <typename T, typename Order>
void for_each_slice(const Tensor& self, int64_t dim, const Tensor& values, const Tensor& indices, int64_t keep,
                    const Order& order) {
  const Slices s = slices_of(self, dim);
  const std::vector<int64_t> vs = strides_without(values, dim), is = strides_without(indices, dim);
  const int64_t v_stride = values.dim() ? values.strides()[static_cast<size_t>(dim)] : 1;
  const int64_t i_stride = indices.dim() ? indices.strides()[static_cast<size_t>(dim)] : 1;
  const T* in = self.data_ptr<T>();
  T* vout = values.data_ptr<T>();
  int64_t* iout = indices.data_ptr<int64_t>();
  parallel_for(0, s.count, std::max<int64_t>(1, 32768 / std::max<int64_t>(s.size, 1)), [&](int64_t b, int64_t e) {
    std::vector<std::pair<Key<T>, int64_t>> q(static_cast<size_t>(s.size));
    for (int64_t k = b; k < e; ++k) {
      check_interrupt();
      const T* src = in + s.offset(k, s.outer_strides);
      for (int64_t j = 0; j < s.size; ++j) q[static_cast<size_t>(j)] = {static_cast<Key<T>>(src[j * s.in_stride]), j};
      order(q);
      T* vdst = vout + s.offset(k, vs);
      int64_t* idst = iout + s.offset(k, is);
      for (int64_t j = 0; j < keep; ++j) {
        vdst[j * v_stride] = static_cast<T>(q[static_cast<size_t>(j)].first);
        idst[j * i_stride] = q[static_cast<size_t>(j)].second;
      }
    }
  });
}

// Torch's quickselect (SortingUtils.h's quick_select_template): puts the k-th smallest (NaN
// largest) at k, moving values and indices together.
template <typename P>
void quick_select(std::vector<P>& a, int64_t k) {
  auto gt = [](const P& x, const P& y) { return greater_nan_first(x.first, y.first); };
  auto sw = [&](int64_t i, int64_t j) { std::swap(a[static_cast<size_t>(i)], a[static_cast<size_t>(j)]); };
  auto at = [&](int64_t i) -> const P& { return a[static_cast<size_t>(i)]; };
  int64_t lo = 0, hi = static_cast<int64_t>(a.size()) - 1;
  while (true) {
    if (hi <= lo) return;
    if (hi == lo + 1) {
      if (gt(at(lo), at(hi))) sw(lo, hi);
      return;
    }
    const int64_t mid = lo + (hi - lo) / 2;  // median of three as the pivot, moved to lo
    sw(mid, lo + 1);
    if (gt(at(lo + 1), at(hi))) sw(lo + 1, hi);
    if (gt(at(lo), at(hi))) sw(lo, hi);
    if (gt(at(lo + 1), at(lo))) sw(lo + 1, lo);
    int64_t i = lo + 1, j = hi;
    const P pivot = at(lo);
    while (true) {
      do ++i;
      while (gt(pivot, at(i)));
      do --j;
      while (gt(at(j), pivot));
      if (j < i) break;
      sw(i, j);
    }
    sw(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
}

}  // namespace

std::tuple<Tensor, Tensor> sort_stable_cpu(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                           bool descending) {
  const int64_t d = self.dim() ? wrap_sort_dim(self, dim) : 0;
  Tensor values = make_empty_like_layout(self.sizes(), self.dtype(), self.device(), self);
  Tensor indices = make_empty_like_layout(self.sizes(), ScalarType::Long, self.device(), self);
  if (self.numel() == 0) return {values, indices};
  const bool is_stable = stable.value_or(false);
  visit_dtype(self.dtype(), [&]<typename T>() {
    using K = Key<T>;
    using P = std::pair<K, int64_t>;
    for_each_slice<T>(self, d, values, indices, slices_of(self, d).size, [&](std::vector<P>& q) {
      auto asc = [](const P& a, const P& b) { return less_nan_last(a.first, b.first); };
      auto desc = [](const P& a, const P& b) { return greater_nan_first(a.first, b.first); };
      if (is_stable) {
        if (descending) std::stable_sort(q.begin(), q.end(), desc);
        else std::stable_sort(q.begin(), q.end(), asc);
      } else {
        if (descending) std::sort(q.begin(), q.end(), desc);
        else std::sort(q.begin(), q.end(), asc);
      }
    });
  });
  return {values, indices};
}

std::tuple<Tensor, Tensor> topk_cpu(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "topk does not support bool dtypes on CPU");
  const int64_t d = self.dim() ? wrap_sort_dim(self, dim) : 0;
  const std::vector<int64_t> sizes = topk_output_sizes(self, k, d);
  Tensor values = make_empty(sizes, self.dtype(), self.device());
  Tensor indices = make_empty(sizes, ScalarType::Long, self.device());
  if (k == 0 || values.numel() == 0) return {values, indices};
  const int64_t n = slices_of(self, d).size;
  visit_dtype(self.dtype(), [&]<typename T>() {
    using K = Key<T>;
    using P = std::pair<K, int64_t>;
    for_each_slice<T>(self, d, values, indices, k, [&](std::vector<P>& q) {
      auto asc = [](const P& a, const P& b) { return less_nan_last(a.first, b.first); };
      auto desc = [](const P& a, const P& b) { return greater_nan_first(a.first, b.first); };
      if (k * 64 <= n) {
        if (largest) std::partial_sort(q.begin(), q.begin() + k, q.end(), desc);
        else std::partial_sort(q.begin(), q.begin() + k, q.end(), asc);
      } else if (largest) {
        std::nth_element(q.begin(), q.begin() + k - 1, q.end(), desc);
        if (sorted) std::sort(q.begin(), q.begin() + k - 1, desc);
      } else {
        std::nth_element(q.begin(), q.begin() + k - 1, q.end(), asc);
        if (sorted) std::sort(q.begin(), q.begin() + k - 1, asc);
      }
    });
  });
  return {values, indices};
}

std::tuple<Tensor, Tensor> kthvalue_cpu(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  const int64_t d = self.dim() ? wrap_sort_dim(self, dim) : 0;
  const std::vector<int64_t> sizes = kthvalue_output_sizes(self, k, d, keepdim);
  Tensor values = make_empty(sizes, self.dtype(), self.device());
  Tensor indices = make_empty(sizes, ScalarType::Long, self.device());
  // A 0-dim tensor is its own k-th value, whatever its dtype; the kernel refuses bool.
  if (self.dim() > 0)
    IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "\"kthvalue_cpu\" not implemented for 'Bool'");
  if (self.numel() == 0) return {values, indices};
  // Written with the slice dim kept (size 1), then viewed as the result.
  std::vector<int64_t> kept = self.sizes();
  if (self.dim()) kept[static_cast<size_t>(d)] = 1;
  Tensor v = ops::view(values, kept), i = ops::view(indices, kept);
  visit_dtype(self.dtype(), [&]<typename T>() {
    using P = std::pair<Key<T>, int64_t>;
    for_each_slice<T>(self, d, v, i, 1, [&](std::vector<P>& q) {
      quick_select(q, k - 1);
      q[0] = q[static_cast<size_t>(k - 1)];
    });
  });
  return {values, indices};
}

}  // namespace ipt::native
