// Views share storage with PyTorch's exact sizes/strides/offsets; copies get new storage.
#include <gtest/gtest.h>

#include "core/util/error.h"
#include "generated/ops.h"

using namespace ipt;
using V = std::vector<int64_t>;

namespace {
Tensor arange12() { return ops::reshape(ops::arange(12.0), V{3, 4}); }
}  // namespace

TEST(Views, TransposeSwapsSizesAndStridesAndSharesStorage) {
  Tensor x = arange12();
  Tensor y = ops::t(x);
  EXPECT_EQ(y.sizes(), (V{4, 3}));
  EXPECT_EQ(y.strides(), (V{1, 4}));
  EXPECT_EQ(y.storage().get(), x.storage().get());
  EXPECT_FALSE(y.is_contiguous());
  EXPECT_TRUE(y.impl()->is_view());
}

TEST(Views, ContiguousCopiesOnlyWhenNeeded) {
  Tensor x = arange12();
  EXPECT_TRUE(ops::contiguous(x).is_same(x));
  Tensor y = ops::contiguous(ops::t(x));
  EXPECT_NE(y.storage().get(), x.storage().get());
  EXPECT_EQ(y.strides(), (V{3, 1}));
  EXPECT_EQ(to_double_vector(y), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(Views, ViewFailsWhereReshapeCopies) {
  Tensor y = ops::t(arange12());
  try {
    ops::view(y, V{12});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
        "contiguous subspaces). Use .reshape(...) instead.");
  }
  Tensor r = ops::reshape(y, V{12});
  EXPECT_NE(r.storage().get(), y.storage().get());
  Tensor r2 = ops::reshape(arange12(), V{2, 6});
  EXPECT_EQ(r2.strides(), (V{6, 1}));
}

TEST(Views, SlicingSelectNarrowOffsets) {
  Tensor x = arange12();
  Tensor s = ops::slice_Tensor(x, 1, 1, std::nullopt, 2);  // x[:, 1::2]
  EXPECT_EQ(s.sizes(), (V{3, 2}));
  EXPECT_EQ(s.strides(), (V{4, 2}));
  EXPECT_EQ(s.storage_offset(), 1);
  Tensor r = ops::select_int(x, 0, -1);  // x[-1]
  EXPECT_EQ(r.storage_offset(), 8);
  Tensor n = ops::narrow(x, 1, 2, 2);
  EXPECT_EQ(n.storage_offset(), 2);
  EXPECT_EQ(n.sizes(), (V{3, 2}));
}

TEST(Views, ExpandGivesStrideZero) {
  Tensor c = ops::unsqueeze(ops::arange(3.0), 1);  // 3x1
  Tensor e = ops::expand(c, V{3, 4});
  EXPECT_EQ(e.strides(), (V{1, 0}));
  try {
    ops::expand(arange12(), V{3, 5});
    FAIL();
  } catch (const Error& ex) {
    EXPECT_EQ(std::string(ex.what()),
              "The expanded size of the tensor (5) must match the existing size (4) at non-singleton dimension 1.  "
              "Target sizes: [3, 5].  Tensor sizes: [3, 4]");
  }
}

TEST(Views, DiagonalUnfoldAsStrided) {
  Tensor x = arange12();
  Tensor d = ops::diagonal(x, 1);
  EXPECT_EQ(d.sizes(), (V{3}));
  EXPECT_EQ(d.strides(), (V{5}));
  EXPECT_EQ(d.storage_offset(), 1);
  Tensor u = ops::unfold(ops::arange(7.0), 0, 3, 2);
  EXPECT_EQ(u.sizes(), (V{3, 3}));
  EXPECT_EQ(u.strides(), (V{2, 1}));
  Tensor a = ops::as_strided(x, V{2, 2}, V{1, 4}, 1);
  EXPECT_EQ(to_double_vector(a), (std::vector<double>{1, 5, 2, 6}));
  EXPECT_THROW(ops::as_strided(x, V{4, 4}, V{4, 1}), Error);
}

TEST(Views, WritesThroughAViewReachTheBase) {
  Tensor x = arange12();
  Tensor v = ops::select_int(ops::t(x), 0, 1);  // column 1
  ops::fill__Scalar(v, 100);
  EXPECT_EQ(element_as_double(x, 1), 100);
  EXPECT_EQ(element_as_double(x, 5), 100);
  EXPECT_EQ(x.impl()->version(), v.impl()->version());  // shared version counter
}

TEST(Views, SqueezeUnsqueezeFlattenPermute) {
  Tensor x = ops::reshape(ops::arange(24.0), V{2, 1, 3, 4});
  EXPECT_EQ(ops::squeeze(x).sizes(), (V{2, 3, 4}));
  EXPECT_EQ(ops::squeeze_dim(x, 2).sizes(), (V{2, 1, 3, 4}));
  EXPECT_EQ(ops::unsqueeze(x, -1).strides(), (V{12, 12, 4, 1, 1}));
  EXPECT_EQ(ops::flatten_using_ints(x, 1, 2).sizes(), (V{2, 3, 4}));
  Tensor p = ops::permute(x, V{3, 0, 2, 1});
  EXPECT_EQ(p.strides(), (V{1, 12, 4, 12}));
  EXPECT_THROW(ops::permute(x, V{0, 0, 1, 2}), Error);
}
