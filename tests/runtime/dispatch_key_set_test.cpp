// DispatchKeySet representation, printing and the per-tensor key sets (PyTorch 2.15's).
#include <gtest/gtest.h>

#include "core/dispatch/local_dispatch_key_set.h"
#include "generated/ops.h"

using namespace ipt;

TEST(DispatchKeySet, PrintsInPriorityOrder) {
  EXPECT_EQ(tensor_key_set(BackendComponent::CPU).to_string(),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  EXPECT_EQ(tensor_key_set(BackendComponent::Meta).to_string(), "DispatchKeySet(Meta, ADInplaceOrView, AutogradMeta)");
  EXPECT_EQ(tensor_key_set(BackendComponent::CUDA).to_string(),
            "DispatchKeySet(CUDA, ADInplaceOrView, AutogradCUDA, AutocastCUDA)");
  EXPECT_EQ(tensor_key_set(BackendComponent::CPU, /*inference=*/true).to_string(), "DispatchKeySet(CPU, AutocastCPU)");
}

TEST(DispatchKeySet, HighestPriorityKey) {
  DispatchKeySet ks = tensor_key_set(BackendComponent::CPU);
  EXPECT_EQ(ks.highest_priority_key().name(), "AutocastCPU");
  EXPECT_EQ((ks - keysets::autocast_dispatch_keyset).highest_priority_key().name(), "AutogradCPU");
  EXPECT_EQ((ks - keysets::autocast_dispatch_keyset - keysets::autograd_dispatch_keyset).highest_priority_key().name(),
            "ADInplaceOrView");
  EXPECT_EQ(DispatchKeySet().highest_priority_key().name(), "Undefined");
}

TEST(DispatchKeySet, OneWordSetOperations) {
  static_assert(sizeof(DispatchKeySet) == 8);
  DispatchKeySet a{keys::CPU, keys::AutogradCPU};
  DispatchKeySet b{keys::CUDA};
  DispatchKeySet u = a | b;  // the cross product: CUDA + Autograd bit means AutogradCUDA too
  EXPECT_EQ(u.to_string(), "DispatchKeySet(CPU, CUDA, AutogradCPU, AutogradCUDA)");
  EXPECT_TRUE(u.has(keys::AutogradCUDA));
  EXPECT_EQ((a - DispatchKeySet(keys::AutogradCPU)).to_string(), "DispatchKeySet(CPU)");
}

TEST(DispatchKeySet, ParseRoundTrips) {
  for (auto name : {"CPU", "AutogradCUDA", "QuantizedMeta", "ADInplaceOrView", "BackendSelect",
                    "CompositeImplicitAutograd", "PythonDispatcher", "SparseCPU", "Undefined"}) {
    auto k = DispatchKey::parse(name);
    ASSERT_TRUE(k) << name;
    EXPECT_EQ(k->name(), name);
  }
  EXPECT_FALSE(DispatchKey::parse("NotAKey"));
  EXPECT_FALSE(DispatchKey::parse("Named"));  // gone in 2.x
}

// torch._C.DispatchKey.X.value in PyTorch 2.15.
TEST(DispatchKey, PyTorchNumbers) {
  auto num = [](const char* n) { return pytorch_key_number(*DispatchKey::parse(n)); };
  EXPECT_EQ(num("Undefined"), 0);
  EXPECT_EQ(num("BackendSelect"), 11);
  EXPECT_EQ(num("Python"), 13);
  EXPECT_EQ(num("ADInplaceOrView"), 19);
  EXPECT_EQ(num("AutocastCPU"), 24);
  EXPECT_EQ(num("AutocastCUDA"), 32);
  EXPECT_EQ(num("PythonDispatcher"), 46);
  EXPECT_EQ(num("CPU"), 49);
  EXPECT_EQ(num("MTIA"), 59);
  EXPECT_EQ(num("Meta"), 64);
  EXPECT_EQ(num("QuantizedCPU"), 66);
  EXPECT_EQ(num("SparseCsrMeta"), 115);
  EXPECT_EQ(num("AutogradCPU"), 134);
  EXPECT_EQ(num("AutogradMeta"), 149);
  EXPECT_EQ(num("Autograd"), 150);
  EXPECT_EQ(num("FuncTorchBatchedDecomposition"), 152);
  EXPECT_EQ(num("CompositeExplicitAutogradNonFunctional"), 155);
  EXPECT_EQ(pytorch_key_number(DispatchKey(Functionality::Dense)), 1);
  EXPECT_EQ(pytorch_key_number(DispatchKey(Functionality::AutogradFunctionality)), 21);
}

TEST(LocalDispatchKeySet, DefaultsAndGuards) {
  auto& tls = local_dispatch_key_set();
  EXPECT_EQ(tls.included.to_string(), "DispatchKeySet(BackendSelect, ADInplaceOrView)");
  EXPECT_EQ(
      tls.excluded.to_string(),
      "DispatchKeySet(AutocastCPU, AutocastMTIA, AutocastMAIA, AutocastXPU, AutocastIPU, AutocastHPU, AutocastXLA, AutocastMPS, AutocastCUDA, AutocastPrivateUse1)");
  {
    NoGradGuard g;  // only grad mode changes
    EXPECT_FALSE(grad_mode_enabled());
    EXPECT_EQ(
        tls.excluded.to_string(),
        "DispatchKeySet(AutocastCPU, AutocastMTIA, AutocastMAIA, AutocastXPU, AutocastIPU, AutocastHPU, AutocastXLA, AutocastMPS, AutocastCUDA, AutocastPrivateUse1)");
  }
  EXPECT_TRUE(grad_mode_enabled());
  {
    InferenceModeGuard g;
    EXPECT_EQ(tls.included.to_string(), "DispatchKeySet(BackendSelect)");
    EXPECT_EQ(
        tls.excluded.to_string(),
        "DispatchKeySet(AutogradOther, AutogradNestedTensor, "
        "AutocastCPU, AutocastMTIA, AutocastMAIA, AutocastXPU, AutocastIPU, AutocastHPU, AutocastXLA, AutocastMPS, AutocastCUDA, AutocastPrivateUse1)");
    Tensor t = ops::ones(std::vector<int64_t>{2});
    EXPECT_EQ(t.key_set().to_string(), "DispatchKeySet(CPU, AutocastCPU)");
  }
  EXPECT_EQ(tls.included.to_string(), "DispatchKeySet(BackendSelect, ADInplaceOrView)");
}

TEST(TensorKeySets, MatchPyTorch) {
  EXPECT_EQ(ops::ones(std::vector<int64_t>{2}).key_set().to_string(),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  EXPECT_EQ(ops::ones(std::vector<int64_t>{2}, ScalarType::Long).key_set().to_string(),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  EXPECT_EQ(
      ops::ones(std::vector<int64_t>{2}, std::nullopt, std::nullopt, Device(DeviceType::Meta)).key_set().to_string(),
      "DispatchKeySet(Meta, ADInplaceOrView, AutogradMeta)");
}
