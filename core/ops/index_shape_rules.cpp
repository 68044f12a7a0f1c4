// Shape, dtype and device rules of masks and advanced indexing (masked_fill, index, index_put,
// index_select, index_add), shared by the CPU, Meta and simulated-GPU kernels; the pointwise,
// matrix and reduction rules are in shape_rules.cpp.
#include <algorithm>

#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt {

// ---- comparisons, masks and indexing ------------------------------------------------------------

void check_masked_fill(const Tensor& self, const Tensor& mask) {
  IPT_CHECK(mask.dtype() == ScalarType::Bool, RuntimeError,
            "masked_fill_ only supports boolean masks, but got mask with dtype ", dtype_cpp_name(mask.dtype()));
  auto b = broadcast_shapes(self.sizes(), mask.sizes());
  IPT_CHECK(b == self.sizes(), RuntimeError, "output with shape ", int_list_str(self.sizes()),
            " doesn't match the broadcast shape ", int_list_str(b));
}

namespace {
// Note [Advanced indexing on the Meta device]
// PyTorch 2.15's Meta kernel for index is Python (meta_index_Tensor): int32 indices are fine, a
// mask's nonzero() comes first (a Meta mask cannot give one), its shape mismatch names the
// index's position in the list and prints torch.Size, the other checks are RuntimeErrors, and
// the index tensors broadcast in the words of the Python reference.
void meta_index_entries(const Tensor& self, std::span<const std::optional<Tensor>> indices, IndexGeometry& g) {
  for (size_t i = 0; i < indices.size(); ++i) {
    const auto& entry = indices[i];
    if (!entry || !entry->defined()) {
      g.idx.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *entry;
    const ScalarType dt = t.dtype();
    IPT_CHECK(dt == ScalarType::Long || dt == ScalarType::Int || dt == ScalarType::Bool, RuntimeError,
              "tensors used as indices must be long, int, byte or bool tensors");
    if (dt != ScalarType::Bool) {
      g.idx.emplace_back(t);
      continue;
    }
    Tensor nz = ops::nonzero(t);  // [n, mask dims]
    const int64_t k = static_cast<int64_t>(g.idx.size());
    IPT_CHECK(k + t.dim() <= self.dim(), IndexError, "too many indices for tensor of dimension ", self.dim());
    for (int64_t j = 0; j < t.dim(); ++j) {
      IPT_CHECK(t.sizes()[j] == self.sizes()[k + j], IndexError, "The shape of the mask ", torch_size_str(t.sizes()),
                " at index ", i, " does not match the shape of the indexed tensor ", torch_size_str(self.sizes()),
                " at index ", k + j);
      g.idx.emplace_back(make_view(nz, {nz.sizes()[0]}, {nz.strides()[0]}, nz.storage_offset() + j * nz.strides()[1]));
    }
  }
  IPT_CHECK(static_cast<int64_t>(g.idx.size()) <= self.dim(), RuntimeError, "too many indices for tensor of dimension ",
            self.dim(), " (got ", g.idx.size(), ")");
}

// The index tensors' broadcast shape, as meta_broadcast_shapes words it (argument indices count
// only the tensors).
std::vector<int64_t> meta_index_broadcast(const std::vector<const Tensor*>& defined) {
  size_t nmax = 0;
  for (const Tensor* t : defined) nmax = std::max(nmax, static_cast<size_t>(t->dim()));
  std::vector<int64_t> common(nmax, 1);
  for (size_t a = 0; a < defined.size(); ++a) {
    const auto& s = defined[a]->sizes();
    for (size_t k = 1; k <= s.size(); ++k) {
      const int64_t have = s[s.size() - k];
      int64_t& want = common[nmax - k];
      if (have == want) continue;
      if (want == 1) want = have;
      if (have == 1) continue;
      IPT_CHECK(want == have, RuntimeError, "Attempting to broadcast a dimension of length ", have, " at ",
                -static_cast<int64_t>(k), "! Mismatching argument at index ", a, " had ", torch_size_str(s),
                "; but expected shape should be broadcastable to ", int_list_str(common));
    }
  }
  return common;
}
}  // namespace

static void index_entries_and_broadcast(const Tensor& self, std::span<const std::optional<Tensor>> indices,
                                        IndexGeometry& g);

IndexGeometry index_geometry(const Tensor& self, std::span<const std::optional<Tensor>> indices) {
  IndexGeometry g;
  bool meta = self.device().type == DeviceType::Meta;
  for (const auto& entry : indices) meta |= entry && entry->defined() && entry->device().type == DeviceType::Meta;
  if (meta) {
    meta_index_entries(self, indices, g);
    const int64_t nd = self.dim();
    while (static_cast<int64_t>(g.idx.size()) < nd) g.idx.emplace_back(std::nullopt);
    std::vector<const Tensor*> defined;
    for (int64_t d = 0; d < nd; ++d)
      if (g.idx[static_cast<size_t>(d)]) {
        g.dims.push_back(d);
        defined.push_back(&*g.idx[static_cast<size_t>(d)]);
      }
    if (g.dims.empty()) {
      g.out_sizes = self.sizes();
      return g;
    }
    g.b_sizes = meta_index_broadcast(defined);
  } else {
    index_entries_and_broadcast(self, indices, g);
    if (g.dims.empty()) {
      g.out_sizes = self.sizes();
      return g;
    }
  }
  // 3. Result shape: B replaces the indexed dims if they are adjacent, else goes first.
  const int64_t nd = self.dim();
  const bool adjacent = g.dims.back() - g.dims.front() + 1 == static_cast<int64_t>(g.dims.size());
  g.b_pos = adjacent ? g.dims.front() : 0;
  for (int64_t d = 0; d < nd; ++d)
    if (!g.idx[static_cast<size_t>(d)]) g.out_sizes.push_back(self.sizes()[d]);  // the other dims, in order
  g.out_sizes.insert(g.out_sizes.begin() + g.b_pos, g.b_sizes.begin(), g.b_sizes.end());
  return g;
}

// The CPU's (and other devices') entries and their broadcast shape, in ATen's words.
static void index_entries_and_broadcast(const Tensor& self, std::span<const std::optional<Tensor>> indices,
                                        IndexGeometry& g) {
  // 1. One entry per indexed dimension: a long index tensor, or none for `:`.
  for (const auto& entry : indices) {
    if (!entry || !entry->defined()) {
      g.idx.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *entry;
    if (t.dtype() == ScalarType::Bool) {
      for (int64_t j = 0; j < t.dim(); ++j) {
        const int64_t src = static_cast<int64_t>(g.idx.size()) + j;
        IPT_CHECK(src < self.dim() && t.sizes()[j] == self.sizes()[src], IndexError, "The shape of the mask ",
                  int_list_str(t.sizes()), " at index ", j, " does not match the shape of the indexed tensor ",
                  int_list_str(self.sizes()), " at index ", src);
      }
      Tensor nz = ops::nonzero(t);  // [n, mask dims]
      for (int64_t j = 0; j < t.dim(); ++j)
        g.idx.emplace_back(
            make_view(nz, {nz.sizes()[0]}, {nz.strides()[0]}, nz.storage_offset() + j * nz.strides()[1]));
    } else {
      // PyTorch 2.15 takes int32 indices too (its kernels read either index type).
      IPT_CHECK(t.dtype() == ScalarType::Long || t.dtype() == ScalarType::Int, IndexError,
                "tensors used as indices must be long, int, byte or bool tensors");
      g.idx.emplace_back(t.dtype() == ScalarType::Long ? t : ops::_to_copy(t, ScalarType::Long));
    }
  }
  const int64_t nd = self.dim();
  IPT_CHECK(static_cast<int64_t>(g.idx.size()) <= nd, IndexError, "too many indices for tensor of dimension ", nd,
            " (got ", g.idx.size(), ")");
  while (static_cast<int64_t>(g.idx.size()) < nd) g.idx.emplace_back(std::nullopt);

  // 2. Broadcast the index tensors.
  std::string shapes;
  for (const auto& t : g.idx)
    if (t) shapes += (shapes.empty() ? "" : ", ") + int_list_str(t->sizes());
  bool first = true;
  for (int64_t d = 0; d < nd; ++d) {
    const auto& t = g.idx[static_cast<size_t>(d)];
    if (!t) continue;
    g.dims.push_back(d);
    if (first) {
      g.b_sizes = t->sizes();
      first = false;
      continue;
    }
    try {
      g.b_sizes = broadcast_shapes(g.b_sizes, t->sizes());
    } catch (const Error&) {
      IPT_FAIL(IndexError, "shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
    }
  }
}

void check_index_put_dtype(const Tensor& self, const Tensor& values) {
  IPT_CHECK(self.dtype() == values.dtype(), RuntimeError,
            "Index put requires the source and destination dtypes match, got ", dtype_cpp_name(self.dtype()),
            " for the destination and ", dtype_cpp_name(values.dtype()), " for the source.");
}

void check_index_put_values(const std::vector<int64_t>& result_sizes, const Tensor& values) {
  bool fits = static_cast<int64_t>(result_sizes.size()) >= values.dim();
  for (int64_t k = 0; fits && k < values.dim(); ++k) {
    const int64_t v = values.sizes()[values.dim() - 1 - k];
    const int64_t o = result_sizes[result_sizes.size() - 1 - k];
    fits = v == 1 || v == o;
  }
  IPT_CHECK(fits, RuntimeError, "shape mismatch: value tensor of shape ", int_list_str(values.sizes()),
            " cannot be broadcast to indexing result of shape ", int_list_str(result_sizes));
}

std::vector<int64_t> index_select_geometry(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim());
  IPT_CHECK(index.dim() <= 1, IndexError, "index_select(): Index is supposed to be a vector");
  IPT_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int, RuntimeError,
            "index_select(): Expected dtype int32 or int64 for index");
  IPT_CHECK(self.dim() > 0 || index.numel() == 1, RuntimeError,
            "index_select(): Index to scalar can have only 1 value, got ", index.numel(), " value(s)");
  std::vector<int64_t> sizes = self.sizes();
  if (self.dim() > 0) sizes[d] = index.numel();
  return sizes;
}

void index_add_geometry(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  const int64_t d = wrap_dim(dim, self.dim());
  IPT_CHECK(index.dim() <= 1, IndexError, "index_add_(): Index is supposed to be a vector");
  IPT_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int, RuntimeError,
            "index_add_(): Expected dtype int32/int64 for index");
  IPT_CHECK(self.dtype() == source.dtype(), RuntimeError, "index_add_(): self (", dtype_cpp_name(self.dtype()),
            ") and source (", dtype_cpp_name(source.dtype()), ") must have the same scalar type");
  IPT_CHECK(d == 0 || d < source.dim(), IndexError, "index_add_(): Indexing dim ", d,
            " is out of bounds of the source tensor with dim ", source.dim());
  const int64_t along = source.dim() == 0 ? 1 : source.sizes()[d];
  IPT_CHECK(index.numel() == along, RuntimeError, "index_add_(): Number of indices (", index.numel(),
            ") should be equal to source.size(dim): (", along, "), for dim: ", d);
  // As in PyTorch 2.15, each source slice has exactly a self slice's shape (the dim removed from
  // both, unless one of them is 0-dim): no broadcasting.
  std::vector<int64_t> self_slice = self.sizes(), source_slice = source.sizes();
  if (self.dim() != 0 && source.dim() != 0) {
    self_slice.erase(self_slice.begin() + d);
    source_slice.erase(source_slice.begin() + d);
  }
  IPT_CHECK(self_slice == source_slice, RuntimeError,
            "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = ",
            int_list_str(self.sizes()), " source.shape = ", int_list_str(source.sizes()));
}

