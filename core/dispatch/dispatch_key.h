#pragma once
// DispatchKey, BackendComponent and Functionality, in PyTorch 1.13's priority order.
//
// Note [DispatchKey = functionality x backend]
// As in PyTorch 1.13, a dispatch key is either a plain *functionality* (BackendSelect,
// ADInplaceOrView, AutocastCPU, ...) or a *per-backend functionality* (Dense, Quantized,
// Sparse, NestedTensor, AutogradFunctionality) combined with one *backend component*
// (CPU, CUDA, Meta, ...). The runtime key "AutogradCPU" is AutogradFunctionality + CPU;
// the runtime key "CPU" is Dense + CPU. Keeping the two axes apart lets a DispatchKeySet
// stay one 64-bit word (see Note [DispatchKeySet representation]). Later entries have
// higher priority: the dispatcher picks the highest functionality present.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ipt {

// Backend components (bits 0..13 of a DispatchKeySet), lowest priority first.
enum class BackendComponent : uint8_t {
  Invalid = 0,
  CPU, CUDA, HIP, XLA, MPS, IPU, XPU, HPU, VE, Lazy, Meta, PrivateUse1, PrivateUse2, PrivateUse3,
};
constexpr int kNumBackends = 14;

// Functionality keys (bits 14.. of a DispatchKeySet), lowest priority first.
enum class Functionality : uint8_t {
  Undefined = 0,
  Dense, FPGA, ORT, Vulkan, Metal, Quantized, CustomRNGKeyId, MkldnnCPU, Sparse, SparseCsrCPU,
  SparseCsrCUDA, NestedTensor, BackendSelect, Python, Fake, FuncTorchDynamicLayerBackMode,
  Functionalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther,
  AutogradFunctionality, AutogradNestedTensor, Tracer, AutocastCPU, AutocastXPU, AutocastCUDA,
  FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, DeferredInit,
  PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, TESTING_ONLY_GenericWrapper,
  TESTING_ONLY_GenericMode, PythonDispatcher,
  EndOfFunctionality,
};
constexpr int kNumFunctionalities = static_cast<int>(Functionality::EndOfFunctionality) - 1;

// True for the functionalities that exist once per backend (Dense -> CPU, CUDA, ...).
constexpr bool is_per_backend(Functionality f) {
  return f == Functionality::Dense || f == Functionality::Quantized || f == Functionality::Sparse ||
         f == Functionality::NestedTensor || f == Functionality::AutogradFunctionality;
}

// Alias keys: not in any key set; a registration against one fills several table entries.
enum class AliasKey : uint8_t {
  None = 0,
  Autograd,
  CompositeImplicitAutograd,
  CompositeImplicitAutogradNestedTensor,
  CompositeExplicitAutograd,
  CompositeExplicitAutogradNonFunctional,
};

// A runtime dispatch key (what an operator table is indexed by) or an alias key.
// Value-type; cheap to copy. Undefined when functionality == Undefined and alias == None.
struct DispatchKey {
  Functionality functionality = Functionality::Undefined;
  BackendComponent backend = BackendComponent::Invalid;  // only for per-backend functionalities
  AliasKey alias = AliasKey::None;

  constexpr DispatchKey() = default;
  constexpr DispatchKey(Functionality f, BackendComponent b = BackendComponent::Invalid)
      : functionality(f), backend(b) {}
  constexpr explicit DispatchKey(AliasKey a) : alias(a) {}

  constexpr bool is_alias() const { return alias != AliasKey::None; }
  constexpr bool operator==(const DispatchKey& o) const {
    return functionality == o.functionality && backend == o.backend && alias == o.alias;
  }

  // "CPU", "AutogradCUDA", "QuantizedMeta", "ADInplaceOrView", "CompositeImplicitAutograd"...
  std::string name() const;
  // Inverse of name(); nullopt for an unknown name.
  static std::optional<DispatchKey> parse(std::string_view name);
};

const char* backend_name(BackendComponent b);
const char* functionality_name(Functionality f);
const char* alias_key_name(AliasKey a);

// Common runtime keys.
// PyTorch 1.13's integer value of a key (DispatchKey.CPU.value): functionality keys first, then
// the per-backend runtime keys in blocks behind them, alias keys from 100.
int64_t pytorch_key_number(DispatchKey k);

namespace keys {
constexpr DispatchKey CPU{Functionality::Dense, BackendComponent::CPU};
constexpr DispatchKey CUDA{Functionality::Dense, BackendComponent::CUDA};
constexpr DispatchKey Meta{Functionality::Dense, BackendComponent::Meta};
constexpr DispatchKey AutogradCPU{Functionality::AutogradFunctionality, BackendComponent::CPU};
constexpr DispatchKey AutogradCUDA{Functionality::AutogradFunctionality, BackendComponent::CUDA};
constexpr DispatchKey AutogradMeta{Functionality::AutogradFunctionality, BackendComponent::Meta};
constexpr DispatchKey BackendSelect{Functionality::BackendSelect};
constexpr DispatchKey Python{Functionality::Python};
constexpr DispatchKey ADInplaceOrView{Functionality::ADInplaceOrView};
constexpr DispatchKey AutogradOther{Functionality::AutogradOther};
constexpr DispatchKey AutocastCPU{Functionality::AutocastCPU};
constexpr DispatchKey AutocastCUDA{Functionality::AutocastCUDA};
constexpr DispatchKey Autograd{AliasKey::Autograd};
constexpr DispatchKey CompositeImplicitAutograd{AliasKey::CompositeImplicitAutograd};
constexpr DispatchKey CompositeExplicitAutograd{AliasKey::CompositeExplicitAutograd};
constexpr DispatchKey CompositeExplicitAutogradNonFunctional{AliasKey::CompositeExplicitAutogradNonFunctional};
}  // namespace keys

}  // namespace ipt
