#include "core/dynamo/tensor_guard.h"

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

TensorMismatch TensorGuard::explain(const Tensor& t) const {
  if (matches(t)) return {};
  auto parts = [](std::string what, std::string expected, std::string actual) {
    return TensorMismatch{what + ". expected " + expected + ", actual " + actual, std::move(expected),
                          std::move(actual)};
  };
  const DispatchKeySet actual_keys = dispatch_keys_for_guard(t);
  if (actual_keys != keys_) return parts("dispatch key set mismatch", keys_.to_string(), actual_keys.to_string());
  if (t.dtype() != dtype_) return parts("dtype mismatch", dtype_cpp_name(dtype_), dtype_cpp_name(t.dtype()));
  if (!(t.device() == device_)) {
    // PyTorch words this one differently: "Expected device index to be 0, actual 1".
    const std::string e = std::to_string(device_.index), a = std::to_string(t.device().index);
    return {"Tensor device index mismatch. Expected device index to be " + e + ", actual " + a, e, a};
  }
  if (t.requires_grad() != requires_grad_)
    return {std::string("requires_grad mismatch. expected requires_grad=") + (requires_grad_ ? "1" : "0"),
            requires_grad_ ? "1" : "0", requires_grad_ ? "0" : "1"};
  if (t.sizes().size() != sizes_.size())
    return parts("rank mismatch", std::to_string(sizes_.size()), std::to_string(t.sizes().size()));
  for (size_t i = 0; i < sizes_.size(); ++i)
    if (sizes_[i] && *sizes_[i] != t.sizes()[i])
      return parts("size mismatch at index " + std::to_string(i), std::to_string(*sizes_[i]),
                   std::to_string(t.sizes()[i]));
  for (size_t i = 0; i < strides_.size(); ++i)
    if (strides_[i] && *strides_[i] != t.strides()[i])
      return parts("stride mismatch at index " + std::to_string(i), std::to_string(*strides_[i]),
                   std::to_string(t.strides()[i]));
  return {};
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
