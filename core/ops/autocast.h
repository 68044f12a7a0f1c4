#pragma once
// Autocast (torch.autocast): per-operator casts to a lower precision, done by a kernel under
// the AutocastCPU / AutocastCUDA key before the operator runs.
//
// Note [How autocast is switched on]
// There is no separate "enabled" flag: autocast for a device is on exactly when its Autocast
// key is missing from the thread-local excluded set (PyTorch 2.15 works the same way). By
// default every Autocast key is excluded, so every call skips them. torch.autocast("cpu") removes
// AutocastCPU; then every call on CPU tensors enters the AutocastCPU kernel. Operators with a
// cast policy (core/ops/autocast.yaml) get a generated kernel there that casts their floating
// arguments and calls the operator again with the key excluded; the rest fall through.
//
// Casts of leaf float32 tensors that require grad (the parameters of a model) to the lower
// precision are cached for the outermost autocast region, so a weight used twice is cast once
// and both uses share one ToCopyBackward0 node; the cache is cleared when the region ends.

#include <optional>
#include <vector>

#include "core/tensor/device.h"
#include "core/tensor/scalar_type.h"
#include "core/tensor/tensor.h"

namespace ipt::autocast {

bool is_enabled(DeviceType d);
void set_enabled(DeviceType d, bool enabled);
// The lower-precision dtype of each device: bfloat16 for CPU, float16 for CUDA by default.
ScalarType lower_precision_dtype(DeviceType d);
void set_lower_precision_dtype(DeviceType d, ScalarType t);  // any dtype, as 2.15
int increment_nesting();
int decrement_nesting();  // returns the depth left
bool is_cache_enabled();
void set_cache_enabled(bool enabled);
void clear_cache();

// A floating tensor on device d other than float64: what autocast casts.
bool is_eligible(const Tensor& t, DeviceType d);

// Casting of one argument of an operator: eligible tensors become `to`, everything else
// (integers, doubles, non-tensor arguments) passes through unchanged.
Tensor cast(ScalarType to, DeviceType d, const Tensor& t);
std::optional<Tensor> cast(ScalarType to, DeviceType d, const std::optional<Tensor>& t);
std::vector<Tensor> cast(ScalarType to, DeviceType d, const std::vector<Tensor>& ts);
template <typename T>
const T& cast(ScalarType, DeviceType, const T& v) {
  return v;
}

// The "promote" policy's target: float32 if any eligible argument is float32, else the lower
// precision (float64 arguments are left as they are and do not count).
class PromoteType {
 public:
  explicit PromoteType(DeviceType d) : device_(d), type_(lower_precision_dtype(d)) {}
  void see(const Tensor& t);
  void see(const std::optional<Tensor>& t) {
    if (t) see(*t);
  }
  void see(const std::vector<Tensor>& ts) {
    for (const auto& t : ts) see(t);
  }
  template <typename T>
  void see(const T&) {}
  ScalarType type() const { return type_; }

 private:
  DeviceType device_;
  ScalarType type_;
};

// The "fp32_set_opt_dtype" policy: when the first argument is eligible and no dtype was
// given, the operator runs with dtype=float32 (inputs are not cast).
inline std::optional<ScalarType> fp32_unless_given(const std::optional<ScalarType>& dtype) {
  return dtype ? dtype : std::optional<ScalarType>(ScalarType::Float);
}

}  // namespace ipt::autocast
