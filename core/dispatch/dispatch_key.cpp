// Names of dispatch keys and key-set iteration / printing (PyTorch 2.15's names and order).
#include "core/dispatch/dispatch_key.h"

#include "core/dispatch/dispatch_key_set.h"

namespace ipt {

const char* backend_name(BackendComponent b) {
  static const char* const names[] = {"Invalid", "CPU",         "CUDA",        "HIP",         "XLA",  "MPS",
                                      "IPU",     "XPU",         "HPU",         "VE",          "Lazy", "MTIA",
                                      "MAIA",    "PrivateUse1", "PrivateUse2", "PrivateUse3", "Meta"};
  static_assert(sizeof(names) / sizeof(names[0]) == kNumBackends + 1);
  return names[static_cast<int>(b)];
}

const char* functionality_name(Functionality f) {
  static const char* const names[] = {"Undefined",
                                      "Dense",
                                      "FPGA",
                                      "Vulkan",
                                      "Metal",
                                      "Quantized",
                                      "CustomRNGKeyId",
                                      "MkldnnCPU",
                                      "Sparse",
                                      "SparseCsr",
                                      "NestedTensor",
                                      "BackendSelect",
                                      "Fake",
                                      "Python",
                                      "FuncTorchDynamicLayerBackMode",
                                      "Functionalize",
                                      "Conjugate",
                                      "Negative",
                                      "ZeroTensor",
                                      "ADInplaceOrView",
                                      "AutogradOther",
                                      "AutogradFunctionality",
                                      "AutogradNestedTensor",
                                      "Tracer",
                                      "AutocastCPU",
                                      "AutocastMTIA",
                                      "AutocastMAIA",
                                      "AutocastXPU",
                                      "AutocastIPU",
                                      "AutocastHPU",
                                      "AutocastXLA",
                                      "AutocastMPS",
                                      "AutocastCUDA",
                                      "AutocastPrivateUse1",
                                      "FuncTorchBatched",
                                      "BatchedNestedTensor",
                                      "FuncTorchVmapMode",
                                      "Batched",
                                      "VmapMode",
                                      "FuncTorchGradWrapper",
                                      "DeferredInit",
                                      "PythonTLSSnapshot",
                                      "FuncTorchDynamicLayerFrontMode",
                                      "TESTING_ONLY_GenericWrapper",
                                      "TESTING_ONLY_GenericMode",
                                      "PreDispatch",
                                      "PythonDispatcher",
                                      "EndOfFunctionalityKeys"};
  static_assert(sizeof(names) / sizeof(names[0]) == kNumFunctionalities + 2);
  return names[static_cast<int>(f)];
}

const char* alias_key_name(AliasKey a) {
  switch (a) {
    case AliasKey::None: return "Undefined";
    case AliasKey::Autograd: return "Autograd";
    case AliasKey::CompositeImplicitAutograd: return "CompositeImplicitAutograd";
    case AliasKey::FuncTorchBatchedDecomposition: return "FuncTorchBatchedDecomposition";
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
    case Functionality::SparseCsr: return "SparseCsr";
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
    ks = ks | DispatchKeySet(Functionality::ADInplaceOrView) | DispatchKeySet(Functionality::AutogradFunctionality);
  // The backend's Autocast key (getAutocastRelatedKeySetFromBackend); Meta has none.
  switch (backend) {
    case BackendComponent::CPU: return ks | DispatchKeySet(Functionality::AutocastCPU);
    case BackendComponent::CUDA: return ks | DispatchKeySet(Functionality::AutocastCUDA);
    case BackendComponent::XPU: return ks | DispatchKeySet(Functionality::AutocastXPU);
    case BackendComponent::IPU: return ks | DispatchKeySet(Functionality::AutocastIPU);
    case BackendComponent::HPU: return ks | DispatchKeySet(Functionality::AutocastHPU);
    case BackendComponent::XLA: return ks | DispatchKeySet(Functionality::AutocastXLA);
    case BackendComponent::MPS: return ks | DispatchKeySet(Functionality::AutocastMPS);
    case BackendComponent::MTIA: return ks | DispatchKeySet(Functionality::AutocastMTIA);
    case BackendComponent::MAIA: return ks | DispatchKeySet(Functionality::AutocastMAIA);
    case BackendComponent::PrivateUse1: return ks | DispatchKeySet(Functionality::AutocastPrivateUse1);
    default: return ks;
  }
}

// Behind EndOfFunctionalityKeys (47) come the per-backend blocks, each a StartOf...Backends
// marker and one key per backend (Dense: 48, CPU 49 .. Meta 64; Quantized: 65 ..; ...;
// AutogradFunctionality: 133, AutogradCPU 134 .. AutogradMeta 149), then the alias keys from 150.
int64_t pytorch_key_number(DispatchKey k) {
  constexpr int64_t first_block = kNumFunctionalities + 2;
  constexpr int64_t block_size = kNumBackends + 1;
  if (k.is_alias()) return first_block + kNumPerBackendFunctionalities * block_size - 1 + static_cast<int64_t>(k.alias);
  if (!is_per_backend(k.functionality) || k.backend == BackendComponent::Invalid)
    return static_cast<int64_t>(k.functionality);
  int64_t block = 0;
  switch (k.functionality) {
    case Functionality::Dense: block = 0; break;
    case Functionality::Quantized: block = 1; break;
    case Functionality::Sparse: block = 2; break;
    case Functionality::SparseCsr: block = 3; break;
    case Functionality::NestedTensor: block = 4; break;
    default: block = 5; break;
  }
  return first_block + block * block_size + static_cast<int64_t>(k.backend);
}

}  // namespace ipt
