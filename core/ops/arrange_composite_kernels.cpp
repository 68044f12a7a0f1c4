// Kernels that rearrange a tensor with other operators, as PyTorch 2.15 writes them: roll (narrow
// and cat), rot90 / fliplr / flipud (flip and transpose), repeat_interleave (index_select with
// the repeated indices), outer, diag / diag_embed, meshgrid, tile, broadcast_to, tensor_split.
#include <numeric>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "core/util/warning.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

// One dim: the last `shift` elements first (narrow and cat); several: one dim after another;
// none: the flattened tensor.
Tensor roll_cpu(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (dims.size() != 1 || shifts.size() != 1) {
    IPT_CHECK(!shifts.empty(), RuntimeError, "`shifts` required");
    if (dims.empty() && shifts.size() == 1) {
      const std::vector<int64_t> flat = {self.numel()};
      const std::vector<int64_t> zero = {0};
      return ops::view(ops::roll(ops::view(ops::contiguous(self, MemoryFormat::Contiguous), flat), shifts, zero),
                       self.sizes());
    }
    IPT_CHECK(shifts.size() == dims.size(), RuntimeError, "shifts and dimensions must align. shifts: ", shifts.size(),
              ", dims:", dims.size());
    const Tensor first = ops::roll(self, shifts.subspan(0, 1), dims.subspan(0, 1));
    return ops::roll(first, shifts.subspan(1), dims.subspan(1));
  }
  if (self.numel() == 0) return ops::clone(self, MemoryFormat::Preserve);
  const int64_t dim = wrap_dim(dims[0], self.dim());
  const int64_t size = self.sizes()[static_cast<size_t>(dim)];
  int64_t start = (size - shifts[0]) % size;
  if (start < 0) start += size;
  const std::vector<Tensor> parts = {ops::narrow(self, dim, start, size - start), ops::narrow(self, dim, 0, start)};
  return ops::cat(parts, dim);
}

Tensor rot90(const Tensor& self, int64_t k, IntArrayRef dims) {
  const int64_t nd = self.dim();
  IPT_CHECK(dims.size() == 2, RuntimeError, "expected total rotation dims == 2, but got dims = ", dims.size());
  IPT_CHECK(nd >= 2, RuntimeError, "expected total dims >= 2, but got total dims = ", nd);
  IPT_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != nd, RuntimeError,
            "expected rotation dims to be different, but got dim0 = ", dims[0], " and dim1 = ", dims[1]);
  IPT_CHECK(dims[0] < nd && dims[0] >= -nd, RuntimeError, "Rotation dim0 out of range, dim0 = ", dims[0]);
  IPT_CHECK(dims[1] < nd && dims[1] >= -nd, RuntimeError, "Rotation dim1 out of range, dim1 = ", dims[1]);
  k = (4 + (k % 4)) % 4;
  const std::vector<int64_t> d0 = {dims[0]}, d1 = {dims[1]};
  switch (k) {
    case 1: return ops::transpose_int(ops::flip(self, d1), dims[0], dims[1]);
    case 2: return ops::flip(self, dims);
    case 3: return ops::transpose_int(ops::flip(self, d0), dims[0], dims[1]);
    default: return ops::clone(self, MemoryFormat::Contiguous);
  }
}

Tensor fliplr(const Tensor& self) {
  IPT_CHECK(self.dim() >= 2, RuntimeError, "Input must be >= 2-d.");
  return ops::flip(self, std::vector<int64_t>{1});
}
Tensor flipud(const Tensor& self) {
  IPT_CHECK(self.dim() >= 1, RuntimeError, "Input must be >= 1-d.");
  return ops::flip(self, std::vector<int64_t>{0});
}

// repeat_interleave(repeats): i repeated repeats[i] times, for each i.
Tensor repeat_interleave_cpu(const Tensor& repeats, std::optional<int64_t> output_size) {
  IPT_CHECK(repeats.dim() == 1, RuntimeError, "repeat_interleave only accept 1D vector as repeat");
  IPT_CHECK(repeats.dtype() == ScalarType::Long || repeats.dtype() == ScalarType::Int, RuntimeError,
            "repeats has to be Long or Int tensor");
  const std::vector<int64_t> r = to_int64_vector(repeats);
  int64_t total = 0;
  for (int64_t v : r) {
    IPT_CHECK(v >= 0, RuntimeError, "repeats can not be negative");
    total += v;
  }
  IPT_CHECK(!output_size || *output_size == total, RuntimeError, "allocated size does not match required size");
  Tensor out = make_empty(std::vector<int64_t>{total}, repeats.dtype(), repeats.device());
  int64_t k = 0;
  visit_dtype(repeats.dtype(), [&]<typename T>() {
    T* o = out.data_ptr<T>();
    for (size_t i = 0; i < r.size(); ++i)
      for (int64_t j = 0; j < r[i]; ++j) o[k++] = static_cast<T>(i);
  });
  return out;
}

Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  Tensor input = self;
  int64_t d = 0;
  if (!dim) input = ops::flatten_using_ints(self, 0, -1);
  else d = wrap_dim(*dim, self.dim());
  Tensor reps = repeats;
  const int64_t n = input.dim() ? input.sizes()[static_cast<size_t>(d)] : 1;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.sizes()[0] == 1)) {
    reps = ops::expand(ops::reshape(repeats, std::vector<int64_t>{1}), std::vector<int64_t>{n});
  } else if (repeats.dim() == 1) {
    IPT_CHECK(repeats.sizes()[0] == n, RuntimeError,
              "repeats must have the same size as input along dim, but got repeats.size(0) = ", repeats.sizes()[0],
              " and input.size(", d, ") = ", n);
  } else {
    IPT_FAIL(RuntimeError, "repeats must be 0-dim or 1-dim tensor");
  }
  return ops::index_select(input, d, ops::repeat_interleave_Tensor(reps, output_size));
}

