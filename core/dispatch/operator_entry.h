#pragma once
// OperatorEntry: one operator's registrations and its computed dispatch table.
//
// Note [Registrations versus the dispatch table]
// Registrations remember every kernel registered for this operator, against runtime keys
// (CPU, AutogradCPU, BackendSelect, ...) or alias keys (CompositeImplicitAutograd,
// CompositeExplicitAutograd, Autograd). The *table* is computed from them: one entry per
// runtime key, filled in this order of precedence (PyTorch 2.15's rules):
//   1. a kernel registered directly for the key                       [kernel]
//   2. CompositeExplicitAutograd(NonFunctional), for backend keys     [default backend kernel]
//   3. CompositeImplicitAutograd, for backend and Autograd keys; for
//      an Autograd key only if no backend or explicit kernel exists  [math kernel]
//   4. the Autograd alias kernel, for Autograd keys                   [autograd kernel]
//   5. the dispatcher-wide fallback for the key                       [backend fallback]
//   6. nothing: calling it raises "Could not run ... with arguments from the ... backend".
// Entries that are fallthroughs are removed from every call's key set before the highest key
// is chosen (non_fallthrough_keys()), so the call lands on the next key below them.

#include <array>
#include <atomic>
#include <string>
#include <vector>

#include "core/dispatch/dispatch_key_set.h"
#include "core/dispatch/kernel_function.h"

namespace ipt {

class Dispatcher;

// Number of table slots: one per non-per-backend functionality, kNumBackends per
// per-backend functionality, plus Undefined.
int dispatch_table_slot(DispatchKey runtime_key);
constexpr int kNumDispatchTableSlots =
    1 + (kNumFunctionalities - kNumPerBackendFunctionalities) + kNumPerBackendFunctionalities * kNumBackends;

struct TableEntry {
  KernelFunction kernel;
  const char* kind =
      "missing";  // "kernel", "default backend kernel", "math kernel", "autograd kernel", "backend fallback", "missing"
};

class OperatorEntry {
 public:
  OperatorEntry(std::string name, std::string overload, std::string schema);

  const std::string& name() const { return name_; }            // "aten::add"
  const std::string& overload() const { return overload_; }    // "Tensor"
  const std::string& full_name() const { return full_name_; }  // "aten::add.Tensor"
  const char* full_name_cstr() const { return full_name_.c_str(); }
  const std::string& schema() const { return schema_; }  // "aten::add.Tensor(Tensor self, ...) -> Tensor"

  void register_kernel(DispatchKey key, KernelFunction k);
  // Recomputes every table entry (after registrations or fallbacks change).
  void update_table(const Dispatcher& d);

  // The entry for the highest-priority key of `ks` (ks already masked by non_fallthrough_keys()).
  const TableEntry& lookup(DispatchKeySet ks) const {
    return table_[static_cast<size_t>(dispatch_table_slot(ks.highest_priority_key()))];
  }
  const TableEntry& entry(DispatchKey runtime_key) const {
    return table_[static_cast<size_t>(dispatch_table_slot(runtime_key))];
  }
  DispatchKeySet non_fallthrough_keys() const { return non_fallthrough_; }

  // Cache of the trace slice name per runtime key (see step_name in dispatcher.cpp).
  std::atomic<const char*>& step_name_slot(DispatchKey runtime_key) const {
    return step_names_[static_cast<size_t>(dispatch_table_slot(runtime_key))];
  }

  // The recorder session (Recorder::session()) this operator's table was last recorded in.
  std::atomic<uint64_t>& table_recorded_session() const { return table_session_; }

  // Every runtime key that has an entry, with it, in torch._C._dispatch_dump_table's order.
  std::vector<std::pair<DispatchKey, const TableEntry*>> table() const;
  // Like torch._C._dispatch_dump_table: one line per runtime key that has an entry.
  std::string dump_table() const;
  void set_registration_info(const char* kernel_signature, const char* schema_registered_at) {
    kernel_signature_ = kernel_signature;
    schema_registered_at_ = schema_registered_at;
  }
  // Like torch._C._dispatch_dump: the schema, where it was registered, and each registration
  // in PyTorch's order (by key number, alias keys last) with its kernel's signature.
  std::string dump_registrations() const;
  const std::vector<std::pair<DispatchKey, KernelFunction>>& registrations() const { return registrations_; }
  // Keys with a direct backend kernel, e.g. "[CPU, Meta]" for error messages.
  std::string available_backends() const;

 private:
  const KernelFunction* registered(DispatchKey key) const;
  TableEntry compute_entry(DispatchKey runtime_key, const Dispatcher& d) const;

  std::string name_, overload_, full_name_, schema_;
  const char* kernel_signature_ = "";
  const char* schema_registered_at_ = "";
  std::vector<std::pair<DispatchKey, KernelFunction>> registrations_;
  std::array<TableEntry, kNumDispatchTableSlots> table_;
  mutable std::array<std::atomic<const char*>, kNumDispatchTableSlots> step_names_{};
  mutable std::atomic<uint64_t> table_session_{0};
  DispatchKeySet non_fallthrough_ = DispatchKeySet::from_raw(~uint64_t(0));
};

}  // namespace ipt
