#include "core/dispatch/local_dispatch_key_set.h"

namespace ipt {

static thread_local LocalDispatchKeySet tls_keys;
static thread_local bool tls_grad_mode = true;

LocalDispatchKeySet& local_dispatch_key_set() { return tls_keys; }
bool grad_mode_enabled() { return tls_grad_mode; }
void set_grad_mode_enabled(bool enabled) { tls_grad_mode = enabled; }

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet ks) : saved_(tls_keys) {
  tls_keys.included = tls_keys.included | ks;
}
IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() { tls_keys = saved_; }

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet ks) : saved_(tls_keys) {
  tls_keys.excluded = tls_keys.excluded | ks;
}
ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() { tls_keys = saved_; }

GradModeGuard::GradModeGuard(bool enabled) : saved_(tls_grad_mode) { tls_grad_mode = enabled; }
GradModeGuard::~GradModeGuard() { tls_grad_mode = saved_; }

InferenceModeGuard::InferenceModeGuard(bool enabled) : saved_keys_(tls_keys), saved_grad_(tls_grad_mode) {
  tls_grad_mode = !enabled;  // as c10::InferenceMode: grad mode is the opposite of inference mode
  if (enabled) {
    tls_keys.included = tls_keys.included - DispatchKeySet(Functionality::ADInplaceOrView);
    tls_keys.excluded = tls_keys.excluded | keysets::autograd_dispatch_keyset;
  } else {
    tls_keys.included = tls_keys.included | DispatchKeySet(Functionality::ADInplaceOrView);
    tls_keys.excluded = tls_keys.excluded - keysets::autograd_dispatch_keyset;
  }
}
InferenceModeGuard::~InferenceModeGuard() {
  tls_keys = saved_keys_;
  tls_grad_mode = saved_grad_;
}

}  // namespace ipt