// An int count: each element unsqueezed, expanded and copied, then flattened (a view).
Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  Tensor input = dim ? self : ops::flatten_using_ints(self, 0, -1);
  const int64_t d = dim ? wrap_dim(*dim, std::max<int64_t>(self.dim(), 1)) : 0;
  IPT_CHECK(repeats >= 0, RuntimeError, "Repeats must be non-negative");
  input = ops::unsqueeze(input, d + 1);
  std::vector<int64_t> shape = input.sizes();
  shape[static_cast<size_t>(d + 1)] = repeats;
  input = ops::expand(input, shape);
  if (output_size) {
    const int64_t calculated = repeats * shape[static_cast<size_t>(d)];
    IPT_CHECK(*output_size == calculated, RuntimeError, "repeat_interleave: Invalid output_size, expected ", calculated,
              " but got ", *output_size);
  }
  return ops::flatten_using_ints(ops::clone(input, MemoryFormat::Contiguous), d, d + 1);
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  IPT_CHECK(self.dim() == 1, RuntimeError, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  IPT_CHECK(vec2.dim() == 1, RuntimeError, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return ops::mul_Tensor(ops::reshape(self, std::vector<int64_t>{self.sizes()[0], 1}), vec2);
}

// A new tensor with self's last dim on the diagonal (offset) of dims dim1, dim2.
Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t nd = self.dim() + 1;
  const int64_t d1 = wrap_dim(dim1, nd), d2 = wrap_dim(dim2, nd);
  IPT_CHECK(d1 != d2, RuntimeError, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t n = self.dim() ? self.sizes().back() + std::abs(offset) : 1 + std::abs(offset);
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end() - (self.dim() ? 1 : 0));
  sizes.insert(sizes.begin() + std::min(d1, d2), n);
  sizes.insert(sizes.begin() + std::max(d1, d2), n);
  Tensor out = ops::zeros(sizes, self.dtype(), std::nullopt, self.device());
  ops::copy_(ops::diagonal(out, offset, d1, d2), self, false);
  return out;
}

Tensor diag(const Tensor& self, int64_t diagonal) {
  IPT_CHECK(self.dim() == 1 || self.dim() == 2, RuntimeError, "diag(): Supports 1D or 2D tensors. Got ", self.dim(),
            "D");
  if (self.dim() == 1) return ops::diag_embed(self, diagonal, 0, 1);
  return ops::clone(ops::diagonal(self, diagonal, 0, 1), std::nullopt);
}

std::vector<Tensor> meshgrid(std::span<const Tensor> tensors, std::string_view indexing) {
  const size_t n = tensors.size();
  IPT_CHECK(n > 0, RuntimeError, "meshgrid expects a non-empty TensorList");
  for (size_t i = 0; i + 1 < n; ++i) {
    IPT_CHECK(tensors[i].dtype() == tensors[i + 1].dtype(), RuntimeError,
              "meshgrid expects all tensors to have the same dtype");
    IPT_CHECK(tensors[i].device() == tensors[i + 1].device(), RuntimeError,
              "meshgrid expects all tensors to have the same device");
  }
  IPT_CHECK(indexing == "ij" || indexing == "xy", RuntimeError,
            "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", std::string(indexing));
  std::vector<Tensor> ts(tensors.begin(), tensors.end());
  const bool swap = indexing == "xy" && n >= 2;
  if (swap) std::swap(ts[0], ts[1]);
  std::vector<int64_t> shape;
  for (const Tensor& t : ts) {
    IPT_CHECK(t.dim() <= 1, RuntimeError,
              "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ", t.dim(), "D");
    shape.push_back(t.numel());
  }
  std::vector<Tensor> grids;
  for (size_t i = 0; i < n; ++i) {
    std::vector<int64_t> view(n, 1);
    view[i] = -1;
    grids.push_back(ops::expand(ops::view(ts[i], view), shape));
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

std::vector<Tensor> meshgrid(std::span<const Tensor> tensors) {
  static bool warned = false;  // TORCH_WARN_ONCE
  if (!warned) {
    warned = true;
    IPT_WARN("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.");
  }
  return meshgrid(tensors, "ij");
}

Tensor tile(const Tensor& self, IntArrayRef dims) {
  std::vector<int64_t> reps(dims.begin(), dims.end());
  if (static_cast<int64_t>(reps.size()) < self.dim()) reps.insert(reps.begin(), self.dim() - reps.size(), 1);
  return ops::repeat(self, reps);
}

Tensor broadcast_to(const Tensor& self, IntArrayRef size) { return ops::expand(self, size, false); }

std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim) {
  IPT_CHECK(self.dim() > 0, RuntimeError,
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ", self.dim(), " dims");
  IPT_CHECK(sections > 0, RuntimeError, "number of sections must be larger than 0, got ", sections);
  const int64_t d = wrap_dim(dim, self.dim()), size = self.sizes()[static_cast<size_t>(d)];
  const int64_t min_size = size / sections, extra = size % sections;
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t len = min_size + (i < extra ? 1 : 0);
    parts.push_back(ops::slice_Tensor(self, d, start, start + len, 1));
    start += len;
  }
  return parts;
}

std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim) {
  IPT_CHECK(self.dim() > 0, RuntimeError,
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ", self.dim(), " dims");
  const int64_t d = wrap_dim(dim, self.dim());
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t idx : indices) {
    parts.push_back(ops::slice_Tensor(self, d, start, idx, 1));
    start = idx;
  }
  parts.push_back(ops::slice_Tensor(self, d, start, self.sizes()[static_cast<size_t>(d)], 1));
  return parts;
}

}  // namespace ipt::native
