// CPU kernels for indexing with tensors: advanced indexing (index.Tensor, _index_put_impl_),
// index_select / index_add_, masked_fill_ and nonzero.
//
// Note [Advanced indexing]
// x[i0, :, i2] takes one index tensor (or none, for `:`) per dimension. Bool masks are first
// turned into long indices, one per mask dimension (their nonzero() columns). The long index
// tensors broadcast together to a shape B. The result has B in place of the indexed
// dimensions when those are adjacent (x[:, i, j] -> [x.size(0), *B]), and B first otherwise
// (x[i, :, j] -> [*B, x.size(1)]); the other dimensions keep their sizes. Each result element
// reads x at the indexed positions given by the index tensors at its B coordinates and at its
// own coordinates in the other dimensions. index_put_ writes (or adds, accumulate=True) the
// broadcast values into exactly those elements.
#include <algorithm>
#include <numeric>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/into_kernels.h"
#include "core/ops/shape_rules.h"
#include "core/parallel/parallel.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// Where each result element reads: the result is [pre dims, B, post dims] (Note [Advanced
// indexing]), so element (p, b, q) of it, row-major, reads self at pre[p] + b_off[b] + post[q].
struct IndexPlan {
  std::vector<int64_t> out_sizes;
  std::vector<int64_t> pre, b_off, post;  // element offsets into self
  size_t pre_dims = 0, b_dims = 0;        // how many of out_sizes are pre dims, then B's
};

IndexPlan make_index_plan(const Tensor& self, std::span<const std::optional<Tensor>> indices) {
  const IndexGeometry g = index_geometry(self, indices);
  IndexPlan plan;
  plan.out_sizes = g.out_sizes;
  // The non-indexed dims, split at B's place in the result.
  std::vector<int64_t> pre_sizes, pre_strides, post_sizes, post_strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (g.idx[static_cast<size_t>(d)]) continue;
    const bool before = static_cast<int64_t>(pre_sizes.size()) < g.b_pos || g.dims.empty();
    (before ? pre_sizes : post_sizes).push_back(self.sizes()[d]);
    (before ? pre_strides : post_strides).push_back(self.strides()[d]);
  }
  plan.pre = cpu::offsets_of(pre_sizes, pre_strides);
  plan.post = cpu::offsets_of(post_sizes, post_strides);
  plan.pre_dims = pre_sizes.size();
  plan.b_dims = g.out_sizes.size() - pre_sizes.size() - post_sizes.size();
  if (g.dims.empty()) {  // nothing indexed: every element, in order
    plan.b_off = {0};
    return plan;
  }
  // The index values, broadcast to B, bounds-checked and wrapped, and their offsets summed.
  plan.b_off.assign(static_cast<size_t>(numel_of(g.b_sizes)), 0);
  for (size_t k = 0; k < g.dims.size(); ++k) {
    const int64_t d = g.dims[k];
    const Tensor& t = *g.idx[static_cast<size_t>(d)];
    const int64_t size = self.sizes()[d], stride = self.strides()[d];
    std::vector<int64_t> v =
        cpu::long_values(make_view(t, g.b_sizes, cpu::broadcast_strides(t, g.b_sizes), t.storage_offset()));
    for (size_t b = 0; b < v.size(); ++b) {
      int64_t x = v[b];
      IPT_CHECK(size > 0, IndexError, "index is out of bounds for dimension with size 0");
      IPT_CHECK(x >= -size && x < size, IndexError, "index ", x, " is out of bounds for dimension ", k, " with size ",
                size);
      if (x < 0) x += size;
      plan.b_off[b] += x * stride;
    }
  }
  return plan;
}

// dst[i] = src[base + post[i]] for every i: a copy of `post.size()` elements when post is 0, 1, 2, ...
template <typename T>
void gather_run(T* dst, const T* src, const std::vector<int64_t>& post, bool post_contiguous) {
  if (post_contiguous) std::copy_n(src, post.size(), dst);
  else
    for (size_t i = 0; i < post.size(); ++i) dst[i] = src[post[i]];
}

bool is_iota(const std::vector<int64_t>& v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// index_select / index_add_ take indices in [0, size) (no negative wrapping, as PyTorch).
int64_t checked_index(int64_t v, int64_t size) {
  IPT_CHECK(v >= 0 && v < size, IndexError, "index out of range in self");
  return v;
}

}  // namespace

