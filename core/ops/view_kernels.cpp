// View operators: each returns a new TensorImpl over the *same* storage with other sizes,
// strides and storage_offset (see Note [Strided layout]). None of them touches data.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

using Sizes = std::vector<int64_t>;

static Sizes to_vec(IntArrayRef a) { return Sizes(a.begin(), a.end()); }

// -- kernels registered for CPU and Meta (geometry only) --------------------------------

Tensor view(const Tensor& self, IntArrayRef size) {
  Sizes shape = infer_size(size, self.numel());
  auto strides = compute_view_strides(self.sizes(), self.strides(), shape);
  IPT_CHECK(strides, RuntimeError,
            "view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(self, std::move(shape), std::move(*strides), self.storage_offset());
}

Tensor _reshape_alias(const Tensor& self, IntArrayRef size, IntArrayRef stride) {
  return make_view(self, to_vec(size), to_vec(stride), self.storage_offset());
}

Tensor as_strided_tensorimpl(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                             std::optional<int64_t> storage_offset) {
  IPT_CHECK(size.size() == stride.size(), RuntimeError, "mismatch in length of strides and shape");
  int64_t offset = storage_offset.value_or(self.storage_offset());
  IPT_CHECK(offset >= 0, RuntimeError, "Tensor: invalid storage offset ", offset);
  for (int64_t s : stride)
    IPT_CHECK(s >= 0, RuntimeError,
              "as_strided: Negative strides are not supported at the moment, got strides: ", int_list_str(stride));
  // The last element addressed must lie inside the storage.
  int64_t itemsize = static_cast<int64_t>(element_size(self.dtype()));
  const int64_t needed = storage_bytes_needed(size, stride, offset, itemsize);
  int64_t have = static_cast<int64_t>(self.storage()->nbytes());
  IPT_CHECK(needed <= have, RuntimeError, "setStorage: sizes ", int_list_str(size), ", strides ", int_list_str(stride),
            ", storage offset ", offset, ", and itemsize ", itemsize, " requiring a storage size of ", needed,
            " are out of bounds for storage of size ", have);
  return make_view(self, to_vec(size), to_vec(stride), offset);
}

Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  int64_t d = wrap_dim(dimension, self.dim());
  int64_t max_size = self.dim() == 0 ? 1 : self.sizes()[d];
  IPT_CHECK(size <= max_size, RuntimeError, "maximum size for tensor at dimension ", d, " is ", max_size,
            " but size is ", size);
  IPT_CHECK(step > 0, RuntimeError, "step is ", step, " but must be > 0");
  Sizes sizes = self.sizes(), strides = self.strides();
  if (self.dim() == 0) {
    sizes = {size};
    strides = {1};
  } else {
    sizes[d] = (sizes[d] - size) / step + 1;
    int64_t old_stride = strides[d];
    strides[d] *= step;
    sizes.push_back(size);
    strides.push_back(old_stride);
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

// -- CompositeExplicitAutograd views ------------------------------------------------------

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  int64_t nd = self.dim();
  int64_t a = wrap_dim(dim0, nd), b = wrap_dim(dim1, nd);
  Sizes sizes = self.sizes(), strides = self.strides();
  if (nd > 0) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor t(const Tensor& self) {
  IPT_CHECK(self.dim() <= 2, RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  if (self.dim() < 2) return ops::transpose_int(self, 0, 0);
  return ops::transpose_int(self, 0, 1);
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  int64_t nd = self.dim();
  IPT_CHECK(static_cast<int64_t>(dims.size()) == nd, RuntimeError,
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            "desired ordering of dimensions i.e. input.dim() = ",
            nd, " is not equal to len(dims) = ", dims.size());
  Sizes sizes(nd), strides(nd);
  std::vector<bool> seen(nd, false);
  for (int64_t i = 0; i < nd; ++i) {
    int64_t d = wrap_dim(dims[i], nd);
    IPT_CHECK(!seen[d], RuntimeError, "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  IPT_CHECK(self.dim() > 0, IndexError, "slice() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, self.dim());
  IPT_CHECK(step > 0, ValueError, "step must be greater than zero");
  int64_t n = self.sizes()[d];
  int64_t s = start.value_or(0), e = end.value_or(INT64_MAX);
  if (s < 0) s += n;
  if (e < 0) e += n;
  s = std::clamp<int64_t>(s, 0, n);
  e = std::clamp<int64_t>(e, s, n);
  Sizes sizes = self.sizes(), strides = self.strides();
  int64_t offset = self.storage_offset() + s * strides[d];
  sizes[d] = (e - s + step - 1) / step;
  strides[d] *= step;
  return make_view(self, std::move(sizes), std::move(strides), offset);
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  IPT_CHECK(self.dim() > 0, RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = self.sizes()[d];
  IPT_CHECK(length >= 0, RuntimeError, "narrow(): length must be non-negative.");
  IPT_CHECK(start >= -n && start <= n, IndexError, "start out of range (expected to be in range of [", -n, ", ", n,
            "], but got ", start, ")");
  if (start < 0) start += n;
  IPT_CHECK(start <= n - length, RuntimeError, "start (", start, ") + length (", length, ") exceeds dimension size (",
            n, ").");
  return ops::slice_Tensor(self, d, start, start + length, 1);
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  IPT_CHECK(self.dim() > 0, IndexError, "select() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = self.sizes()[d];
  IPT_CHECK(index >= -n && index < n, IndexError, "select(): index ", index, " out of range for tensor of size ",
            int_list_str(self.sizes()), " at dimension ", d);
  if (index < 0) index += n;
  Sizes sizes = self.sizes(), strides = self.strides();
  int64_t offset = self.storage_offset() + index * strides[d];
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(self, std::move(sizes), std::move(strides), offset);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  int64_t d = wrap_dim(dim, self.dim() + 1);
  Sizes sizes = self.sizes(), strides = self.strides();
  int64_t st = d >= self.dim() ? 1 : sizes[d] * strides[d];
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, st);
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor squeeze(const Tensor& self) {
  Sizes sizes, strides;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (self.sizes()[i] != 1) {
      sizes.push_back(self.sizes()[i]);
      strides.push_back(self.strides()[i]);
    }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  int64_t d = wrap_dim(dim, self.dim());
  Sizes sizes = self.sizes(), strides = self.strides();
  if (self.dim() > 0 && sizes[d] == 1) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

// In place: the same tensor object gets the squeezed geometry.
Tensor squeeze_dim_(const Tensor& self, int64_t dim) {
  Tensor v = squeeze(self, dim);
  self.impl()->set_geometry(v.sizes(), v.strides());
  return self;
}

// In place: the same tensor object gets the unsqueezed geometry.
Tensor unsqueeze_(const Tensor& self, int64_t dim) {
  Tensor v = unsqueeze(self, dim);
  self.impl()->set_geometry(v.sizes(), v.strides());
  return self;
}

Tensor expand(const Tensor& self, IntArrayRef size, bool implicit) {
  int64_t nd = self.dim(), n = static_cast<int64_t>(size.size());
  IPT_CHECK(n >= nd, RuntimeError, "expand(torch.", dtype_cpp_name(self.dtype()), "Tensor{", int_list_str(self.sizes()),
            "}, size=", int_list_str(size), "): the number of sizes provided (", n,
            ") must be greater or equal to the number of dimensions in the tensor (", nd, ")");
  Sizes sizes(n), strides(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    int64_t off = nd - n + i;  // matching dim of self, or < 0 for a new leading dim
    int64_t cur_size = off >= 0 ? self.sizes()[off] : 1;
    int64_t cur_stride = off >= 0 ? self.strides()[off] : (i + 1 < n ? sizes[i + 1] * strides[i + 1] : 1);
    int64_t target = size[i];
    if (target == -1) {
      IPT_CHECK(off >= 0, RuntimeError,
                "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
      target = cur_size;
    }
    if (cur_size != target) {
      IPT_CHECK(cur_size == 1, RuntimeError, "The expanded size of the tensor (", target,
                ") must match the existing size (", cur_size, ") at non-singleton dimension ", i,
                ".  Target sizes: ", int_list_str(size), ".  Tensor sizes: ", int_list_str(self.sizes()));
      cur_stride = 0;
    }
    if (off < 0) cur_stride = 0;
    sizes[i] = target;
    strides[i] = cur_stride;
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  int64_t nd = self.dim();
  int64_t a = wrap_dim(dim1, nd), b = wrap_dim(dim2, nd);
  IPT_CHECK(a != b, RuntimeError, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t storage_offset = self.storage_offset();
  int64_t diag;
  if (offset >= 0) diag = std::max<int64_t>(std::min(self.sizes()[a], self.sizes()[b] - offset), 0);
  else diag = std::max<int64_t>(std::min(self.sizes()[a] + offset, self.sizes()[b]), 0);
  if (diag > 0) storage_offset += offset >= 0 ? offset * self.strides()[b] : -offset * self.strides()[a];
  Sizes sizes, strides;
  for (int64_t i = 0; i < nd; ++i)
    if (i != a && i != b) {
      sizes.push_back(self.sizes()[i]);
      strides.push_back(self.strides()[i]);
    }
  sizes.push_back(diag);
  strides.push_back(self.strides()[a] + self.strides()[b]);
  return make_view(self, std::move(sizes), std::move(strides), storage_offset);
}

// The same bytes read as another dtype (PyTorch's view_dtype): elements of a different size
// change the last dim, which must be contiguous, and scale the other strides and the offset.
Tensor view_dtype(const Tensor& self, ScalarType dtype) {
  const auto from = static_cast<int64_t>(element_size(self.dtype())), to = static_cast<int64_t>(element_size(dtype));
  Sizes sizes = to_vec(self.sizes()), strides = to_vec(self.strides());
  int64_t offset = self.storage_offset();
  if (from != to) {
    const std::string what = std::string(" to view ") + dtype_cpp_name(self.dtype()) + " as " + dtype_cpp_name(dtype) +
                             " (different element sizes)";
    IPT_CHECK(self.dim() > 0, RuntimeError, "self.dim() cannot be 0", what);
    const size_t last = sizes.size() - 1;
    if (from > to) {
      const int64_t ratio = from / to;
      IPT_CHECK(strides[last] == 1, RuntimeError, "self.stride(-1) must be 1", what, ", but got ", strides[last]);
      for (size_t d = 0; d < last; ++d) strides[d] *= ratio;
      sizes[last] *= ratio;
      offset *= ratio;
    } else {
      const int64_t ratio = to / from;
      IPT_CHECK(sizes[last] % ratio == 0, RuntimeError, "self.size(-1) must be divisible by ", ratio, what,
                ", but got ", sizes[last]);
      IPT_CHECK(offset % ratio == 0, RuntimeError, "self.storage_offset() must be divisible by ", ratio, what,
                ", but got ", offset);
      IPT_CHECK(strides[last] == 1, RuntimeError, "self.stride(-1) must be 1", what, ", but got ", strides[last]);
      for (size_t d = 0; d < last; ++d) {
        IPT_CHECK(strides[d] % ratio == 0, RuntimeError, "self.stride(", d, ") must be divisible by ", ratio, what,
                  ", but got ", strides[d]);
        strides[d] /= ratio;
      }
      sizes[last] /= ratio;
      offset /= ratio;
    }
  }
  auto impl = std::make_shared<TensorImpl>(self.storage(), dtype, std::move(sizes), std::move(strides), offset,
                                           self.impl()->version_counter(), self.key_set());
  impl->set_is_view(true);
  return Tensor(std::move(impl));
}

Tensor alias(const Tensor& self) { return make_view(self, self.sizes(), self.strides(), self.storage_offset()); }

Tensor detach(const Tensor& self) {
  Tensor out = make_view(self, self.sizes(), self.strides(), self.storage_offset());
  out.impl()->set_requires_grad(false);
  return out;
}

Tensor _unsafe_view(const Tensor& self, IntArrayRef size) {
  Sizes shape = infer_size(size, self.numel());
  auto strides = compute_view_strides(self.sizes(), self.strides(), shape);
  IPT_CHECK(strides, RuntimeError, "_unsafe_view: the input must be contiguous");
  Tensor out = make_view(self, std::move(shape), std::move(*strides), self.storage_offset());
  out.impl()->set_is_view(false);  // not an alias from autograd's point of view: the input was a fresh copy
  return out;
}

// -- CompositeImplicitAutograd views --------------------------------------------------------

// Note [reshape is a view when it can be]
// reshape asks the same question view does (can the new shape be expressed with strides over
// the old memory?). If yes it returns a view: of a contiguous tensor, view itself (PyTorch 2.15:
// ViewBackward0 in the graph), of any other, _reshape_alias with the computed strides
// (ReshapeAliasBackward0); if not it copies into new contiguous storage (clone) and views that
// copy. So `reshape` never fails where `view` would, but whether the result shares storage
// depends on the input's strides.
Tensor reshape(const Tensor& self, IntArrayRef shape) {
  if (self.is_contiguous()) return ops::view(self, shape);
  Sizes sizes = infer_size(shape, self.numel());
  if (auto strides = compute_view_strides(self.sizes(), self.strides(), sizes))
    return ops::_reshape_alias(self, sizes, *strides);
  return ops::_unsafe_view(ops::clone(self, MemoryFormat::Contiguous), sizes);
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  int64_t nd = self.dim();
  int64_t s = wrap_dim(start_dim, nd), e = wrap_dim(end_dim, nd);
  IPT_CHECK(s <= e, RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (nd == 0) return ops::reshape(self, Sizes{1});
  if (s == e) return self;
  Sizes shape(self.sizes().begin(), self.sizes().begin() + s);
  int64_t prod = 1;
  for (int64_t i = s; i <= e; ++i) prod *= self.sizes()[i];
  shape.push_back(prod);
  shape.insert(shape.end(), self.sizes().begin() + e + 1, self.sizes().end());
  return ops::reshape(self, shape);
}

// resize_: new sizes, contiguous; the elements kept are the storage's first
// ones, and a larger size gets a larger storage with the old bytes copied in (the rest
// uninitialised), as PyTorch's resize_ does.
Tensor resize_(const Tensor& self, IntArrayRef size, std::optional<MemoryFormat> memory_format) {
  for (int64_t s : size)
    IPT_CHECK(s >= 0, RuntimeError, "Trying to create tensor with negative dimension ", s, ": ", int_list_str(size));
  TensorImpl& impl = *self.impl();
  const std::shared_ptr<Storage> old = impl.storage();
  const size_t old_bytes = old ? old->nbytes() : 0;
  impl.resize_contiguous(std::vector<int64_t>(size.begin(), size.end()));
  if (impl.storage() != old && old && old_bytes > 0 && old->data() && impl.storage()->data())
    std::memcpy(impl.storage()->data(), old->data(), std::min(old_bytes, impl.storage()->nbytes()));
  (void)memory_format;  // contiguous (the project has no channels-last format)
  return self;
}

}  // namespace ipt::native
