#include "core/tensor/index_math.h"

#include <algorithm>
#include <string>

#include "core/util/error.h"

namespace ipt {

std::vector<int64_t> contiguous_strides(std::span<const int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running *= sizes[i] > 1 ? sizes[i] : 1;
  }
  return strides;
}

int64_t numel_of(std::span<const int64_t> sizes) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) overflow |= __builtin_mul_overflow(n, s, &n);
  IPT_CHECK(!overflow, RuntimeError, "numel: integer multiplication overflow");
  return n;
}

int64_t contiguous_storage_bytes(std::span<const int64_t> sizes, int64_t itemsize) {
  int64_t n = itemsize;
  bool overflow = false, empty = false;
  for (int64_t s : sizes) {
    empty |= s == 0;
    overflow |= __builtin_mul_overflow(n, s, &n);
  }
  if (empty) return 0;
  IPT_CHECK(!overflow, RuntimeError, "Storage size calculation overflowed with sizes=", int_list_str(sizes));
  return n;
}

int64_t storage_bytes_needed(std::span<const int64_t> sizes, std::span<const int64_t> strides, int64_t offset,
                             int64_t itemsize) {
  for (int64_t s : sizes)
    if (s == 0) return 0;
  // (offset + 1 + sum((size - 1) * stride)) * itemsize, every step checked.
  int64_t last = offset;
  bool overflow = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t step = 0;
    overflow |= __builtin_mul_overflow(sizes[i] - 1, strides[i], &step);
    overflow |= __builtin_add_overflow(last, step, &last);
  }
  int64_t bytes = 0;
  overflow |= __builtin_add_overflow(last, int64_t(1), &last);
  overflow |= __builtin_mul_overflow(last, itemsize, &bytes);
  IPT_CHECK(!overflow, RuntimeError, "Storage size calculation overflowed with sizes=", int_list_str(sizes),
            " and strides=", int_list_str(strides));
  return bytes;
}

bool compute_is_contiguous(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  if (numel_of(sizes) == 0) return true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

std::vector<size_t> stride_order(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  const size_t nd = sizes.size();
  auto should_swap = [&](size_t d0, size_t d1) {
    const int64_t s0 = strides[d0], s1 = strides[d1];
    if (s0 == 0 || s1 == 0) return 0;
    if (s0 != s1) return s0 < s1 ? -1 : 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  };
  std::vector<size_t> perm(nd);  // innermost first while sorting
  for (size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return std::vector<size_t>(perm.rbegin(), perm.rend());
}

std::vector<int64_t> infer_dense_strides(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  const std::vector<size_t> order = stride_order(sizes, strides);
  std::vector<int64_t> out(sizes.size());
  int64_t running = 1;
  for (size_t i = order.size(); i-- > 0;) {
    out[order[i]] = running;
    if (sizes[order[i]] > 1) running *= sizes[order[i]];
  }
  return out;
}

bool is_non_overlapping_and_dense(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return sizes[a] < 2 || (sizes[b] >= 2 && strides[a] < strides[b]); });
  int64_t expected = 1;
  for (size_t i : order) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  int64_t n = ndim <= 0 ? 1 : ndim;  // a 0-dim tensor behaves as 1-dim for wrapping
  int64_t lo = -n, hi = n - 1;
  if (dim < lo || dim > hi)
    IPT_FAIL(IndexError, "Dimension out of range (expected to be in range of [", lo, ", ", hi, "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

std::string int_list_str(std::span<const int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

std::vector<int64_t> infer_size(std::span<const int64_t> shape, int64_t numel) {
  std::vector<int64_t> out(shape.begin(), shape.end());
  int64_t known = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      IPT_CHECK(!infer, RuntimeError, "only one dimension can be inferred");
      infer = i;
    } else {
      IPT_CHECK(out[i] >= 0, RuntimeError, "invalid shape dimension ", out[i], " at index ", i, " of shape ",
                int_list_str(shape));
      known *= out[i];
    }
  }
  bool ok = numel == known || (infer && known > 0 && numel % known == 0);
  IPT_CHECK(ok, RuntimeError, "shape '", int_list_str(shape), "' is invalid for input of size ", numel);
  if (infer) {
    IPT_CHECK(known != 0, RuntimeError, "cannot reshape tensor of 0 elements into shape ", int_list_str(shape),
              " because the unspecified dimension size -1 can be any value and is ambiguous");
    out[*infer] = numel / known;
  }
  return out;
}

// Note [View stride computation]
// A view can reuse the old memory when the new shape only splits or merges dimensions that
// are laid out as one contiguous "chunk". Walk the old dims from the innermost outwards,
// grouping them into chunks: a chunk ends where the next-outer dim's stride is not
// (size of the chunk so far) * (innermost stride of the chunk). Each chunk must be covered
// exactly by a run of new dims, which then get strides that step through the chunk
// row-major. Size-1 dims can go anywhere. If any chunk cannot be matched, a view is
// impossible and `reshape` must copy.
std::optional<std::vector<int64_t>> compute_view_strides(std::span<const int64_t> old_sizes,
                                                         std::span<const int64_t> old_strides,
                                                         std::span<const int64_t> new_sizes) {
  std::vector<int64_t> new_strides(new_sizes.size(), 0);
  int64_t numel = numel_of(old_sizes);
  if (numel == 0) {
    if (std::equal(old_sizes.begin(), old_sizes.end(), new_sizes.begin(), new_sizes.end()))
      return std::vector<int64_t>(old_strides.begin(), old_strides.end());
    return contiguous_strides(new_sizes);
  }
  if (old_sizes.empty()) return contiguous_strides(new_sizes);  // all new dims are 1

  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_stride = old_strides.back();
  int64_t chunk_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_sizes.size()) - 1; d >= 0; --d) {
    chunk_numel *= old_sizes[d];
    bool chunk_ends = d == 0 || (old_sizes[d - 1] != 1 && old_strides[d - 1] != chunk_numel * chunk_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < chunk_numel || new_sizes[view_d] == 1)) {
      new_strides[view_d] = view_numel * chunk_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    if (d > 0) {
      chunk_stride = old_strides[d - 1];
      chunk_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

std::vector<int64_t> broadcast_shapes(std::span<const int64_t> a, std::span<const int64_t> b) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t ia = static_cast<int64_t>(a.size()) - 1 - static_cast<int64_t>(i);
    int64_t ib = static_cast<int64_t>(b.size()) - 1 - static_cast<int64_t>(i);
    int64_t sa = ia >= 0 ? a[ia] : 1;
    int64_t sb = ib >= 0 ? b[ib] : 1;
    IPT_CHECK(sa == sb || sa == 1 || sb == 1, RuntimeError, "The size of tensor a (", sa,
              ") must match the size of tensor b (", sb, ") at non-singleton dimension ", n - 1 - i);
    out[n - 1 - i] = sa == 1 ? sb : sa;
  }
  return out;
}

int64_t element_offset(int64_t storage_offset, std::span<const int64_t> strides, std::span<const int64_t> index) {
  int64_t off = storage_offset;
  for (size_t k = 0; k < strides.size(); ++k) off += index[k] * strides[k];
  return off;
}

std::vector<int64_t> unravel_index(int64_t linear, std::span<const int64_t> sizes) {
  std::vector<int64_t> idx(sizes.size());
  for (size_t k = sizes.size(); k-- > 0;) {
    if (sizes[k] == 0) return idx;
    idx[k] = linear % sizes[k];
    linear /= sizes[k];
  }
  return idx;
}

}  // namespace ipt
