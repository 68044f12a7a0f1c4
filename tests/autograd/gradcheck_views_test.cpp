// Finite-difference checks (float64, see gradcheck.h) for the view operators' backward formulas
// (as_strided, unfold, diagonal) and for in-place writes into views (CopySlices). PyTorch's
// values and node names for the same programs: tests/reference/programs/autograd_copy_slices.py.
#include <gtest/gtest.h>

#include "core/ops/scalar_tensor.h"
#include "tests/autograd/gradcheck.h"

namespace ipt_test {
namespace {

using T = std::vector<Tensor>;

std::string node_name(const Tensor& out) {
  const auto& fn = ipt::autograd::grad_fn(out);
  return fn ? fn->name() : "(none)";
}

TEST(GradcheckViews, AsStrided) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::as_strided(x[0], V{3, 3}, V{2, 1}, 1); }, {rleaf({12})}));
  // Overlapping windows: an element read twice gets both gradients.
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::as_strided(x[0], V{3, 3}, V{1, 1}, 0); }, {rleaf({5})}));
  // Of a non-contiguous input (a transposed matrix keeps its own storage positions).
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::as_strided(ops::t(x[0]), V{2, 2}, V{1, 3}, 0);
      },
      {rleaf({3, 4})}));
  EXPECT_EQ(node_name(ops::as_strided(rleaf({6}), V{2}, V{2}, 0)), "AsStridedBackward0");
}

TEST(GradcheckViews, UnfoldAndDiagonal) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unfold(x[0], 0, 4, 3); }, {rleaf({12})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unfold(x[0], 0, 3, 2); }, {rleaf({11})}));  // overlapping
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unfold(x[0], 1, 2, 1); }, {rleaf({3, 5})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::unfold(x[0], -1, 2, 2); }, {rleaf({2, 3, 4})}));
  EXPECT_EQ(node_name(ops::unfold(rleaf({6}), 0, 2, 2)), "UnfoldBackward0");
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diagonal(x[0], 1, 0, 1); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diagonal(x[0], -1, 1, 2); }, {rleaf({2, 3, 3})}));
}

TEST(GradcheckViews, InPlaceWritesIntoViews) {
  // y = x * 1; y[1:3] *= w; the base's history is CopySlices around MulBackward0.
  auto mul_slice = [](const T& x) {
    Tensor y = ops::mul_Tensor(x[0], ipt::native::wrapped_scalar_tensor(1.0));
    ops::mul__Tensor(ops::slice_Tensor(y, 0, 1, 3, 1), x[1]);
    return y;
  };
  EXPECT_TRUE(gradcheck(mul_slice, {rleaf({4}), rleaf({2})}));
  EXPECT_EQ(node_name(mul_slice({rleaf({4}), rleaf({2})})), "torch::autograd::CopySlices");
  // A column of a transposed view, then another write through a second view of the same base.
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = ops::mul_Tensor(x[0], ipt::native::wrapped_scalar_tensor(2.0));
        ops::add__Tensor(ops::select_int(ops::t(y), 0, 1), x[1]);
        ops::mul__Tensor(ops::select_int(y, 0, 0), x[1]);
        return ops::mul_Tensor(y, y);
      },
      {rleaf({3, 3}), rleaf({3})}));
  // copy_ of a function of w into a slice of a tensor that did not require grad.
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor c = ops::zeros(V{4}, ipt::ScalarType::Double);
        ops::copy_(ops::slice_Tensor(c, 0, 1, 3, 1), ops::exp(x[0]));
        return c;
      },
      {rleaf({2})}));
  // The view itself used after the write (its regenerated AsStridedBackward0 history).
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        Tensor y = ops::mul_Tensor(x[0], ipt::native::wrapped_scalar_tensor(1.0));
        Tensor v = ops::slice_Tensor(y, 0, 0, 2, 1);
        ops::mul__Tensor(v, x[1]);
        return ops::mul_Tensor(v, v);
      },
      {rleaf({3}), rleaf({2})}));
}

}  // namespace
}  // namespace ipt_test