namespace {
// A 0-dim tensor's sizes as PyTorch's scatter / gather see them (ensure_nonempty_size): [1].
std::vector<int64_t> nonempty_sizes(const Tensor& t) { return t.dim() == 0 ? std::vector<int64_t>{1} : t.sizes(); }

void check_index_dtype(const char* name, const Tensor& index) {
  IPT_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int, RuntimeError, name,
            "(): Expected dtype int32/int64 for index");
}
}  // namespace

int64_t gather_check(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim());
  check_index_dtype("gather", index);
  const std::vector<int64_t> ss = nonempty_sizes(self), is = nonempty_sizes(index);
  IPT_CHECK(is.size() == ss.size(), RuntimeError,
            "Index tensor must have the same number of dimensions as input tensor");
  for (size_t k = 0; k < ss.size(); ++k)
    IPT_CHECK(static_cast<int64_t>(k) == d || is[k] <= ss[k], RuntimeError, "Size does not match at dimension ", k,
              " expected index ", int_list_str(index.sizes()), " to be no larger than self ",
              int_list_str(self.sizes()), " apart from dimension ", d);
  return d;
}

int64_t scatter_check(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  const int64_t d = wrap_dim(dim, self.dim());
  check_index_dtype("scatter", index);
  if (src)
    IPT_CHECK(self.dtype() == src->dtype(), RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype");
  if (index.numel() == 0) return d;
  const std::vector<int64_t> ss = nonempty_sizes(self), is = nonempty_sizes(index);
  IPT_CHECK(is.size() == ss.size(), RuntimeError,
            "Index tensor must have the same number of dimensions as self tensor");
  if (src) {
    const std::vector<int64_t> rs = nonempty_sizes(*src);
    IPT_CHECK(is.size() == rs.size(), RuntimeError,
              "Index tensor must have the same number of dimensions as src tensor");
    bool fits = true;
    for (size_t k = 0; k < ss.size(); ++k)
      fits = fits && is[k] <= rs[k] && (static_cast<int64_t>(k) == d || is[k] <= ss[k]);
    IPT_CHECK(fits, RuntimeError, "Expected index ", int_list_str(index.sizes()), " to be no larger than self ",
              int_list_str(self.sizes()), " apart from dimension ", d, " and to be no larger size than src ",
              int_list_str(src->sizes()));
  } else {
    bool fits = true;
    for (size_t k = 0; k < ss.size(); ++k) fits = fits && (static_cast<int64_t>(k) == d || is[k] <= ss[k]);
    IPT_CHECK(fits, RuntimeError, "Expected index ", int_list_str(index.sizes()), " to be no larger than self ",
              int_list_str(self.sizes()), " apart from dimension ", d);
  }
  return d;
}

std::vector<int64_t> masked_select_shape(const Tensor& self, const Tensor& mask) {
  IPT_CHECK(mask.dtype() == ScalarType::Bool, RuntimeError, "masked_select: expected BoolTensor for mask");
  return broadcast_shapes(mask.sizes(), self.sizes());
}

ScatterReduction scatter_reduction(std::string_view reduce) {
  if (reduce == "sum") return ScatterReduction::Sum;
  if (reduce == "prod") return ScatterReduction::Prod;
  if (reduce == "mean") return ScatterReduction::Mean;
  if (reduce == "amax" || reduce == "max") return ScatterReduction::Amax;
  if (reduce == "amin" || reduce == "min") return ScatterReduction::Amin;
  IPT_FAIL(RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, got ", reduce);
}

std::string tensor_type_name(const Tensor& t) {
  std::string base;
  switch (t.dtype()) {
    case ScalarType::Float: base = "Float"; break;
    case ScalarType::Double: base = "Double"; break;
    case ScalarType::Half: base = "Half"; break;
    case ScalarType::BFloat16: base = "BFloat16"; break;
    case ScalarType::Long: base = "Long"; break;
    case ScalarType::Int: base = "Int"; break;
    case ScalarType::Bool: base = "Bool"; break;
    default: base = dtype_cpp_name(t.dtype()); break;
  }
  return std::string(t.device().type == DeviceType::CUDA ? "torch.cuda." : "torch.") + base + "Tensor";
}

}  // namespace ipt