Tensor nonzero_cpu(const Tensor& self) {
  const int64_t nd = self.dim();
  Tensor x =
      self.is_contiguous() ? self : copy_cpu_(make_empty(self.sizes(), self.dtype(), self.device()), self, false);
  const int64_t n = x.numel();
  // Two passes, as PyTorch's: count, then write each nonzero element's coordinates.
  int64_t count = 0;
  Tensor base;
  visit_dtype(x.dtype(), [&]<typename T>() {
    using Load = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;  // (bool loads do not vectorize)
    const Load* p = reinterpret_cast<const Load*>(x.data_ptr<T>());
    auto nonzero = [](Load v) {
      if constexpr (is_reduced_float_v<T>) return static_cast<float>(v) != 0.0f;
      else return v != Load(0);
    };
    for (int64_t i = 0; i < n; ++i) count += nonzero(p[i]) ? 1 : 0;
    // PyTorch's result is column-major: [count, dim] with strides [1, count].
    base = make_empty(std::vector<int64_t>{count * nd}, ScalarType::Long, self.device());
    int64_t* dst = base.data_ptr<int64_t>();
    if (nd == 0 || count == 0) return;
    const int64_t last = self.sizes()[nd - 1];
    std::vector<int64_t> outer(static_cast<size_t>(nd), 0);  // the row's coordinates but the last
    int64_t k = 0;
    for (int64_t row = 0; row * last < n; ++row) {
      if ((row & 4095) == 0) check_interrupt();
      const Load* r = p + row * last;
      for (int64_t j = 0; j < last; ++j) {
        if (!nonzero(r[j])) continue;
        for (int64_t d = 0; d + 1 < nd; ++d) dst[d * count + k] = outer[static_cast<size_t>(d)];
        dst[(nd - 1) * count + k] = j;
        ++k;
      }
      for (int64_t d = nd - 2; d >= 0; --d) {  // the next row's coordinates
        if (++outer[static_cast<size_t>(d)] < self.sizes()[d]) break;
        outer[static_cast<size_t>(d)] = 0;
      }
    }
  });
  Tensor out = make_view(base, {count, nd}, {1, count}, 0);
  out.impl()->set_is_view(false);
  return out;
}

Tensor index_cpu(const Tensor& self, std::span<const std::optional<Tensor>> indices) {
  IndexPlan plan = make_index_plan(self, indices);
  Tensor out = make_empty(plan.out_sizes, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const int64_t nb = static_cast<int64_t>(plan.b_off.size()), nq = static_cast<int64_t>(plan.post.size());
  const bool contiguous_rows = is_iota(plan.post);
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* src = self.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    // (pre, b) rows, split over threads (each writes its own part of the result).
    parallel_for(0, static_cast<int64_t>(plan.pre.size()) * nb, std::max<int64_t>(1, kGrainSize / nq),
                 [&](int64_t begin, int64_t end) {
                   if (nq == 1 && plan.pre.size() == 1) {  // x[idx]: one element per index
                     const T* from = src + plan.pre[0] + plan.post[0];
                     for (int64_t r = begin; r < end; ++r) dst[r] = from[plan.b_off[static_cast<size_t>(r)]];
                     return;
                   }
                   for (int64_t r = begin; r < end; ++r) {
                     if ((r & 4095) == 0) check_interrupt();
                     const int64_t base =
                         plan.pre[static_cast<size_t>(r / nb)] + plan.b_off[static_cast<size_t>(r % nb)];
                     gather_run(dst + r * nq, src + base, plan.post, contiguous_rows);
                   }
                 });
  });
  return out;
}

