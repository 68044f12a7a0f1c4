#pragma once
// TensorImpl: one tensor's metadata over a (possibly shared) Storage.
//
// Note [Strided layout]
// Element (i0, i1, ..., ik) of a tensor lives at storage element
//     storage_offset + i0*stride0 + i1*stride1 + ... + ik*stridek
// (in units of elements, not bytes). Views (transpose, slicing, expand, ...) make a new
// TensorImpl with other sizes/strides/offset over the *same* Storage and the same version
// counter; copies (contiguous of a non-contiguous tensor, clone) get a new Storage.

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/dispatch/dispatch_key_set.h"
#include "core/tensor/device.h"
#include "core/tensor/scalar_type.h"
#include "core/tensor/storage.h"

namespace ipt {

// What a tensor's autograd metadata tells the tensor itself (PyTorch's c10::AutogradMetaInterface).
// core/autograd's AutogradMeta implements it; the tensor holds it without knowing autograd, so
// core/tensor sits below core/autograd (Note [The runtime's layers] in core/CMakeLists.txt).
struct AutogradMetaInterface {
  virtual ~AutogradMetaInterface() = default;
  virtual bool has_grad_fn() const = 0;
};

// Counts in-place modifications of a storage's data; shared by a tensor and its views.
struct VersionCounter {
  std::atomic<uint64_t> version{0};
};

// How a view was made, for autograd (PyTorch's CreationMeta). An in-place write that autograd
// records into a view made in no-grad mode, in inference mode or by an operator returning several
// views (split, unbind) is refused; detach() makes a view autograd does not follow at all.
enum class ViewCreation : uint8_t { Default, NoGradMode, InferenceMode, MultiOutput, NotDifferentiable };

class TensorImpl {
 public:
  TensorImpl(StoragePtr storage, ScalarType dtype, std::vector<int64_t> sizes, std::vector<int64_t> strides,
             int64_t storage_offset, std::shared_ptr<VersionCounter> version, DispatchKeySet key_set);

  uint64_t id() const { return id_; }
  const StoragePtr& storage() const { return storage_; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return storage_->device(); }
  const std::vector<int64_t>& sizes() const { return sizes_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  int64_t storage_offset() const { return storage_offset_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  bool is_contiguous() const { return is_contiguous_; }
  DispatchKeySet key_set() const { return key_set_; }
  const std::shared_ptr<VersionCounter>& version_counter() const { return version_; }
  uint64_t version() const { return version_->version.load(std::memory_order_relaxed); }
  void bump_version() { version_->version.fetch_add(1, std::memory_order_relaxed); }

  // True for a leaf marked requires_grad, or for any tensor with a grad_fn.
  bool requires_grad() const;
  void set_requires_grad(bool r) { requires_grad_ = r; }
  // Null until autograd gives the tensor its metadata (autograd::autograd_meta).
  AutogradMetaInterface* autograd_meta() const { return autograd_.get(); }
  void set_autograd_meta(std::shared_ptr<AutogradMetaInterface> meta) { autograd_ = std::move(meta); }
  bool is_view() const { return is_view_; }
  // The tensor this one is a view of (its root).
  std::shared_ptr<TensorImpl> view_base() const { return view_base_; }
  void set_view_base(const std::shared_ptr<TensorImpl>& b) {
    view_base_ = b;
    view_created_version_ = version();
  }
  uint64_t view_created_version() const { return view_created_version_; }
  bool autograd_meta_grad_fn() const { return autograd_ && autograd_->has_grad_fn(); }
  void set_is_view(bool v) { is_view_ = v; }
  ViewCreation view_creation() const { return view_creation_; }
  void set_view_creation(ViewCreation c) { view_creation_ = c; }
  // A view autograd follows: an in-place write into it rebases its base's history (CopySlices).
  bool is_differentiable_view() const {
    return is_view_ && view_base_ && view_creation_ != ViewCreation::NotDifferentiable;
  }
  bool is_inference() const { return !key_set_.has(Functionality::ADInplaceOrView); }
  // A 0-dim tensor made from a Python number (participates in type promotion like a number).
  bool is_wrapped_number() const { return wrapped_number_; }
  void set_wrapped_number(bool w) { wrapped_number_ = w; }

  // Replaces sizes and strides in place (squeeze_, unsqueeze_: in-place view operators).
  void set_geometry(std::vector<int64_t> sizes, std::vector<int64_t> strides);
  // Resizes in place to contiguous `sizes` (PyTorch's resize_ for out= arguments): keeps
  // the storage when it is large enough, otherwise allocates a new one on the same device.
  void resize_contiguous(std::vector<int64_t> sizes);

  // The Python object wrapping this tensor, if one is alive (borrowed; set and cleared by the
  // Python front end under the GIL). See Note [One Python object per tensor] in
  // core/python/tensor_object.h. Core code never dereferences it.
  void* pyobj() const { return pyobj_; }
  void set_pyobj(void* o) { pyobj_ = o; }

  // `t.data = src`: this tensor now views src's storage with src's dtype and geometry
  // (autograd state and identity stay).
  void set_data_from(const TensorImpl& src) {
    storage_ = src.storage_;
    dtype_ = src.dtype_;
    sizes_ = src.sizes_;
    strides_ = src.strides_;
    storage_offset_ = src.storage_offset_;
    numel_ = src.numel_;
    is_contiguous_ = src.is_contiguous_;
  }

  // Typed pointer to storage element 0 of this tensor (data + storage_offset).
  template <typename T>
  T* data() const {
    return static_cast<T*>(storage_->data()) + storage_offset_;
  }
  void* raw_data() const {
    return static_cast<char*>(storage_->data()) + storage_offset_ * static_cast<int64_t>(element_size(dtype_));
  }

 private:
  uint64_t id_;
  StoragePtr storage_;
  ScalarType dtype_;
  std::vector<int64_t> sizes_;
  std::vector<int64_t> strides_;
  int64_t storage_offset_;
  int64_t numel_;
  std::shared_ptr<VersionCounter> version_;
  DispatchKeySet key_set_;
  bool is_contiguous_;
  bool requires_grad_ = false;
  std::shared_ptr<AutogradMetaInterface> autograd_;
  std::shared_ptr<TensorImpl> view_base_;  // strong, as PyTorch's view base_ (needed to regenerate history)
  uint64_t view_created_version_ = 0;
  bool is_view_ = false;
  ViewCreation view_creation_ = ViewCreation::Default;
  bool wrapped_number_ = false;
  void* pyobj_ = nullptr;
};

}  // namespace ipt
