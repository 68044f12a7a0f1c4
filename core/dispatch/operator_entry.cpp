#include "core/dispatch/operator_entry.h"

#include <algorithm>

#include "core/dispatch/dispatcher.h"

namespace ipt {

// Slot layout: [Undefined][one per functionality, per-backend ones taking kNumBackends].
static constexpr std::array<int, kNumFunctionalities + 2> make_offsets() {
  std::array<int, kNumFunctionalities + 2> off{};
  int next = 1;  // slot 0 is Undefined
  for (int f = 1; f <= kNumFunctionalities; ++f) {
    off[f] = next;
    next += is_per_backend(static_cast<Functionality>(f)) ? kNumBackends : 1;
  }
  off[kNumFunctionalities + 1] = next;
  return off;
}
static constexpr auto kOffsets = make_offsets();
static_assert(kOffsets[kNumFunctionalities + 1] == kNumDispatchTableSlots);

int dispatch_table_slot(DispatchKey k) {
  int f = static_cast<int>(k.functionality);
  if (f == 0) return 0;
  if (is_per_backend(k.functionality)) {
    int b = static_cast<int>(k.backend);
    return b == 0 ? 0 : kOffsets[f] + b - 1;
  }
  return kOffsets[f];
}

// Every runtime key, in table order.
static const std::vector<DispatchKey>& all_runtime_keys() {
  static const std::vector<DispatchKey> keys = [] {
    std::vector<DispatchKey> v{DispatchKey()};
    for (int f = 1; f <= kNumFunctionalities; ++f) {
      auto fn = static_cast<Functionality>(f);
      if (is_per_backend(fn))
        for (int b = 1; b <= kNumBackends; ++b) v.emplace_back(fn, static_cast<BackendComponent>(b));
      else v.emplace_back(fn);
    }
    return v;
  }();
  return keys;
}

static bool is_autograd_key(DispatchKey k) {
  return k.functionality == Functionality::AutogradFunctionality || k.functionality == Functionality::AutogradOther ||
         k.functionality == Functionality::AutogradNestedTensor;
}

// Keys a CompositeExplicitAutograd kernel serves: the dense/quantized/sparse backends and
// the other backend-like functionalities (and Undefined, for calls without tensors).
static bool is_backend_key(DispatchKey k) {
  switch (k.functionality) {
    case Functionality::Undefined:
    case Functionality::Dense:
    case Functionality::Quantized:
    case Functionality::Sparse:
    case Functionality::SparseCsr:
    case Functionality::FPGA:
    case Functionality::Vulkan:
    case Functionality::Metal:
    case Functionality::CustomRNGKeyId:
    case Functionality::MkldnnCPU: return true;
    default: return false;
  }
}

// CompositeExplicitAutogradNonFunctional leaves out sparse keys and the functional backends.
static bool is_non_functional_backend_key(DispatchKey k) {
  if (!is_backend_key(k) || k.functionality == Functionality::Sparse) return false;
  return k.backend != BackendComponent::XLA && k.backend != BackendComponent::Lazy;
}

// The backend key an Autograd key stands in front of (AutogradCPU -> CPU).
static DispatchKey backend_of_autograd(DispatchKey k) { return DispatchKey(Functionality::Dense, k.backend); }

OperatorEntry::OperatorEntry(std::string name, std::string overload, std::string schema)
    : name_(std::move(name)), overload_(std::move(overload)), schema_(std::move(schema)) {
  full_name_ = overload_.empty() ? name_ : name_ + "." + overload_;
}

void OperatorEntry::register_kernel(DispatchKey key, KernelFunction k) {
  for (auto& [rk, rf] : registrations_)
    if (rk == key) {
      rf = k;  // a later registration for the same key replaces the earlier one
      return;
    }
  registrations_.emplace_back(key, k);
}

const KernelFunction* OperatorEntry::registered(DispatchKey key) const {
  for (const auto& [rk, rf] : registrations_)
    if (rk == key) return &rf;
  return nullptr;
}

TableEntry OperatorEntry::compute_entry(DispatchKey k, const Dispatcher& d) const {
  if (auto* direct = registered(k)) return {*direct, "kernel"};
  if (is_non_functional_backend_key(k))
    if (auto* ce = registered(keys::CompositeExplicitAutogradNonFunctional)) return {*ce, "default backend kernel"};
  if (is_backend_key(k))
    if (auto* ce = registered(keys::CompositeExplicitAutograd)) return {*ce, "default backend kernel"};
  if (is_backend_key(k) || is_autograd_key(k)) {
    if (auto* math = registered(keys::CompositeImplicitAutograd)) {
      bool has_backend_kernel =
          registered(keys::CompositeExplicitAutograd) || registered(keys::CompositeExplicitAutogradNonFunctional) ||
          (k.functionality == Functionality::AutogradFunctionality && registered(backend_of_autograd(k)));
      if (!is_autograd_key(k) || !has_backend_kernel) return {*math, "math kernel"};
    }
  }
  if (is_autograd_key(k))
    if (auto* ag = registered(keys::Autograd)) return {*ag, "autograd kernel"};
  if (const KernelFunction* fb = d.backend_fallback(k)) return {*fb, "backend fallback"};
  return {};
}

void OperatorEntry::update_table(const Dispatcher& d) {
  uint64_t mask = ~uint64_t(0);
  for (DispatchKey k : all_runtime_keys()) {
    TableEntry e = compute_entry(k, d);
    table_[static_cast<size_t>(dispatch_table_slot(k))] = e;
  }
  // A functionality whose entries are all fallthroughs is skipped by every call.
  for (int f = 1; f <= kNumFunctionalities; ++f) {
    auto fn = static_cast<Functionality>(f);
    bool all_fallthrough = true;
    if (is_per_backend(fn)) {
      for (int b = 1; b <= kNumBackends && all_fallthrough; ++b)
        all_fallthrough = entry(DispatchKey(fn, static_cast<BackendComponent>(b))).kernel.fallthrough;
    } else {
      all_fallthrough = entry(DispatchKey(fn)).kernel.fallthrough;
    }
    if (all_fallthrough) mask &= ~DispatchKeySet::functionality_bit(fn);
  }
  non_fallthrough_ = DispatchKeySet::from_raw(mask);
}

static std::string entry_line(DispatchKey k, const TableEntry& e) {
  std::string s = k.name() + ": ";
  if (e.kernel.fallthrough) s += "fallthrough ";
  s += "registered at ";
  s += e.kernel.registered_at;
  s += " [";
  s += e.kind;
  s += "]";
  return s;
}

std::vector<std::pair<DispatchKey, const TableEntry*>> OperatorEntry::table() const {
  std::vector<std::pair<DispatchKey, const TableEntry*>> out;
  for (DispatchKey k : all_runtime_keys()) {
    const TableEntry& e = entry(k);
    if (e.kernel.valid()) out.emplace_back(k, &e);
  }
  return out;
}

std::string OperatorEntry::dump_table() const {
  std::string out;
  for (const auto& [k, e] : table()) {
    out += entry_line(k, *e);
    out += "\n";
  }
  return out;
}

std::string OperatorEntry::dump_registrations() const {
  std::string out = "name: " + full_name_ + "\nschema: " + schema_ + "\ndebug: registered at " + schema_registered_at_ +
                    "\nalias analysis kind: FROM_SCHEMA\n";
  auto regs = registrations_;
  std::stable_sort(regs.begin(), regs.end(), [](const auto& a, const auto& b) {
    return pytorch_key_number(a.first) < pytorch_key_number(b.first);
  });
  // The kernels here are unboxed C++ functions only (PyTorch's are also boxed).
  for (const auto& [k, f] : regs) {
    out += k.name() + (k.is_alias() ? "[alias]" : "") + ": registered at " + f.registered_at;
    out += f.fallthrough ? std::string(" :: (none) [ fallthrough ]\n")
                         : std::string(" :: ") + kernel_signature_ + " [ unboxed ]\n";
  }
  return out;
}

std::string OperatorEntry::available_backends() const {
  std::string s = "[";
  bool first = true;
  for (const auto& [k, f] : registrations_) {
    if (!first) s += ", ";
    s += k.name();
    first = false;
  }
  return s + "]";
}

}  // namespace ipt
