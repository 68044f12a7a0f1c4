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

#include "backends/cpu/cpu_loops.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

struct IndexPlan {
  std::vector<int64_t> out_sizes;
  std::vector<int64_t> offsets;  // element offset from self's first element, per result element (row-major)
};

std::vector<int64_t> long_values(const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  const void* p = t.impl()->raw_data();
  size_t k = 0;
  std::array<std::vector<int64_t>, 1> st{t.strides()};
  cpu::for_each_offsets<1>(t.sizes(), st, [&](int64_t i) { v[k++] = cpu::load_as<int64_t>(p, t.dtype(), i); });
  return v;
}

IndexPlan make_index_plan(const Tensor& self, std::span<const std::optional<Tensor>> indices) {
  // 1. One entry per indexed dimension: a long index tensor, or none for `:`.
  std::vector<std::optional<Tensor>> idx;
  for (const auto& entry : indices) {
    if (!entry || !entry->defined()) {
      idx.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *entry;
    if (t.dtype() == ScalarType::Bool) {
      for (int64_t j = 0; j < t.dim(); ++j) {
        const int64_t src = static_cast<int64_t>(idx.size()) + j;
        IPT_CHECK(src < self.dim() && t.sizes()[j] == self.sizes()[src], IndexError, "The shape of the mask ",
                  int_list_str(t.sizes()), " at index ", j, " does not match the shape of the indexed tensor ",
                  int_list_str(self.sizes()), " at index ", src);
      }
      Tensor nz = nonzero_cpu(t);  // [n, mask dims]
      for (int64_t j = 0; j < t.dim(); ++j)
        idx.emplace_back(make_view(nz, {nz.sizes()[0]}, {nz.strides()[0]}, nz.storage_offset() + j * nz.strides()[1]));
    } else {
      IPT_CHECK(t.dtype() == ScalarType::Long, IndexError, "tensors used as indices must be long, byte or bool tensors");
      idx.emplace_back(t);
    }
  }
  const int64_t nd = self.dim();
  IPT_CHECK(static_cast<int64_t>(idx.size()) <= nd, IndexError, "too many indices for tensor of dimension ", nd,
            " (got ", idx.size(), ")");
  while (static_cast<int64_t>(idx.size()) < nd) idx.emplace_back(std::nullopt);

  // 2. Broadcast the index tensors; check their values.
  std::vector<int64_t> b_sizes;
  bool first = true;
  std::string shapes;
  for (const auto& t : idx)
    if (t) shapes += (shapes.empty() ? "" : ", ") + int_list_str(t->sizes());
  for (const auto& t : idx) {
    if (!t) continue;
    if (first) {
      b_sizes = t->sizes();
      first = false;
      continue;
    }
    try {
      b_sizes = broadcast_shapes(b_sizes, t->sizes());
    } catch (const Error&) {
      IPT_FAIL(IndexError, "shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
    }
  }
  std::vector<int64_t> dims;                  // indexed dims
  std::vector<std::vector<int64_t>> values;   // their (broadcast, wrapped) index values
  for (int64_t d = 0; d < nd; ++d) {
    if (!idx[d]) continue;
    const int64_t size = self.sizes()[d];
    Tensor e = make_view(*idx[d], b_sizes, cpu::broadcast_strides(*idx[d], b_sizes), idx[d]->storage_offset());
    std::vector<int64_t> v = long_values(e);
    for (int64_t& x : v) {
      IPT_CHECK(x >= -size && x < size, IndexError, "index ", x, " is out of bounds for dimension ", dims.size(),
                " with size ", size);
      if (x < 0) x += size;
    }
    dims.push_back(d);
    values.push_back(std::move(v));
  }
  IndexPlan plan;
  if (dims.empty()) {  // nothing indexed: every element, in order
    plan.out_sizes = self.sizes();
    std::array<std::vector<int64_t>, 1> st{self.strides()};
    cpu::for_each_offsets<1>(self.sizes(), st, [&](int64_t o) { plan.offsets.push_back(o); });
    return plan;
  }
  // 3. Result shape: B replaces the indexed dims if they are adjacent, else goes first.
  const bool adjacent = dims.back() - dims.front() + 1 == static_cast<int64_t>(dims.size());
  const int64_t b_pos = adjacent ? dims.front() : 0;
  std::vector<int64_t> rest;  // the other dims, in order
  for (int64_t d = 0; d < nd; ++d)
    if (!idx[d]) rest.push_back(d);
  std::vector<int64_t> out_sizes;
  std::vector<int64_t> out_stride;  // per result dim: self stride for rest dims, -1 for B dims
  size_t r = 0;
  auto push_rest = [&]() {
    out_sizes.push_back(self.sizes()[rest[r]]);
    out_stride.push_back(self.strides()[rest[r]]);
    ++r;
  };
  while (static_cast<int64_t>(out_sizes.size()) < b_pos) push_rest();
  for (int64_t s : b_sizes) {
    out_sizes.push_back(s);
    out_stride.push_back(-1);
  }
  while (r < rest.size()) push_rest();
  // 4. Offsets, row-major over the result.
  const int64_t n = numel_of(out_sizes), nb = static_cast<int64_t>(b_sizes.size());
  plan.offsets.resize(static_cast<size_t>(n));
  std::vector<int64_t> coord(out_sizes.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0, b_lin = 0;
    for (size_t k = 0; k < out_sizes.size(); ++k) {
      if (out_stride[k] >= 0) off += coord[k] * out_stride[k];
      else b_lin = b_lin * out_sizes[k] + coord[k];
    }
    (void)nb;
    for (size_t k = 0; k < dims.size(); ++k) off += values[k][static_cast<size_t>(b_lin)] * self.strides()[dims[k]];
    plan.offsets[static_cast<size_t>(i)] = off;
    for (int64_t k = static_cast<int64_t>(out_sizes.size()) - 1; k >= 0; --k) {
      if (++coord[k] < out_sizes[k]) break;
      coord[k] = 0;
    }
  }
  plan.out_sizes = std::move(out_sizes);
  return plan;
}

// index_select / index_add_ take indices in [0, size) (no negative wrapping, as PyTorch).
int64_t checked_index(int64_t v, int64_t size) {
  IPT_CHECK(v >= 0 && v < size, IndexError, "index out of range in self");
  return v;
}

}  // namespace

Tensor nonzero_cpu(const Tensor& self) {
  std::vector<int64_t> coords;
  int64_t count = 0;
  const void* p = self.impl()->raw_data();
  std::array<std::vector<int64_t>, 1> st{self.strides()};
  int64_t linear = 0;
  cpu::for_each_offsets<1>(self.sizes(), st, [&](int64_t o) {
    if (cpu::load_as<double>(p, self.dtype(), o) != 0.0) {
      auto c = unravel_index(linear, self.sizes());
      coords.insert(coords.end(), c.begin(), c.end());
      ++count;
    }
    ++linear;
  });
  // PyTorch's result is column-major: [count, dim] with strides [1, count].
  Tensor base = make_empty(std::vector<int64_t>{count * self.dim()}, ScalarType::Long, self.device());
  Tensor out = make_view(base, {count, self.dim()}, {1, count}, 0);
  out.impl()->set_is_view(false);
  int64_t* dst = base.data_ptr<int64_t>();
  for (int64_t i = 0; i < count; ++i)
    for (int64_t j = 0; j < self.dim(); ++j) dst[j * count + i] = coords[static_cast<size_t>(i * self.dim() + j)];
  return out;
}

Tensor index_cpu(const Tensor& self, std::span<const std::optional<Tensor>> indices) {
  IndexPlan plan = make_index_plan(self, indices);
  Tensor out = make_empty(plan.out_sizes, self.dtype(), self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* src = self.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    for (size_t i = 0; i < plan.offsets.size(); ++i) dst[i] = src[plan.offsets[i]];
  });
  return out;
}