Tensor index_put_impl_cpu_(const Tensor& self, std::span<const std::optional<Tensor>> indices, const Tensor& values,
                           bool accumulate, bool unsafe) {
  check_index_put_dtype(self, values);
  IndexPlan plan = make_index_plan(self, indices);
  check_index_put_values(plan.out_sizes, values);
  // values, broadcast to the result's shape, split as the plan splits self: (pre, B, post).
  const std::vector<int64_t> vstrides = cpu::broadcast_strides(values, plan.out_sizes);
  auto value_offsets = [&](size_t from, size_t to) {
    const auto at = [](const std::vector<int64_t>& v, size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
    return cpu::offsets_of(std::vector<int64_t>(at(plan.out_sizes, from), at(plan.out_sizes, to)),
                           std::vector<int64_t>(at(vstrides, from), at(vstrides, to)));
  };
  const size_t nd = plan.out_sizes.size(), b_end = plan.pre_dims + plan.b_dims;
  const std::vector<int64_t> vpre = value_offsets(0, plan.pre_dims), vb = value_offsets(plan.pre_dims, b_end),
                             vpost = value_offsets(b_end, nd);
  const bool rows = is_iota(plan.post) && is_iota(vpost);
  const int64_t nq = static_cast<int64_t>(plan.post.size());
  // Element by element in the result's order, so a repeated index takes its last value (or sums
  // its values in that order).
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* dst = self.data_ptr<T>();
    const T* src = values.data_ptr<T>();
    for (size_t p = 0; p < plan.pre.size(); ++p) {
      check_interrupt();
      for (size_t b = 0; b < plan.b_off.size(); ++b) {
        T* d = dst + plan.pre[p] + plan.b_off[b];
        const T* v = src + vpre[p] + vb[b];
        if (rows && !accumulate) {
          std::copy_n(v, nq, d);
        } else if (rows) {
          if constexpr (std::is_same_v<T, bool>)
            for (int64_t q = 0; q < nq; ++q) d[q] = d[q] || v[q];
          else
            for (int64_t q = 0; q < nq; ++q) d[q] += v[q];
        } else {
          for (int64_t q = 0; q < nq; ++q) {
            T& to = d[plan.post[static_cast<size_t>(q)]];
            const T from = v[vpost[static_cast<size_t>(q)]];
            if constexpr (std::is_same_v<T, bool>) to = accumulate ? (to || from) : from;
            else if (accumulate) to += from;
            else to = from;
          }
        }
      }
    }
  });
  return self;
}

Tensor index_select_cpu(const Tensor& self, int64_t dim, const Tensor& index) {
  std::vector<int64_t> sizes = index_select_geometry(self, dim, index);
  Tensor out = make_empty(sizes, self.dtype(), self.device());
  if (self.dim() == 0) {
    for (int64_t v : cpu::long_values(index)) checked_index(v, 1);
    return copy_cpu_(out, self, false);
  }
  const int64_t d = wrap_dim(dim, self.dim());
  // A contiguous int64 index is read in place and checked as its rows are copied (PyTorch's
  // loop); any other index is copied out first.
  std::vector<int64_t> copied;
  const int64_t* idx = nullptr;
  if (index.dtype() == ScalarType::Long && index.is_contiguous()) {
    idx = index.data_ptr<int64_t>();
  } else {
    copied = cpu::long_values(index);
    idx = copied.data();
  }
  const int64_t n = index.numel();
  // PyTorch's kernel for dim 1 (an embedding-style lookup) words its bounds error differently.
  if (d == 1)
    for (int64_t i = 0; i < n; ++i)
      IPT_CHECK(idx[i] >= 0 && idx[i] < self.sizes()[1], RuntimeError,
                "INDICES element is out of DATA bounds, id=", idx[i], " axis_dim=", self.sizes()[1]);
  const int64_t size = self.sizes()[d];
  if (out.numel() == 0) {
    for (int64_t i = 0; i < n; ++i) checked_index(idx[i], size);
    return out;
  }
  // self as (outer, size, inner) around d: out[o, j, :] = self[o, idx[j], :], rows split over threads.
  Tensor x =
      self.is_contiguous() ? self : copy_cpu_(make_empty(self.sizes(), self.dtype(), self.device()), self, false);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i < d) outer *= self.sizes()[i];
    else if (i > d) inner *= self.sizes()[i];
  }
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* src = x.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    parallel_for(0, outer * n, std::max<int64_t>(1, kGrainSize / inner), [&](int64_t begin, int64_t end) {
      int64_t o = begin / n, j = begin % n;  // r = o * n + j, stepped without a division per row
      for (int64_t r = begin; r < end; ++r) {
        if ((r & 4095) == 0) check_interrupt();
        const int64_t k = idx[j];
        if (static_cast<uint64_t>(k) >= static_cast<uint64_t>(size)) [[unlikely]]
          checked_index(k, size);
        std::copy_n(src + (o * size + k) * inner, inner, dst + r * inner);
        if (++j == n) {
          j = 0;
          ++o;
        }
      }
    });
  });
  return out;
}

Tensor index_add_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  index_add_geometry(self, dim, index, source);
  std::vector<int64_t> idx = cpu::long_values(index);
  if (self.dim() == 0) {
    for (int64_t v : idx) {
      checked_index(v, 1);
      add_into_cpu(self, self, make_view(source, {}, {}, source.storage_offset()), alpha);
    }
    return self;
  }
  const int64_t d = wrap_dim(dim, self.dim());
  auto drop = [d](std::vector<int64_t> v) {
    v.erase(v.begin() + d);
    return v;
  };
  for (size_t j = 0; j < idx.size(); ++j) {
    const int64_t k = checked_index(idx[j], self.sizes()[d]);
    Tensor dst =
        make_view(self, drop(self.sizes()), drop(self.strides()), self.storage_offset() + k * self.strides()[d]);
    Tensor src = source.dim() == 0 ? source
                                   : make_view(source, drop(source.sizes()), drop(source.strides()),
                                               source.storage_offset() + static_cast<int64_t>(j) * source.strides()[d]);
    add_into_cpu(dst, dst, src, alpha);
  }
  return self;
}

