#pragma once
// Thread-local dispatch state: the included/excluded key sets and grad mode, with RAII guards.
//
// Note [Thread-local included and excluded keys]
// Each call's key set is  (keys of its tensor arguments | included) - excluded.
// By default `included` = {BackendSelect, ADInplaceOrView} and `excluded` = the Autocast
// keys (autocast is off), exactly PyTorch 2.15's defaults. Guards change them for a scope:
//   - NoGradGuard (torch.no_grad()) only turns grad mode off: the Autograd key is still
//     entered, its kernel just decides not to record a graph.
//   - AutoDispatchBelowAutograd excludes the Autograd keys: their kernels are skipped.
//   - InferenceMode does both, and also stops including ADInplaceOrView; tensors created
//     inside get no ADInplaceOrView/Autograd keys at all.

#include "core/dispatch/dispatch_key_set.h"

namespace ipt {

struct LocalDispatchKeySet {
  DispatchKeySet included = keysets::default_included;
  DispatchKeySet excluded = keysets::default_excluded;
};

LocalDispatchKeySet& local_dispatch_key_set();
bool grad_mode_enabled();
void set_grad_mode_enabled(bool enabled);

// Adds keys to the thread-local included set for the scope.
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet ks);
  ~IncludeDispatchKeyGuard();
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  LocalDispatchKeySet saved_;
};

// Adds keys to the thread-local excluded set for the scope.
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet ks);
  ~ExcludeDispatchKeyGuard();
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  LocalDispatchKeySet saved_;
};

// torch.no_grad() / torch.enable_grad(): sets grad mode for the scope.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled);
  ~GradModeGuard();

 private:
  bool saved_;
};
struct NoGradGuard : GradModeGuard {
  NoGradGuard() : GradModeGuard(false) {}
};

// at::AutoDispatchBelowAutograd: skip the Autograd keys for the scope.
struct AutoDispatchBelowAutograd : ExcludeDispatchKeyGuard {
  AutoDispatchBelowAutograd() : ExcludeDispatchKeyGuard(keysets::autograd_dispatch_keyset) {}
};

// torch.inference_mode(enabled).
class InferenceModeGuard {
 public:
  explicit InferenceModeGuard(bool enabled = true);
  ~InferenceModeGuard();

 private:
  LocalDispatchKeySet saved_keys_;
  bool saved_grad_;
};

}  // namespace ipt
