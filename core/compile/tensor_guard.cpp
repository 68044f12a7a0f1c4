#include "core/compile/tensor_guard.h"

#include <sstream>

#include "core/dispatch/local_dispatch_key_set.h"

namespace ipt::compile {

DispatchKeySet dispatch_keys_for_guard(const Tensor& t) {
  const LocalDispatchKeySet& local = local_dispatch_key_set();
  return (t.key_set() | local.included) - local.excluded;
}

TensorGuard TensorGuard::of(const Tensor& t, const std::vector<int64_t>& dynamic_dims) {
  TensorGuard g;
  g.keys_ = dispatch_keys_for_guard(t);
  g.dtype_ = t.dtype();
  g.device_ = t.device();
  g.requires_grad_ = t.requires_grad();
  const auto& sizes = t.sizes();
  const auto& strides = t.strides();
  const size_t n = sizes.size();
  std::vector<bool> dynamic(n, false);
  for (int64_t d : dynamic_dims)
    if (d >= 0 && static_cast<size_t>(d) < n) dynamic[static_cast<size_t>(d)] = true;
  for (size_t i = 0; i < n; ++i) g.sizes_.push_back(dynamic[i] ? std::nullopt : std::optional<int64_t>(sizes[i]));
  // A stride depends on a dynamic size when it spans that dimension: in a contiguous layout,
  // stride[i] is the product of the sizes after i, so any dynamic dimension after i frees it.
  for (size_t i = 0; i < n; ++i) {
    bool depends = false;
    for (size_t j = i + 1; j < n; ++j)
      if (dynamic[j] && strides[i] != 0 && strides[i] >= strides[j] * sizes[j] && sizes[j] > 1) depends = true;
    g.strides_.push_back(depends ? std::nullopt : std::optional<int64_t>(strides[i]));
  }
  return g;
}

bool TensorGuard::matches(const Tensor& t) const {
  if (dispatch_keys_for_guard(t) != keys_ || t.dtype() != dtype_ || !(t.device() == device_) ||
      t.requires_grad() != requires_grad_ || t.sizes().size() != sizes_.size())
    return false;
  for (size_t i = 0; i < sizes_.size(); ++i)
    if ((sizes_[i] && *sizes_[i] != t.sizes()[i]) || (strides_[i] && *strides_[i] != t.strides()[i])) return false;
  return true;
}

std::string TensorGuard::mismatch(const Tensor& t) const {
  if (matches(t)) return "";
  std::ostringstream why;
  const DispatchKeySet actual_keys = dispatch_keys_for_guard(t);
  if (actual_keys != keys_) {
    why << "dispatch key set mismatch. expected " << keys_.to_string() << ", actual " << actual_keys.to_string();
  } else if (t.dtype() != dtype_) {
    why << "dtype mismatch. expected " << dtype_cpp_name(dtype_) << ", actual " << dtype_cpp_name(t.dtype());
  } else if (!(t.device() == device_)) {
    why << "Tensor device index mismatch. Expected device index to be " << device_.index << ", actual "
        << t.device().index;
  } else if (t.requires_grad() != requires_grad_) {
    why << "requires_grad mismatch. expected requires_grad=" << (requires_grad_ ? 1 : 0);
  } else if (t.sizes().size() != sizes_.size()) {
    why << "rank mismatch. expected " << sizes_.size() << ", actual " << t.sizes().size();
  } else {
    for (size_t i = 0; i < sizes_.size(); ++i)
      if (sizes_[i] && *sizes_[i] != t.sizes()[i]) {
        why << "size mismatch at index " << i << ". expected " << *sizes_[i] << ", actual " << t.sizes()[i];
        return why.str();
      }
    for (size_t i = 0; i < strides_.size(); ++i)
      if (strides_[i] && *strides_[i] != t.strides()[i]) {
        why << "stride mismatch at index " << i << ". expected " << *strides_[i] << ", actual " << t.strides()[i];
        return why.str();
      }
  }
  return why.str();
}

namespace {
std::string dims(const std::vector<std::optional<int64_t>>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += v[i] ? std::to_string(*v[i]) : "None";
  }
  return s + "]";
}
}  // namespace

std::string TensorGuard::repr(std::string_view source) const {
  std::string s = "check_tensor(";
  s += source;
  s += ", Tensor, " + keys_.to_string() + ", " + dtype_repr(dtype_) + ", device=";
  s += device_.type == DeviceType::CPU ? std::string("None") : std::to_string(device_.index < 0 ? 0 : device_.index);
  s += std::string(", requires_grad=") + (requires_grad_ ? "True" : "False");
  s += ", size=" + dims(sizes_) + ", stride=" + dims(strides_) + ")";
  return s;
}

}  // namespace ipt::compile