// masked_fill_: self[mask] = value, with mask broadcast to self's shape (bool masks only).
Tensor masked_fill_cpu_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  check_masked_fill(self, mask);
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* p = static_cast<T*>(self.impl()->raw_data());
    const bool* m = static_cast<const bool*>(mask.impl()->raw_data());
    const T v = value.to<T>();
    std::array<std::vector<int64_t>, 2> st{self.strides(), cpu::broadcast_strides(mask, self.sizes())};
    cpu::for_each_offsets<2>(self.sizes(), st, [&](int64_t o, int64_t k) {
      if (m[k]) p[o] = v;
    });
  });
  return self;
}

// index_copy_: self's slices at index along dim are overwritten by source's slices.
Tensor index_copy_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  check_index_copy(self, dim, index, source);
  std::vector<int64_t> idx = cpu::long_values(index);
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
  for (int64_t v : idx)
    IPT_CHECK(v >= 0 && v < size, IndexError, "index_copy_(): index ", v, " is out of bounds for dimension ", d,
              " with size ", size);
  if (self.dim() == 0 || source.dim() == 0) {
    for (int64_t v : idx) {
      Tensor dst = self.dim() == 0 ? self : make_view(self, {}, {}, self.storage_offset() + v * self.strides()[d]);
      copy_cpu_(dst, make_view(source, {}, {}, source.storage_offset()), false);
    }
    return self;
  }
  auto drop = [d](std::vector<int64_t> v) {
    v.erase(v.begin() + d);
    return v;
  };
  for (size_t j = 0; j < idx.size(); ++j) {
    Tensor dst =
        make_view(self, drop(self.sizes()), drop(self.strides()), self.storage_offset() + idx[j] * self.strides()[d]);
    Tensor src = make_view(source, drop(source.sizes()), drop(source.strides()),
                           source.storage_offset() + static_cast<int64_t>(j) * source.strides()[d]);
    copy_cpu_(dst, src, false);
  }
  return self;
}

// torch.cat: each input copied (and converted to the result dtype) into its slice of the output.
Tensor cat_cpu(std::span<const Tensor> tensors, int64_t dim) {
  CatGeometry g = cat_geometry(tensors, dim);
  Tensor out = make_empty(g.sizes, g.dtype, tensors[0].device());
  int64_t offset = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (g.skip[i]) continue;
    const Tensor& t = tensors[i];
    std::vector<int64_t> sizes = out.sizes();
    sizes[static_cast<size_t>(g.dim)] = t.sizes()[g.dim];
    Tensor dst = make_view(out, sizes, out.strides(), offset * out.strides()[g.dim]);
    if (t.numel() > 0) copy_cpu_(dst, t, false);
    offset += t.sizes()[g.dim];
  }
  return out;
}

}  // namespace ipt::native

namespace ipt::native {
// masked_scatter_: source's elements, in order, into self where mask (broadcast to self) is true.
Tensor masked_scatter_cpu_(const Tensor& self, const Tensor& mask, const Tensor& source) {
  masked_scatter_meta_(self, mask, source);
  const Tensor m = ops::contiguous(ops::expand(mask, self.sizes()), MemoryFormat::Contiguous);
  const Tensor src = ops::contiguous(source, MemoryFormat::Contiguous);
  const bool direct = self.is_contiguous();
  Tensor dst = direct ? self : ops::contiguous(self, MemoryFormat::Contiguous);
  const bool* pm = m.data_ptr<bool>();
  int64_t k = 0;
  const int64_t n = dst.numel(), available = src.numel();
  for (int64_t i = 0; i < n; ++i) k += pm[i] ? 1 : 0;
  IPT_CHECK(k <= available, RuntimeError, "Number of elements of source < number of ones in mask");
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* d = dst.data_ptr<T>();
    const T* s = src.data_ptr<T>();
    int64_t j = 0;
    for (int64_t i = 0; i < n; ++i)
      if (pm[i]) d[i] = s[j++];
  });
  if (!direct) ops::copy_(self, dst, false);
  return self;
}
}  // namespace ipt::native
