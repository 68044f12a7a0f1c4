// Names of dispatch keys and key-set iteration / printing (PyTorch 1.13's names and order).
#include "core/dispatch/dispatch_key.h"

#include "core/dispatch/dispatch_key_set.h"

namespace ipt {

const char* backend_name(BackendComponent b) {
  static const char* const names[] = {"Invalid", "CPU", "CUDA", "HIP", "XLA", "MPS", "IPU", "XPU",
                                      "HPU", "VE", "Lazy", "Meta", "PrivateUse1", "PrivateUse2",
                                      "PrivateUse3"};
  return names[static_cast<int>(b)];
}

const char* functionality_name(Functionality f) {
  static const char* const names[] = {
      "Undefined", "Dense", "FPGA", "ORT", "Vulkan", "Metal", "Quantized", "CustomRNGKeyId",
      "MkldnnCPU", "Sparse", "SparseCsrCPU", "SparseCsrCUDA", "NestedTensor", "BackendSelect",
      "Python", "Fake", "FuncTorchDynamicLayerBackMode", "Functionalize", "Named", "Conjugate",
      "Negative", "ZeroTensor", "ADInplaceOrView", "AutogradOther", "AutogradFunctionality",
      "AutogradNestedTensor", "Tracer", "AutocastCPU", "AutocastXPU", "AutocastCUDA",
      "FuncTorchBatched", "FuncTorchVmapMode", "Batched", "VmapMode", "FuncTorchGradWrapper",
      "DeferredInit", "PythonTLSSnapshot", "FuncTorchDynamicLayerFrontMode",
      "TESTING_ONLY_GenericWrapper", "TESTING_ONLY_GenericMode", "PythonDispatcher",
      "EndOfFunctionalityKeys"};
  return names[static_cast<int>(f)];
}

const char* alias_key_name(AliasKey a) {
  switch (a) {
    case AliasKey::None: return "Undefined";
    case AliasKey::Autograd: return "Autograd";
    case AliasKey::CompositeImplicitAutograd: return "CompositeImplicitAutograd";
    case AliasKey::CompositeImplicitAutogradNestedTensor: return "CompositeImplicitAutogradNestedTensor";
    case AliasKey::CompositeExplicitAutograd: return "CompositeExplicitAutograd";
    case AliasKey::CompositeExplicitAutogradNonFunctional: return "CompositeExplicitAutogradNonFunctional";
  }
  return "Undefined";
}

// Prefix of the runtime key name for a per-backend functionality: Dense -> "" (CPU),
// AutogradFunctionality -> "Autograd" (AutogradCPU), Quantized -> "Quantized" (QuantizedCPU).
static const char* per_backend_prefix(Functionality f) {
  switch (f) {
    case Functionality::Dense: return "";
    case Functionality::Quantized: return "Quantized";
    case Functionality::Sparse: return "Sparse";
    case Functionality::NestedTensor: return "NestedTensor";
    case Functionality::AutogradFunctionality: return "Autograd";
    default: return "";
  }
}

std::string DispatchKey::name() const {
  if (is_alias()) return alias_key_name(alias);
  if (is_per_backend(functionality) && backend != BackendComponent::Invalid)
    return std::string(per_backend_prefix(functionality)) + backend_name(backend);
  return functionality_name(functionality);
}

std::optional<DispatchKey> DispatchKey::parse(std::string_view name) {
  for (int a = 1; a <= static_cast<int>(AliasKey::CompositeExplicitAutogradNonFunctional); ++a)
    if (name == alias_key_name(static_cast<AliasKey>(a))) return DispatchKey(static_cast<AliasKey>(a));
  for (int f = 0; f < static_cast<int>(Functionality::EndOfFunctionality); ++f) {
    auto fn = static_cast<Functionality>(f);
    if (is_per_backend(fn)) {
      for (int b = 1; b <= kNumBackends; ++b) {
        DispatchKey k(fn, static_cast<BackendComponent>(b));
        if (k.name() == name) return k;
      }
    } else if (name == functionality_name(fn)) {
      return DispatchKey(fn);
    }
  }
  return std::nullopt;
}

std::vector<DispatchKey> DispatchKeySet::keys() const {
  std::vector<DispatchKey> out;
  for (int f = 1; f <= kNumFunctionalities; ++f) {
    auto fn = static_cast<Functionality>(f);
    if (!has(fn)) continue;
    if (is_per_backend(fn)) {
      for (int b = 1; b <= kNumBackends; ++b)
        if (repr_ & backend_bit(static_cast<BackendComponent>(b)))
          out.emplace_back(fn, static_cast<BackendComponent>(b));
    } else {
      out.emplace_back(fn);
    }
  }
  return out;
}

std::string DispatchKeySet::to_string() const {
  std::string s = "DispatchKeySet(";
  bool first = true;
  for (const auto& k : keys()) {
    if (!first) s += ", ";
    s += k.name();
    first = false;
  }
  return s + ")";
}

DispatchKeySet tensor_key_set(BackendComponent backend, bool inference) {
  DispatchKeySet ks = DispatchKeySet(DispatchKey(Functionality::Dense, backend));
  if (!inference)
    ks = ks | DispatchKeySet(Functionality::ADInplaceOrView) |
         DispatchKeySet(Functionality::AutogradFunctionality);
  // Autocast keys exist for the backends that have autocast (CPU, CUDA, XPU); not Meta.
  if (backend == BackendComponent::CPU) ks = ks | DispatchKeySet(Functionality::AutocastCPU);
  if (backend == BackendComponent::CUDA) ks = ks | DispatchKeySet(Functionality::AutocastCUDA);
  if (backend == BackendComponent::XPU) ks = ks | DispatchKeySet(Functionality::AutocastXPU);
  return ks;
}

int64_t pytorch_key_number(DispatchKey k) {
  if (k.is_alias()) return 100 + static_cast<int64_t>(k.alias);
  if (!is_per_backend(k.functionality)) return static_cast<int64_t>(k.functionality);
  int block = 0;
  switch (k.functionality) {
    case Functionality::Dense: block = 0; break;
    case Functionality::Quantized: block = 1; break;
    case Functionality::Sparse: block = 2; break;
    case Functionality::NestedTensor: block = 3; break;
    default: block = 4; break;
  }
  return kNumFunctionalities + 2 + block * (kNumBackends + 1) + static_cast<int64_t>(k.backend);
}

}  // namespace ipt
