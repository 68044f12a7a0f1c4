// Composite kernels that join, split and repeat tensors (PyTorch 2.15's TensorShape.cpp and
// Repeat.cpp, written with the same operators): each calls back into the dispatcher.
#include <algorithm>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

// torch.stack: every tensor unsqueezed at dim, then cat.
Tensor stack(std::span<const Tensor> tensors, int64_t dim) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "stack expects a non-empty TensorList");
  for (size_t i = 1; i < tensors.size(); ++i)
    IPT_CHECK(tensors[i].sizes() == tensors[0].sizes(), RuntimeError,
              "stack expects each tensor to be equal size, but got ", int_list_str(tensors[0].sizes()),
              " at entry 0 and ", int_list_str(tensors[i].sizes()), " at entry ", i);
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1);
  std::vector<Tensor> parts;
  for (const Tensor& t : tensors) parts.push_back(ops::unsqueeze(t, d));
  return ops::cat(parts, d);
}

// Pieces of split_size along dim (the last one shorter), as narrow views of self.
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  IPT_CHECK(self.dim() != 0, RuntimeError, "split expects at least a 1-dimensional tensor");
  IPT_CHECK(split_size >= 0, RuntimeError, "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t dim_size = self.sizes()[d];
  IPT_CHECK(split_size > 0 || dim_size == 0, RuntimeError,
            "split_size can only be 0 if dimension size is 0, but got dimension size of ", dim_size);
  int64_t num_splits = 1;
  if (split_size != 0) num_splits = std::max<int64_t>((dim_size + split_size - 1) / split_size, 1);
  const int64_t last = split_size - (split_size * num_splits - dim_size);
  std::vector<Tensor> out;
  for (int64_t i = 0; i < num_splits; ++i)
    out.push_back(ops::narrow(self, d, i * split_size, i < num_splits - 1 ? split_size : last));
  return out;
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  IPT_CHECK(self.dim() != 0, RuntimeError, "split expects at least a 1-dimensional tensor");
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t dim_size = self.sizes()[d];
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t length : split_sizes) {
    IPT_CHECK(length >= 0, RuntimeError,
              "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
              int_list_str(split_sizes));
    out.push_back(ops::slice_Tensor(self, d, start, start + length, 1));
    start += length;
  }
  IPT_CHECK(start == dim_size, RuntimeError, "split_with_sizes expects split_sizes to sum exactly to ", dim_size,
            " (input tensor's size at dimension ", d, "), but got split_sizes=", int_list_str(split_sizes));
  return out;
}

// `chunks` pieces of ceil(size / chunks) (fewer when they run out), through split.
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  IPT_CHECK(self.dim() > 0, RuntimeError, "chunk expects at least a 1-dimensional tensor");
  IPT_CHECK(chunks > 0, RuntimeError, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t dim_size = self.sizes()[wrap_dim(dim, self.dim())];
  const int64_t split_size = (dim_size + chunks - 1) / chunks;
  if (split_size == 0 && dim_size == 0) {  // keep the number of (empty) chunks
    std::vector<int64_t> sizes(static_cast<size_t>(chunks), split_size);
    sizes.back() = split_size - (split_size * chunks - dim_size);
    return ops::split_with_sizes(self, sizes, dim);
  }
  return ops::split_Tensor(self, split_size, dim);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  IPT_CHECK(self.dim() > 0, IndexError, "Dimension specified as 0 but tensor has no dimensions");
  const int64_t d = wrap_dim(dim, self.dim());
  std::vector<Tensor> out;
  for (int64_t i = 0; i < self.sizes()[d]; ++i) out.push_back(ops::select_int(self, d, i));
  return out;
}

// Note [repeat]
// The result is allocated with size[i] * repeats[i] per dim; unfolding its alias by the input's
// sizes gives a view of shape (r0, r1, ..., s0, s1, ...) in which every block is one copy of
// the input, so one copy_ of the expanded input fills them all.
Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  IPT_CHECK(static_cast<int64_t>(repeats.size()) >= self.dim(), RuntimeError,
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const size_t lead = repeats.size() - static_cast<size_t>(self.dim());
  std::vector<int64_t> padded(lead, 1);
  padded.insert(padded.end(), self.sizes().begin(), self.sizes().end());
  std::vector<int64_t> target(repeats.size());
  bool zero = false;
  for (size_t i = 0; i < repeats.size(); ++i) {
    zero = zero || repeats[i] == 0;
    target[i] = padded[i] * repeats[i];
  }
  Tensor x = ops::expand(self, padded);
  Tensor result = ops::empty_memory_format(target, self.dtype(), std::nullopt, self.device());
  if (zero) return result;
  Tensor u = ops::alias(result);
  for (int64_t i = 0; i < x.dim(); ++i) {
    const int64_t s = x.sizes()[i];
    u = ops::unfold(u, i, s, std::max<int64_t>(s, 1));
  }
  ops::copy_(u, ops::expand(x, u.sizes()));
  return result;
}

// movedim(source, destination): a permute taking dim `source` to position `destination`.
Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  const int64_t nd = self.dim();
  const int64_t s = wrap_dim(source, nd), d = wrap_dim(destination, nd);
  if (nd == 0) return ops::alias(self);
  std::vector<int64_t> order;
  for (int64_t i = 0; i < nd; ++i)
    if (i != s) order.push_back(i);
  order.insert(order.begin() + d, s);
  return ops::permute(self, order);
}

Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  return ops::index_copy_(ops::clone(self), dim, index, source);
}

// index_fill: a copy of self (in self's layout) with the slices at index along dim filled.
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::index_fill__int_Scalar(ops::clone(self, MemoryFormat::Preserve), dim, index, value);
}
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  return ops::index_fill__int_Tensor(ops::clone(self, MemoryFormat::Preserve), dim, index, value);
}

}  // namespace ipt::native
