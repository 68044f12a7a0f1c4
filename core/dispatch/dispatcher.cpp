#include "core/dispatch/dispatcher.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "core/tensor/backend.h"

namespace ipt {

// core/dispatch/fallbacks.cpp
void register_dispatcher_fallbacks(Dispatcher& d);

static std::atomic<void (*)(Dispatcher&)> g_operator_registrar{nullptr};
static std::atomic<bool> g_dispatcher_built{false};

void set_operator_registrar(void (*register_all)(Dispatcher&)) {
  if (g_dispatcher_built.load()) {
    std::fputs("inside-pytorch: the operator registrar was installed after the dispatcher was first used\n", stderr);
    std::abort();
  }
  g_operator_registrar = register_all;
}

Dispatcher& Dispatcher::singleton() {
  // Operators first, then kernels (core, then each backend's), then the computed tables.
  static Dispatcher* d = [] {
    static Dispatcher* disp = new Dispatcher();
    g_dispatcher_built = true;
    if (auto register_all = g_operator_registrar.load()) register_all(*disp);
    register_dispatcher_fallbacks(*disp);
    for_each_backend([](const BackendInterface& b) {
      if (b.register_kernels) b.register_kernels(*disp);
    });
    disp->update_all_tables();
    return disp;
  }();
  return *d;
}

OperatorEntry& Dispatcher::register_operator(const std::string& name, const std::string& overload,
                                             const std::string& schema, const char* signature,
                                             const char* registered_at) {
  ops_.push_back(std::make_unique<OperatorEntry>(name, overload, schema));
  OperatorEntry* e = ops_.back().get();
  e->set_registration_info(signature, registered_at);
  by_name_[e->full_name()] = e;
  return *e;
}

OperatorEntry* Dispatcher::find(std::string_view full_name) {
  auto it = by_name_.find(std::string(full_name));
  return it == by_name_.end() ? nullptr : it->second;
}

OperatorEntry& Dispatcher::get(std::string_view full_name) {
  OperatorEntry* e = find(full_name);
  IPT_CHECK(e, RuntimeError, "could not find operator ", full_name);
  return *e;
}

void Dispatcher::register_fallback(DispatchKey k, KernelFunction f) {
  fallbacks_[static_cast<size_t>(dispatch_table_slot(k))] = f;
}

const KernelFunction* Dispatcher::backend_fallback(DispatchKey k) const {
  const KernelFunction& f = fallbacks_[static_cast<size_t>(dispatch_table_slot(k))];
  return f.valid() ? &f : nullptr;
}

void Dispatcher::update_all_tables() {
  for (auto& op : ops_) op->update_table(*this);
}

// PyTorch 2.15's messages, word for word (the build-process sentences included), so that what a
// reader sees is what their PyTorch says.
void report_missing_kernel(const OperatorEntry& op, DispatchKeySet ks) {
  if (op.lookup(ks).kernel.refuses)
    IPT_FAIL(NotImplementedError, op.full_name(),
             ": attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel "
             "registered. You may have run into this message while using an operator with PT2 compilation APIs "
             "(torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake "
             "impl. Please see the following for next steps:  "
             "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html");
  IPT_FAIL(NotImplementedError, "Could not run '", op.full_name(), "' with arguments from the '",
           ks.highest_priority_key().name(),
           "' backend. This could be because the operator doesn't exist for this backend, or was omitted during the "
           "selective/custom build process (if using custom build). If you are a Facebook employee using PyTorch on "
           "mobile, please visit https://fburl.com/ptmfixes for possible resolutions. '",
           op.full_name(), "' is only available for these backends: ", op.available_backends(), ".");
}

static thread_local int tls_trace_depth = 0;

// Note [The dispatch table travels with the trace]
// Views are pure functions of the trace, so the first call of each operator in a recording
// also records that operator's computed table (as `torch._C._dispatch_dump_table` prints it):
// a loaded trace can show the table with the chosen entry highlighted.
static void record_table_once(const OperatorEntry& op) {
  trace::Recorder& rec = trace::Recorder::current();
  const uint64_t session = rec.session();
  std::atomic<uint64_t>& recorded = op.table_recorded_session();
  uint64_t seen = recorded.load(std::memory_order_relaxed);
  // Sessions are unique, so one exchange decides which thread records the table.
  if (seen == session || !recorded.compare_exchange_strong(seen, session, std::memory_order_relaxed)) return;
  trace::DispatchTable d;
  d.op = op.full_name_cstr();
  d.schema = trace::intern(op.schema());
  for (const auto& [k, e] : op.table())
    d.rows.push_back(trace::DispatchTableRow{k, e->kernel.fallthrough, e->kernel.registered_at, e->kind});
  rec.instant(trace::Category::Dispatch, "dispatch table", std::move(d));
}

// "aten::add.Tensor [AutogradCPU]", built once per operator and key (interned), not per call.
static const char* step_name(const OperatorEntry& op, DispatchKey k) {
  std::atomic<const char*>& slot = op.step_name_slot(k);
  const char* name = slot.load(std::memory_order_acquire);
  if (!name) {
    name = trace::intern(op.full_name() + " [" + k.name() + "]");
    slot.store(name, std::memory_order_release);
  }
  return name;
}

DispatchTraceScope::DispatchTraceScope(const OperatorEntry& op, const TableEntry& e, DispatchKeySet arg_keys,
                                       DispatchKeySet ks, bool redispatch,
                                       std::initializer_list<DispatchKeySet> per_arg) {
  if (!redispatch) record_table_once(op);
  const LocalDispatchKeySet& tls = local_dispatch_key_set();
  trace::DispatchStep s;
  s.op = op.full_name_cstr();
  s.redispatch = redispatch;
  s.arg_key_sets.reserve(per_arg.size());
  for (auto k : per_arg) s.arg_key_sets.push_back(k.raw());
  s.tls_included = tls.included.raw();
  s.tls_excluded = tls.excluded.raw();
  s.merged = ks.raw();
  DispatchKeySet unmasked = redispatch ? arg_keys : ((arg_keys | tls.included) - tls.excluded);
  s.skipped_fallthrough = (unmasked - ks).remove_backends().raw();
  s.chosen = ks.highest_priority_key();
  s.kernel = e.kernel.name;
  s.kernel_kind = e.kind;
  s.registered_at = e.kernel.registered_at;
  name_ = step_name(op, s.chosen);
  depth_ = ++tls_trace_depth;
  trace::Recorder::current().begin(trace::Category::Dispatch, name_, std::move(s));
}

DispatchTraceScope::~DispatchTraceScope() {
  trace::Recorder::current().end(trace::Category::Dispatch, name_);
  --tls_trace_depth;
}

}  // namespace ipt
