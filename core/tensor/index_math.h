#pragma once
// Index math as small free functions: contiguous strides, dimension wrapping, shape
// inference, broadcasting and the view-stride computation. Errors name the bad values
// with PyTorch's wording.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ipt {

// Row-major strides for `sizes` (a dimension of size 0 or 1 still gets a stride).
std::vector<int64_t> contiguous_strides(std::span<const int64_t> sizes);
// The product of the sizes; RuntimeError "numel: integer multiplication overflow" when it does
// not fit in int64 (PyTorch's safe_compute_numel).
int64_t numel_of(std::span<const int64_t> sizes);
// Bytes of storage that (sizes, strides, offset) address with elements of `itemsize`, overflow
// checked: RuntimeError "Storage size calculation overflowed with sizes=[...] and strides=[...]"
// (without strides: contiguous). 0 when a size is 0.
int64_t storage_bytes_needed(std::span<const int64_t> sizes, std::span<const int64_t> strides, int64_t offset,
                             int64_t itemsize);
int64_t contiguous_storage_bytes(std::span<const int64_t> sizes, int64_t itemsize);
// Whether (sizes, strides) is row-major contiguous, ignoring strides of size-1 dims.
bool compute_is_contiguous(std::span<const int64_t> sizes, std::span<const int64_t> strides);

// Whether the elements exactly tile numel consecutive storage slots in some dim order
// (no gaps, no overlaps): true for permutations of contiguous tensors.
bool is_non_overlapping_and_dense(std::span<const int64_t> sizes, std::span<const int64_t> strides);

// The order TensorIterator visits dims in, outermost first: sorted so the largest stride is
// outermost (an insertion sort from the innermost dim: a dim moves inwards past one with a larger
// stride, or an equal stride and a larger size; a stride of 0 decides nothing).
std::vector<size_t> stride_order(std::span<const int64_t> sizes, std::span<const int64_t> strides);
// Contiguous strides in stride_order (PyTorch's infer_dense_strides): the layout empty_like,
// clone and elementwise results take for an input that is not dense.
std::vector<int64_t> infer_dense_strides(std::span<const int64_t> sizes, std::span<const int64_t> strides);

// Wraps a possibly negative dim; IndexError "Dimension out of range (expected to be in
// range of [-2, 1], but got 2)". A 0-dim tensor accepts dims -1 and 0.
int64_t wrap_dim(int64_t dim, int64_t ndim);

// Replaces one -1 in `shape` to make numel match; RuntimeError "shape '[2, 5]' is invalid
// for input of size 12" or "only one dimension can be inferred".
std::vector<int64_t> infer_size(std::span<const int64_t> shape, int64_t numel);

// Strides for viewing (old_sizes, old_strides) as new_sizes without copying, or nullopt
// when the memory layout does not allow it. See Note [View stride computation] in the .cpp.
std::optional<std::vector<int64_t>> compute_view_strides(std::span<const int64_t> old_sizes,
                                                         std::span<const int64_t> old_strides,
                                                         std::span<const int64_t> new_sizes);

// Broadcast shape of a and b; RuntimeError "The size of tensor a (3) must match the size of
// tensor b (4) at non-singleton dimension 1".
std::vector<int64_t> broadcast_shapes(std::span<const int64_t> a, std::span<const int64_t> b);

// Storage element offset of the element at `index` (storage_offset + sum index_k*stride_k).
int64_t element_offset(int64_t storage_offset, std::span<const int64_t> strides, std::span<const int64_t> index);
// Row-major logical index of linear position `linear` in `sizes`.
std::vector<int64_t> unravel_index(int64_t linear, std::span<const int64_t> sizes);

// "[2, 3]" as PyTorch prints int lists in messages.
std::string int_list_str(std::span<const int64_t> v);

}  // namespace ipt
