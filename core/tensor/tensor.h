#pragma once
// Tensor: a shared handle to a TensorImpl (what Python's torch.Tensor object holds).
// Operators live in the generated ipt::ops namespace (build/generated/ops.h); this class
// only carries metadata accessors.

#include <memory>
#include <span>
#include <vector>

#include "core/tensor/tensor_impl.h"

namespace ipt {

using IntArrayRef = std::span<const int64_t>;

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

  ScalarType dtype() const { return impl_->dtype(); }
  Device device() const { return impl_->device(); }
  const std::vector<int64_t>& sizes() const { return impl_->sizes(); }
  const std::vector<int64_t>& strides() const { return impl_->strides(); }
  int64_t size(int64_t dim) const;  // wraps negative dims; IndexError when out of range
  int64_t stride(int64_t dim) const;
  int64_t storage_offset() const { return impl_->storage_offset(); }
  int64_t dim() const { return impl_->dim(); }
  int64_t numel() const { return impl_->numel(); }
  bool is_contiguous() const { return impl_->is_contiguous(); }
  DispatchKeySet key_set() const { return impl_->key_set(); }
  const StoragePtr& storage() const { return impl_->storage(); }
  bool requires_grad() const { return impl_->requires_grad(); }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  template <typename T>
  T* data_ptr() const {
    return impl_->data<T>();
  }

 private:
  std::shared_ptr<TensorImpl> impl_;
};

// Allocates an uninitialised contiguous tensor (no dispatch, no trace): what backend
// kernels use for their outputs.
Tensor make_empty(std::span<const int64_t> sizes, ScalarType dtype, Device device);
// Like make_empty, but laid out in the same dim order as `like` when `like` is dense and
// non-overlapping with the same sizes (a transposed input gives a transposed output, as
// PyTorch's TensorIterator does); contiguous otherwise.
Tensor make_empty_like_layout(std::span<const int64_t> sizes, ScalarType dtype, Device device, const Tensor& like);
// The strides make_empty_like_layout gives a tensor of `sizes`.
std::vector<int64_t> layout_strides_like(std::span<const int64_t> sizes, const Tensor& like);
// empty_strided's tensor: a storage of exactly the elements `strides` reaches, not a view.
Tensor make_empty_strided(std::span<const int64_t> sizes, std::span<const int64_t> strides, ScalarType dtype,
                          Device device);
// A tensor viewing `base`'s storage with new geometry (shares storage and version counter).
Tensor make_view(const Tensor& base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t storage_offset);
// Reads element `linear` (row-major logical index) as a double; for printing and tests.
double element_as_double(const Tensor& t, int64_t linear);
// All elements in row-major logical order, as doubles.
std::vector<double> to_double_vector(const Tensor& t);
// The same as int64, exactly (integer dtypes past 2^53; floats through float_to_int64).
int64_t element_as_int64(const Tensor& t, int64_t linear);
std::vector<int64_t> to_int64_vector(const Tensor& t);

// Whether new tensors are created as inference tensors (inside torch.inference_mode()).
bool inference_mode_enabled();

}  // namespace ipt
