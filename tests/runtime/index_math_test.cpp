// Index math: unit cases plus property tests on random shapes.
#include <gtest/gtest.h>

#include <random>

#include "core/tensor/index_math.h"
#include "core/util/error.h"

using namespace ipt;
using V = std::vector<int64_t>;

TEST(IndexMath, ContiguousStrides) {
  EXPECT_EQ(contiguous_strides(V{2, 3, 4}), (V{12, 4, 1}));
  EXPECT_EQ(contiguous_strides(V{}), (V{}));
  EXPECT_EQ(contiguous_strides(V{3, 0, 2}), (V{2, 2, 1}));
}

TEST(IndexMath, WrapDim) {
  EXPECT_EQ(wrap_dim(-1, 2), 1);
  EXPECT_EQ(wrap_dim(0, 0), 0);
  try {
    wrap_dim(2, 2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::IndexError);
    EXPECT_STREQ(e.what(), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  }
}

TEST(IndexMath, InferSize) {
  EXPECT_EQ(infer_size(V{-1, 4}, 12), (V{3, 4}));
  EXPECT_THROW(infer_size(V{-1, -1}, 12), Error);
  try {
    infer_size(V{2, 5}, 12);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "shape '[2, 5]' is invalid for input of size 12");
  }
}

TEST(IndexMath, ViewStrides) {
  // Transposed 3x4 -> (4, 3) strides (1, 4): cannot flatten.
  EXPECT_FALSE(compute_view_strides(V{4, 3}, V{1, 4}, V{12}));
  EXPECT_EQ(*compute_view_strides(V{3, 4}, V{4, 1}, V{2, 6}), (V{6, 1}));
  EXPECT_EQ(*compute_view_strides(V{4, 3}, V{1, 4}, V{4, 1, 3}), (V{1, 12, 4}));  // as PyTorch computes it
  // A column slice keeps rows splittable.
  EXPECT_EQ(*compute_view_strides(V{4, 2}, V{4, 1}, V{2, 2, 2}), (V{8, 4, 1}));
}

TEST(IndexMath, BroadcastMessage) {
  try {
    broadcast_shapes(V{2, 3}, V{2, 4});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  }
  EXPECT_EQ(broadcast_shapes(V{3, 1}, V{4}), (V{3, 4}));
}

// Property: for random shapes, unravel + element_offset with contiguous strides is the identity,
// and any view of a contiguous tensor the algorithm accepts addresses the same elements.
TEST(IndexMathProperty, ContiguousOffsetsAreLinear) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 500; ++iter) {
    int nd = rng() % 5;
    V sizes;
    for (int i = 0; i < nd; ++i) sizes.push_back(1 + rng() % 4);
    V strides = contiguous_strides(sizes);
    int64_t n = numel_of(sizes);
    for (int64_t lin = 0; lin < n; ++lin) EXPECT_EQ(element_offset(0, strides, unravel_index(lin, sizes)), lin);
    EXPECT_TRUE(compute_is_contiguous(sizes, strides));
  }
}

TEST(IndexMathProperty, ViewOfPermutedPreservesElements) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 300; ++iter) {
    int nd = 1 + rng() % 4;
    V sizes;
    for (int i = 0; i < nd; ++i) sizes.push_back(1 + rng() % 4);
    V strides = contiguous_strides(sizes);
    // random permutation of dims
    V perm(nd);
    for (int i = 0; i < nd; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    V ps, pst;
    for (int i = 0; i < nd; ++i) {
      ps.push_back(sizes[perm[i]]);
      pst.push_back(strides[perm[i]]);
    }
    int64_t n = numel_of(ps);
    // Flatten when possible: element k of the flat view must be element k of the permuted tensor.
    auto flat = compute_view_strides(ps, pst, V{n});
    if (flat) {
      for (int64_t k = 0; k < n; ++k) EXPECT_EQ((*flat)[0] * k, element_offset(0, pst, unravel_index(k, ps)));
    } else {
      EXPECT_FALSE(compute_is_contiguous(ps, pst));
    }
    // Splitting the last dim of a contiguous tensor is always a view.
    if (sizes.back() % 2 == 0) {
      V split(sizes.begin(), sizes.end() - 1);
      split.push_back(2);
      split.push_back(sizes.back() / 2);
      auto s = compute_view_strides(sizes, strides, split);
      ASSERT_TRUE(s);
      EXPECT_EQ(*s, contiguous_strides(split));
    }
  }
}