Tensor index_put_impl_cpu_(const Tensor& self, std::span<const std::optional<Tensor>> indices, const Tensor& values,
                           bool accumulate, bool unsafe) {
  IPT_CHECK(self.dtype() == values.dtype(), RuntimeError, "Index put requires the source and destination dtypes match, got ",
            dtype_cpp_name(self.dtype()), " for the destination and ", dtype_cpp_name(values.dtype()), " for the source.");
  IndexPlan plan = make_index_plan(self, indices);
  bool fits = static_cast<int64_t>(plan.out_sizes.size()) >= values.dim();
  for (int64_t k = 0; fits && k < values.dim(); ++k) {
    const int64_t v = values.sizes()[values.dim() - 1 - k];
    const int64_t o = plan.out_sizes[plan.out_sizes.size() - 1 - k];
    fits = v == 1 || v == o;
  }
  IPT_CHECK(fits, RuntimeError, "shape mismatch: value tensor of shape ", int_list_str(values.sizes()),
            " cannot be broadcast to indexing result of shape ", int_list_str(plan.out_sizes));
  std::vector<int64_t> voff;
  voff.reserve(plan.offsets.size());
  std::array<std::vector<int64_t>, 1> st{cpu::broadcast_strides(values, plan.out_sizes)};
  cpu::for_each_offsets<1>(plan.out_sizes, st, [&](int64_t o) { voff.push_back(o); });
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* dst = self.data_ptr<T>();
    const T* src = values.data_ptr<T>();
    for (size_t i = 0; i < plan.offsets.size(); ++i) {
      if constexpr (std::is_same_v<T, bool>) dst[plan.offsets[i]] = accumulate ? (dst[plan.offsets[i]] || src[voff[i]]) : src[voff[i]];
      else if (accumulate) dst[plan.offsets[i]] += src[voff[i]];
      else dst[plan.offsets[i]] = src[voff[i]];
    }
  });
  return self;
}

