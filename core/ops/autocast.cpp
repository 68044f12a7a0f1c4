#include "core/ops/autocast.h"

#include <unordered_map>

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt::autocast {

namespace {

struct CachedCast {
  Tensor original;  // kept alive so its address cannot be reused while the entry exists
  Tensor cast;
};

struct State {
  ScalarType cpu_dtype = ScalarType::BFloat16;
  ScalarType cuda_dtype = ScalarType::Half;
  int nesting = 0;
  bool cache_enabled = true;
  std::unordered_map<const TensorImpl*, CachedCast> cache;
};
thread_local State tls;

DispatchKeySet key_of(DeviceType d) {
  IPT_CHECK(d == DeviceType::CPU || d == DeviceType::CUDA, RuntimeError,
            "User specified autocast device_type must be 'cuda' or 'cpu'");
  return DispatchKeySet(d == DeviceType::CPU ? Functionality::AutocastCPU : Functionality::AutocastCUDA);
}

}  // namespace

bool is_enabled(DeviceType d) { return !local_dispatch_key_set().excluded.has_any(key_of(d)); }

void set_enabled(DeviceType d, bool enabled) {
  auto& excluded = local_dispatch_key_set().excluded;
  excluded = enabled ? excluded - key_of(d) : excluded | key_of(d);
}

ScalarType lower_precision_dtype(DeviceType d) { return d == DeviceType::CUDA ? tls.cuda_dtype : tls.cpu_dtype; }

// PyTorch 2.15 stores any dtype here; torch.autocast checks it (bfloat16 or float16) and warns.
void set_lower_precision_dtype(DeviceType d, ScalarType t) {
  (d == DeviceType::CPU ? tls.cpu_dtype : tls.cuda_dtype) = t;
}

int increment_nesting() { return ++tls.nesting; }
int decrement_nesting() { return --tls.nesting; }
bool is_cache_enabled() { return tls.cache_enabled; }
void set_cache_enabled(bool enabled) { tls.cache_enabled = enabled; }
void clear_cache() { tls.cache.clear(); }

bool is_eligible(const Tensor& t, DeviceType d) {
  return t.defined() && t.device().type == d && is_floating(t.dtype()) && t.dtype() != ScalarType::Double;
}

Tensor cast(ScalarType to, DeviceType d, const Tensor& t) {
  if (!is_eligible(t, d) || t.dtype() == to) return t;
  // Only leaf float32 weights (requires_grad, not views) going down to the lower precision are
  // worth caching: they are the tensors used again and again within one region.
  const bool cacheable = tls.cache_enabled && to == lower_precision_dtype(d) && t.dtype() == ScalarType::Float &&
                         t.requires_grad() && !t.impl()->autograd_meta_grad_fn() && !t.impl()->is_view();
  if (cacheable) {
    auto it = tls.cache.find(t.impl());
    if (it != tls.cache.end()) return it->second.cast;
  }
  Tensor out = ops::_to_copy(t, to);
  if (cacheable) tls.cache.emplace(t.impl(), CachedCast{t, out});
  return out;
}

std::optional<Tensor> cast(ScalarType to, DeviceType d, const std::optional<Tensor>& t) {
  if (!t) return t;
  return cast(to, d, *t);
}

std::vector<Tensor> cast(ScalarType to, DeviceType d, const std::vector<Tensor>& ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const auto& t : ts) out.push_back(cast(to, d, t));
  return out;
}

void PromoteType::see(const Tensor& t) {
  if (!is_eligible(t, device_)) return;
  if (t.dtype() == ScalarType::Float) type_ = ScalarType::Float;
  else if (t.dtype() != lower_precision_dtype(device_) && type_ != ScalarType::Float)
    IPT_FAIL(RuntimeError, "Unexpected floating ScalarType in at::autocast::prioritize");
}

}  // namespace ipt::autocast
