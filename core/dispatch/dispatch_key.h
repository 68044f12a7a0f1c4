#pragma once
// DispatchKey, BackendComponent and Functionality, in PyTorch 2.15's priority order
// (c10/core/DispatchKey.h).
//
// Note [DispatchKey = functionality x backend]
// As in PyTorch 2.15, a dispatch key is either a plain *functionality* (BackendSelect,
// ADInplaceOrView, AutocastCPU, ...) or a *per-backend functionality* (Dense, Quantized,
// Sparse, SparseCsr, NestedTensor, AutogradFunctionality) combined with one *backend component*
// (CPU, CUDA, Meta, ...). The runtime key "AutogradCPU" is AutogradFunctionality + CPU;
// the runtime key "CPU" is Dense + CPU. Keeping the two axes apart lets a DispatchKeySet
// stay one 64-bit word (see Note [DispatchKeySet representation]). Later entries have
// higher priority: the dispatcher picks the highest functionality present.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ipt {

// Backend components (bits 0..15 of a DispatchKeySet), lowest priority first. Meta is last,
// above the PrivateUse backends, as in PyTorch 2.15.
enum class BackendComponent : uint8_t {
  Invalid = 0,
  CPU,
  CUDA,
  HIP,
  XLA,
  MPS,
  IPU,
  XPU,
  HPU,
  VE,
  Lazy,
  MTIA,
  MAIA,
  PrivateUse1,
  PrivateUse2,
  PrivateUse3,
  Meta,
};
constexpr int kNumBackends = 16;

// Functionality keys (bits 16.. of a DispatchKeySet), lowest priority first.
enum class Functionality : uint8_t {
  Undefined = 0,
  Dense,
  FPGA,
  Vulkan,
  Metal,
  Quantized,
  CustomRNGKeyId,
  MkldnnCPU,
  Sparse,
  SparseCsr,
  NestedTensor,
  BackendSelect,
  Fake,
  Python,
  FuncTorchDynamicLayerBackMode,
  Functionalize,
  Conjugate,
  Negative,
  ZeroTensor,
  ADInplaceOrView,
  AutogradOther,
  AutogradFunctionality,
  AutogradNestedTensor,
  Tracer,
  AutocastCPU,
  AutocastMTIA,
  AutocastMAIA,
  AutocastXPU,
  AutocastIPU,
  AutocastHPU,
  AutocastXLA,
  AutocastMPS,
  AutocastCUDA,
  AutocastPrivateUse1,
  FuncTorchBatched,
  BatchedNestedTensor,
  FuncTorchVmapMode,
  Batched,
  VmapMode,
  FuncTorchGradWrapper,
  DeferredInit,
  PythonTLSSnapshot,
  FuncTorchDynamicLayerFrontMode,
  TESTING_ONLY_GenericWrapper,
  TESTING_ONLY_GenericMode,
  PreDispatch,
  PythonDispatcher,
  EndOfFunctionality,
};
constexpr int kNumFunctionalities = static_cast<int>(Functionality::EndOfFunctionality) - 1;

// True for the functionalities that exist once per backend (Dense -> CPU, CUDA, ...).
constexpr bool is_per_backend(Functionality f) {
  return f == Functionality::Dense || f == Functionality::Quantized || f == Functionality::Sparse ||
         f == Functionality::SparseCsr || f == Functionality::NestedTensor || f == Functionality::AutogradFunctionality;
}
constexpr int kNumPerBackendFunctionalities = 6;

// Alias keys: not in any key set; a registration against one fills several table entries.
enum class AliasKey : uint8_t {
  None = 0,
  Autograd,
  CompositeImplicitAutograd,
  FuncTorchBatchedDecomposition,
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
// PyTorch 2.15's integer value of a key (DispatchKey.CPU.value): functionality keys first (1..46),
// then one block per per-backend functionality (a StartOf... marker and 16 backends: CPU = 49,
// AutogradCPU = 134), then the alias keys (Autograd = 150).
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
constexpr DispatchKey AutocastMTIA{Functionality::AutocastMTIA};
constexpr DispatchKey AutocastMAIA{Functionality::AutocastMAIA};
constexpr DispatchKey AutocastXPU{Functionality::AutocastXPU};
constexpr DispatchKey AutocastIPU{Functionality::AutocastIPU};
constexpr DispatchKey AutocastHPU{Functionality::AutocastHPU};
constexpr DispatchKey AutocastXLA{Functionality::AutocastXLA};
constexpr DispatchKey AutocastMPS{Functionality::AutocastMPS};
constexpr DispatchKey AutocastCUDA{Functionality::AutocastCUDA};
constexpr DispatchKey AutocastPrivateUse1{Functionality::AutocastPrivateUse1};
constexpr DispatchKey Autograd{AliasKey::Autograd};
constexpr DispatchKey CompositeImplicitAutograd{AliasKey::CompositeImplicitAutograd};
constexpr DispatchKey CompositeExplicitAutograd{AliasKey::CompositeExplicitAutograd};
constexpr DispatchKey CompositeExplicitAutogradNonFunctional{AliasKey::CompositeExplicitAutogradNonFunctional};
}  // namespace keys

}  // namespace ipt