Tensor index_select_cpu(const Tensor& self, int64_t dim, const Tensor& index) {
  std::vector<int64_t> sizes = index_select_geometry(self, dim, index);
  Tensor out = make_empty(sizes, self.dtype(), self.device());
  std::vector<int64_t> idx = long_values(index);
  if (self.dim() == 0) {
    for (int64_t v : idx) checked_index(v, 1);
    return copy_cpu_(out, self, false);
  }
  const int64_t d = wrap_dim(dim, self.dim());
  // PyTorch's kernel for dim 1 (an embedding-style lookup) words its bounds error differently.
  if (d == 1)
    for (int64_t v : idx)
      IPT_CHECK(v >= 0 && v < self.sizes()[1], RuntimeError, "INDICES element is out of DATA bounds, id=", v,
                " axis_dim=", self.sizes()[1]);
  std::vector<int64_t> slice_sizes = self.sizes();
  slice_sizes[d] = 1;
  for (size_t j = 0; j < idx.size(); ++j) {
    const int64_t k = checked_index(idx[j], self.sizes()[d]);
    Tensor dst = make_view(out, slice_sizes, out.strides(), out.storage_offset() + static_cast<int64_t>(j) * out.strides()[d]);
    Tensor src = make_view(self, slice_sizes, self.strides(), self.storage_offset() + k * self.strides()[d]);
    copy_cpu_(dst, src, false);
  }
  return out;
}

Tensor index_add_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  index_add_geometry(self, dim, index, source);
  std::vector<int64_t> idx = long_values(index);
  if (self.dim() == 0) {
    for (int64_t v : idx) {
      checked_index(v, 1);
      add_cpu_(self, make_view(source, {}, {}, source.storage_offset()), alpha);
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
    Tensor dst = make_view(self, drop(self.sizes()), drop(self.strides()), self.storage_offset() + k * self.strides()[d]);
    Tensor src = source.dim() == 0 ? source
                                   : make_view(source, drop(source.sizes()), drop(source.strides()),
                                               source.storage_offset() + static_cast<int64_t>(j) * source.strides()[d]);
    add_cpu_(dst, src, alpha);
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
  std::vector<int64_t> idx = long_values(index);
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
  for (int64_t v : idx)
    IPT_CHECK(v >= 0 && v < size, IndexError, "index_copy_(): index ", v, " is out of bounds for dimension ", d,
              " with size ", size);
  if (self.dim() == 0 || source.dim() == 0) {
    for (int64_t v : idx) {
      Tensor dst = self.dim() == 0 ? self
                                   : make_view(self, {}, {}, self.storage_offset() + v * self.strides()[d]);
      copy_cpu_(dst, make_view(source, {}, {}, source.storage_offset()), false);
    }
    return self;
  }
  auto drop = [d](std::vector<int64_t> v) {
    v.erase(v.begin() + d);
    return v;
  };
  for (size_t j = 0; j < idx.size(); ++j) {
    Tensor dst = make_view(self, drop(self.sizes()), drop(self.strides()), self.storage_offset() + idx[j] * self.strides()[d]);
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
