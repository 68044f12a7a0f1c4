#include "core/tensor/tensor.h"

#include <algorithm>
#include <atomic>

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/tensor/index_math.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt {

static std::atomic<uint64_t> g_next_tensor_id{1};
// As storages (storage.cpp): tensors made on threads that record nothing are numbered apart.
static std::atomic<uint64_t> g_next_unrecorded_tensor_id{uint64_t(1) << 62};

TensorImpl::TensorImpl(StoragePtr storage, ScalarType dtype, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                       int64_t storage_offset, std::shared_ptr<VersionCounter> version, DispatchKeySet key_set)
    : id_((trace::detail::t_muted ? g_next_unrecorded_tensor_id : g_next_tensor_id)
              .fetch_add(1, std::memory_order_relaxed)),
      storage_(std::move(storage)),
      dtype_(dtype),
      sizes_(std::move(sizes)),
      strides_(std::move(strides)),
      storage_offset_(storage_offset),
      numel_(numel_of(sizes_)),
      version_(std::move(version)),
      key_set_(key_set),
      is_contiguous_(compute_is_contiguous(sizes_, strides_)) {}

// A view autograd follows requires grad whenever its base does (PyTorch's DifferentiableViewMeta).
bool TensorImpl::requires_grad() const {
  return requires_grad_ || autograd_meta_grad_fn() || (is_differentiable_view() && view_base_->requires_grad());
}

void TensorImpl::set_geometry(std::vector<int64_t> sizes, std::vector<int64_t> strides) {
  numel_ = numel_of(sizes);
  is_contiguous_ = compute_is_contiguous(sizes, strides);
  sizes_ = std::move(sizes);
  strides_ = std::move(strides);
}

void TensorImpl::resize_contiguous(std::vector<int64_t> sizes) {
  const int64_t n = numel_of(sizes);
  const int64_t itemsize = static_cast<int64_t>(element_size(dtype_));
  const int64_t nbytes = contiguous_storage_bytes(sizes, itemsize);
  int64_t needed = 0;
  IPT_CHECK(!__builtin_add_overflow(nbytes, storage_offset_ * itemsize, &needed), RuntimeError,
            "Storage size calculation overflowed with sizes=", int_list_str(sizes));
  if (static_cast<size_t>(needed) > storage_->nbytes()) {
    storage_ = std::make_shared<Storage>(static_cast<size_t>(nbytes), storage_->device());
    storage_offset_ = 0;
  }
  strides_ = contiguous_strides(sizes);
  sizes_ = std::move(sizes);
  numel_ = n;
  is_contiguous_ = true;
}

// A 0-dim tensor has no size to give (wrap_dim alone would let dim 0 through).
static int64_t checked_dim(int64_t d, int64_t ndim) {
  IPT_CHECK(ndim > 0, IndexError, "Dimension specified as ", d, " but tensor has no dimensions");
  return wrap_dim(d, ndim);
}
int64_t Tensor::size(int64_t d) const { return sizes()[checked_dim(d, dim())]; }
int64_t Tensor::stride(int64_t d) const { return strides()[checked_dim(d, dim())]; }

bool inference_mode_enabled() {
  // Inside torch.inference_mode() ADInplaceOrView is no longer thread-locally included.
  return !local_dispatch_key_set().included.has(Functionality::ADInplaceOrView);
}

Tensor make_empty(std::span<const int64_t> sizes, ScalarType dtype, Device device) {
  for (int64_t s : sizes)
    IPT_CHECK(s >= 0, RuntimeError, "Trying to create tensor with negative dimension ", s, ": ", int_list_str(sizes));
  const int64_t nbytes = contiguous_storage_bytes(sizes, static_cast<int64_t>(element_size(dtype)));
  auto storage = std::make_shared<Storage>(static_cast<size_t>(nbytes), device);
  std::vector<int64_t> sz(sizes.begin(), sizes.end());
  auto strides = contiguous_strides(sz);
  return Tensor(std::make_shared<TensorImpl>(std::move(storage), dtype, std::move(sz), std::move(strides), 0,
                                             std::make_shared<VersionCounter>(),
                                             tensor_key_set(backend_of(device.type), inference_mode_enabled())));
}

Tensor make_empty_strided(std::span<const int64_t> sizes, std::span<const int64_t> strides, ScalarType dtype,
                          Device device) {
  IPT_CHECK(sizes.size() == strides.size(), RuntimeError, "mismatch in length of strides and shape");
  int64_t span = numel_of(sizes) == 0 ? 0 : 1;
  for (size_t i = 0; i < sizes.size() && span; ++i) span += (sizes[i] - 1) * strides[i];
  Tensor base = make_empty(std::vector<int64_t>{span}, dtype, device);
  Tensor out = make_view(base, std::vector<int64_t>(sizes.begin(), sizes.end()),
                         std::vector<int64_t>(strides.begin(), strides.end()), 0);
  out.impl()->set_is_view(false);  // a new tensor (its storage is nobody else's), not a view
  return out;
}

static bool follows_layout_of(std::span<const int64_t> sizes, const Tensor& like) {
  return !like.is_contiguous() && std::equal(sizes.begin(), sizes.end(), like.sizes().begin(), like.sizes().end());
}

std::vector<int64_t> layout_strides_like(std::span<const int64_t> sizes, const Tensor& like) {
  // Contiguous strides in like's stride order (its own strides when it is dense).
  if (follows_layout_of(sizes, like)) return infer_dense_strides(like.sizes(), like.strides());
  return contiguous_strides(sizes);
}

Tensor make_empty_like_layout(std::span<const int64_t> sizes, ScalarType dtype, Device device, const Tensor& like) {
  if (!follows_layout_of(sizes, like)) return make_empty(sizes, dtype, device);
  std::vector<int64_t> strides = layout_strides_like(sizes, like);
  Tensor base = make_empty(std::vector<int64_t>{numel_of(sizes)}, dtype, device);
  auto impl = std::make_shared<TensorImpl>(base.storage(), dtype, std::vector<int64_t>(sizes.begin(), sizes.end()),
                                           std::move(strides), 0, std::make_shared<VersionCounter>(), base.key_set());
  return Tensor(std::move(impl));
}

Tensor make_view(const Tensor& base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t storage_offset) {
  auto impl = std::make_shared<TensorImpl>(base.storage(), base.dtype(), std::move(sizes), std::move(strides),
                                           storage_offset, base.impl()->version_counter(), base.key_set());
  impl->set_is_view(true);
  return Tensor(std::move(impl));
}

double element_as_double(const Tensor& t, int64_t linear) {
  IPT_CHECK(t.device().type != DeviceType::Meta, NotImplementedError, "Cannot copy out of meta tensor; no data!");
  auto idx = unravel_index(linear, t.sizes());
  int64_t off = element_offset(0, t.strides(), idx);
  if (t.dtype() == ScalarType::Bool)  // any byte of an uninitialized bool (torch.empty) is defined here
    return static_cast<const uint8_t*>(t.impl()->raw_data())[off] != 0 ? 1.0 : 0.0;
  return visit_dtype(t.dtype(), [&]<typename T>() { return static_cast<double>(t.data_ptr<T>()[off]); });
}

int64_t element_as_int64(const Tensor& t, int64_t linear) {
  IPT_CHECK(t.device().type != DeviceType::Meta, NotImplementedError, "Cannot copy out of meta tensor; no data!");
  auto idx = unravel_index(linear, t.sizes());
  int64_t off = element_offset(0, t.strides(), idx);
  if (t.dtype() == ScalarType::Bool) return static_cast<const uint8_t*>(t.impl()->raw_data())[off] != 0 ? 1 : 0;
  return visit_dtype(t.dtype(), [&]<typename T>() { return convert_element<int64_t>(t.data_ptr<T>()[off]); });
}

std::vector<int64_t> to_int64_vector(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = element_as_int64(t, i);
  return out;
}

std::vector<double> to_double_vector(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = element_as_double(t, i);
  return out;
}

}  // namespace ipt
