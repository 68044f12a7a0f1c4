// TensorGuard: what TENSOR_MATCH checks, in which order, and how it words a mismatch
// (Note [What a tensor guard checks]).
#include <gtest/gtest.h>

#include "backends/registry.h"
#include "core/dynamo/tensor_guard.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "generated/ops.h"

namespace ipt::compile {
namespace {

class TensorGuardTest : public ::testing::Test {
 protected:
  void SetUp() override { register_all_backends(); }
};

TEST_F(TensorGuardTest, ASameLayoutTensorMatches) {
  Tensor x = ops::ones(std::vector<int64_t>{3, 4}, ScalarType::Float);
  TensorGuard g = TensorGuard::of(x);
  EXPECT_TRUE(g.matches(ops::zeros(std::vector<int64_t>{3, 4}, ScalarType::Float)));
  EXPECT_EQ(g.mismatch(ops::zeros(std::vector<int64_t>{3, 4}, ScalarType::Float)), "");
}

TEST_F(TensorGuardTest, SizeStrideRankDtypeAreWordedAsPyTorch2Does) {
  TensorGuard g = TensorGuard::of(ops::ones(std::vector<int64_t>{3, 4}, ScalarType::Float));
  EXPECT_EQ(g.mismatch(ops::ones(std::vector<int64_t>{5, 4}, ScalarType::Float)),
            "size mismatch at index 0. expected 3, actual 5");
  EXPECT_EQ(g.mismatch(ops::ones(std::vector<int64_t>{3, 5}, ScalarType::Float)),
            "size mismatch at index 1. expected 4, actual 5");
  EXPECT_EQ(g.mismatch(ops::t(ops::ones(std::vector<int64_t>{4, 3}, ScalarType::Float))),
            "stride mismatch at index 0. expected 4, actual 1");
  EXPECT_EQ(g.mismatch(ops::ones(std::vector<int64_t>{3}, ScalarType::Float)), "rank mismatch. expected 2, actual 1");
  EXPECT_EQ(g.mismatch(ops::ones(std::vector<int64_t>{3, 4}, ScalarType::Double)),
            "dtype mismatch. expected Float, actual Double");
}

TEST_F(TensorGuardTest, RequiresGradComesBeforeSizes) {
  TensorGuard g = TensorGuard::of(ops::ones(std::vector<int64_t>{3}, ScalarType::Float));
  Tensor y = ops::ones(std::vector<int64_t>{4}, ScalarType::Float);
  y.impl()->set_requires_grad(true);
  // The key set is the same (Autograd keys are always there); requires_grad is checked first.
  EXPECT_EQ(g.mismatch(y), "requires_grad mismatch. expected requires_grad=0");
}

TEST_F(TensorGuardTest, TheKeySetIsTheOneACallWouldDispatchOn) {
  Tensor x = ops::ones(std::vector<int64_t>{2}, ScalarType::Float);
  TensorGuard g = TensorGuard::of(x);
  EXPECT_EQ(g.keys().to_string(), "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)");
  // Below autograd (the Autograd keys excluded), the same tensor would dispatch elsewhere.
  ExcludeDispatchKeyGuard below(keysets::autograd_dispatch_keyset);
  EXPECT_EQ(
      g.mismatch(x).rfind("dispatch key set mismatch. expected DispatchKeySet(CPU, BackendSelect, "
                          "ADInplaceOrView, AutogradCPU), actual DispatchKeySet(CPU, BackendSelect, ADInplaceOrView)",
                          0),
      0u)
      << g.mismatch(x);
}

TEST_F(TensorGuardTest, ADynamicDimensionIsLeftToTheShapeGuards) {
  TensorGuard g = TensorGuard::of(ops::ones(std::vector<int64_t>{3, 4}, ScalarType::Float), {0});
  EXPECT_TRUE(g.matches(ops::ones(std::vector<int64_t>{7, 4}, ScalarType::Float)));
  EXPECT_EQ(g.mismatch(ops::ones(std::vector<int64_t>{7, 5}, ScalarType::Float)),
            "size mismatch at index 1. expected 4, actual 5");
  EXPECT_EQ(g.repr("L['x']"),
            "check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), "
            "torch.float32, device=None, requires_grad=False, size=[None, 4], stride=[4, 1])");
  // A stride that spans a dynamic size is free too.
  TensorGuard inner = TensorGuard::of(ops::ones(std::vector<int64_t>{3, 4}, ScalarType::Float), {1});
  EXPECT_EQ(inner.repr("L['x']").substr(inner.repr("L['x']").find("size=")), "size=[3, None], stride=[None, 1])");
  EXPECT_TRUE(inner.matches(ops::ones(std::vector<int64_t>{3, 9}, ScalarType::Float)));
}

}  // namespace
}  // namespace ipt::compile
