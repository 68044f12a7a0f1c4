#pragma once
// Dispatcher: the process-wide registry of operators and backend fallbacks, and the
// machinery every generated operator function uses to pick and call a kernel.
//
// Note [What a dispatch records]
// With tracing on, each call and each redispatch records one DispatchStep slice (Begin/End)
// holding: the operator, each tensor argument's key set, the thread-local included and
// excluded sets, the merged set the table was indexed with, the keys skipped because their
// entries are fallthroughs, the chosen key, and the kernel with its kind and registration
// site. Redispatches happen inside the wrapper kernel's slice, so the chain
// AutogradCPU -> ADInplaceOrView -> CPU appears as nested slices.

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/dispatch/operator_entry.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt {

class Dispatcher {
 public:
  // The dispatcher with every operator, kernel, fallback and backend registered: on first use it
  // runs the operator registrar, then registers the fallbacks, then each backend's kernels.
  static Dispatcher& singleton();

  // `signature` is its kernels' C++ signature as _dispatch_dump prints it ("(Tensor _0) -> Tensor _0"),
  // `registered_at` where the schema was registered ("build/generated/register_operators.cpp:12").
  OperatorEntry& register_operator(const std::string& name, const std::string& overload, const std::string& schema,
                                   const char* signature = "", const char* registered_at = "");
  // "aten::add.Tensor" (or "aten::add" for the overload-less operator); null if unknown.
  OperatorEntry* find(std::string_view full_name);
  OperatorEntry& get(std::string_view full_name);  // throws RuntimeError if unknown
  const std::vector<std::unique_ptr<OperatorEntry>>& operators() const { return ops_; }

  void register_fallback(DispatchKey runtime_key, KernelFunction k);
  const KernelFunction* backend_fallback(DispatchKey runtime_key) const;
  void update_all_tables();

 private:
  Dispatcher() = default;
  std::vector<std::unique_ptr<OperatorEntry>> ops_;
  std::unordered_map<std::string, OperatorEntry*> by_name_;
  std::array<KernelFunction, kNumDispatchTableSlots> fallbacks_{};
};

// The key set a call is dispatched on: (arg keys | included) - excluded, restricted to the
// operator's non-fallthrough keys.
inline DispatchKeySet dispatch_key_set(const OperatorEntry& op, DispatchKeySet arg_keys) {
  const LocalDispatchKeySet& tls = local_dispatch_key_set();
  return ((arg_keys | tls.included) - tls.excluded) & op.non_fallthrough_keys();
}

// Raises PyTorch's NotImplementedError for a key with no kernel.
[[noreturn]] void report_missing_kernel(const OperatorEntry& op, DispatchKeySet ks);

inline const TableEntry& lookup_or_throw(const OperatorEntry& op, DispatchKeySet ks) {
  const TableEntry& e = op.lookup(ks);
  if (e.kernel.fn == nullptr) report_missing_kernel(op, ks);
  return e;
}

// Records one dispatch step as a Begin/End slice for its lifetime (tracing on only).
class DispatchTraceScope {
 public:
  DispatchTraceScope(const OperatorEntry& op, const TableEntry& e, DispatchKeySet arg_keys, DispatchKeySet ks,
                     bool redispatch, std::initializer_list<DispatchKeySet> per_arg);
  ~DispatchTraceScope();
  // True for a call made directly by the user's program (not from inside another kernel).
  bool outermost() const { return depth_ == 1; }

 private:
  const char* name_;
  int depth_;
};

// The function that registers the operator library: every operator's schema, then the kernels
// that are no backend's (composite, Autograd, ADInplaceOrView, BackendSelect, Autocast). It is
// generated (build/generated/register_core_kernels.cpp, in core/autograd's library), which installs
// it when the program starts, so the dispatcher names none of the operators it serves and sits
// below them (Note [The runtime's layers] in core/CMakeLists.txt). Without one the dispatcher
// starts empty. Installing it after the dispatcher was first used is a build error: it aborts.
void set_operator_registrar(void (*register_all)(Dispatcher&));

}  // namespace ipt
