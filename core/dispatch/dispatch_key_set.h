#pragma once
// DispatchKeySet: a set of dispatch keys in one 64-bit word.
//
// Note [DispatchKeySet representation]
// Bits 0..15 are backend components (CPU, CUDA, ..., PrivateUse3, Meta); bits 16.. are
// functionalities (Dense, ..., PythonDispatcher), each in priority order. A runtime key
// such as AutogradCPU sets two bits: the AutogradFunctionality bit and the CPU bit. So the
// set {CPU, AutogradCPU} is 3 bits, and {CPU, CUDA, AutogradCPU} *also* means AutogradCUDA
// (the cross product) — exactly PyTorch 2.15's trade-off, which keeps union, difference and
// "highest priority key" a handful of instructions. Iterating a set yields, for every
// functionality bit from low to high, either that key or (per-backend) one key per backend
// bit from low to high: the order in which PyTorch prints `DispatchKeySet(...)`.

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dispatch/dispatch_key.h"

namespace ipt {

class DispatchKeySet {
 public:
  constexpr DispatchKeySet() = default;
  constexpr explicit DispatchKeySet(uint64_t raw, bool /*from_raw*/) : repr_(raw) {}
  constexpr DispatchKeySet(BackendComponent b) : repr_(backend_bit(b)) {}
  constexpr DispatchKeySet(Functionality f) : repr_(functionality_bit(f)) {}
  constexpr DispatchKeySet(DispatchKey k) : repr_(key_bits(k)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> ks) {
    for (auto k : ks) repr_ |= key_bits(k);
  }
  static constexpr DispatchKeySet from_raw(uint64_t raw) { return DispatchKeySet(raw, true); }
  // Every key whose functionality is strictly below `f` (all backend bits kept):
  // what a kernel at functionality f may redispatch to.
  static constexpr DispatchKeySet below(Functionality f) {
    uint64_t fbits = functionality_bit(f) - 1;  // lower functionalities + backend bits
    return from_raw(fbits | kBackendMask);
  }

  [[nodiscard]] constexpr uint64_t raw() const { return repr_; }
  [[nodiscard]] constexpr bool empty() const { return (repr_ & ~kBackendMask) == 0; }
  [[nodiscard]] constexpr DispatchKeySet operator|(DispatchKeySet o) const { return from_raw(repr_ | o.repr_); }
  [[nodiscard]] constexpr DispatchKeySet operator&(DispatchKeySet o) const { return from_raw(repr_ & o.repr_); }
  // Set difference. Only functionality bits are removed; backend bits stay, so removing
  // AutogradCPU from {CPU, AutogradCPU} leaves {CPU} (as in PyTorch).
  [[nodiscard]] constexpr DispatchKeySet operator-(DispatchKeySet o) const {
    return from_raw(repr_ & ~(o.repr_ & ~kBackendMask));
  }
  [[nodiscard]] constexpr DispatchKeySet remove_backends() const { return from_raw(repr_ & ~kBackendMask); }
  constexpr bool operator==(const DispatchKeySet& o) const { return repr_ == o.repr_; }

  [[nodiscard]] constexpr bool has(Functionality f) const { return (repr_ & functionality_bit(f)) != 0; }
  [[nodiscard]] constexpr bool has(DispatchKey k) const {
    uint64_t bits = key_bits(k);
    return bits != 0 && (repr_ & bits) == bits;
  }
  [[nodiscard]] constexpr bool has_any(DispatchKeySet o) const { return (repr_ & o.repr_ & ~kBackendMask) != 0; }

  // The highest-priority functionality present (Undefined when none).
  [[nodiscard]] constexpr Functionality highest_functionality() const {
    uint64_t f = repr_ >> kNumBackends;
    if (f == 0) return Functionality::Undefined;
    return static_cast<Functionality>(64 - std::countl_zero(f));
  }
  // The highest-priority backend component present (Invalid when none).
  [[nodiscard]] constexpr BackendComponent highest_backend() const {
    uint64_t b = repr_ & kBackendMask;
    if (b == 0) return BackendComponent::Invalid;
    return static_cast<BackendComponent>(64 - std::countl_zero(b));
  }
  // The runtime key the dispatcher would pick from this set.
  [[nodiscard]] constexpr DispatchKey highest_priority_key() const {
    Functionality f = highest_functionality();
    if (is_per_backend(f)) return DispatchKey(f, highest_backend());
    return DispatchKey(f);
  }

  // Runtime keys in priority order, lowest first (the printing order).
  std::vector<DispatchKey> keys() const;
  // "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)"
  std::string to_string() const;

  static constexpr uint64_t kBackendMask = (uint64_t(1) << kNumBackends) - 1;

  static constexpr uint64_t backend_bit(BackendComponent b) {
    return b == BackendComponent::Invalid ? 0 : uint64_t(1) << (static_cast<int>(b) - 1);
  }
  static constexpr uint64_t functionality_bit(Functionality f) {
    return f == Functionality::Undefined ? 0 : uint64_t(1) << (kNumBackends + static_cast<int>(f) - 1);
  }
  static constexpr uint64_t key_bits(DispatchKey k) {
    if (k.is_alias()) return 0;
    return functionality_bit(k.functionality) | (is_per_backend(k.functionality) ? backend_bit(k.backend) : 0);
  }

 private:
  uint64_t repr_ = 0;
};

static_assert(kNumBackends + kNumFunctionalities <= 64, "a DispatchKeySet must fit in 64 bits");

// Named sets (PyTorch's names).
namespace keysets {
// Everything the Autograd alias key covers (excluded by the "below autograd" guard).
constexpr DispatchKeySet autograd_dispatch_keyset = DispatchKeySet(Functionality::AutogradFunctionality) |
                                                    DispatchKeySet(Functionality::AutogradOther) |
                                                    DispatchKeySet(Functionality::AutogradNestedTensor);
// Every Autocast key (2.15: CPU, MTIA, MAIA, XPU, IPU, HPU, XLA, MPS, CUDA, PrivateUse1).
constexpr DispatchKeySet autocast_dispatch_keyset =
    DispatchKeySet(Functionality::AutocastCPU) | DispatchKeySet(Functionality::AutocastMTIA) |
    DispatchKeySet(Functionality::AutocastMAIA) | DispatchKeySet(Functionality::AutocastXPU) |
    DispatchKeySet(Functionality::AutocastIPU) | DispatchKeySet(Functionality::AutocastHPU) |
    DispatchKeySet(Functionality::AutocastXLA) | DispatchKeySet(Functionality::AutocastMPS) |
    DispatchKeySet(Functionality::AutocastCUDA) | DispatchKeySet(Functionality::AutocastPrivateUse1);
// Thread-local defaults (see core/dispatch/local_dispatch_key_set.h).
constexpr DispatchKeySet default_included =
    DispatchKeySet(Functionality::BackendSelect) | DispatchKeySet(Functionality::ADInplaceOrView);
constexpr DispatchKeySet default_excluded = autocast_dispatch_keyset;
}  // namespace keysets

// The key set of a tensor on `backend` (as PyTorch 2.15 builds it for dense tensors, with the
// backend's Autocast key where the backend has one).
// Inference tensors have no ADInplaceOrView and no Autograd keys.
DispatchKeySet tensor_key_set(BackendComponent backend, bool inference = false);

}  // namespace ipt
