// SmallVector: the list type of tensor snapshots and dispatch steps (Note [Small lists stay
// inside the event]). It must behave as the std::vector it replaces, inline and on the heap.
#include "core/util/small_vector.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

namespace ipt {
namespace {

using Ints = SmallVector<int64_t, 3>;

std::vector<int64_t> as_vector(const Ints& v) { return std::vector<int64_t>(v); }

TEST(SmallVector, PushBackKeepsEveryValueAcrossTheMoveToTheHeap) {
  Ints v;
  std::vector<int64_t> want;
  for (int64_t i = 0; i < 100; ++i) {
    v.push_back(i * 7);
    want.push_back(i * 7);
    ASSERT_EQ(as_vector(v), want) << "after " << i + 1 << " values";
  }
  EXPECT_GE(v.capacity(), 100u);
}

TEST(SmallVector, PushBackOfItsOwnElementWhileGrowing) {
  Ints v{1, 2, 3};  // full inline
  v.push_back(v[0]);
  EXPECT_EQ(as_vector(v), (std::vector<int64_t>{1, 2, 3, 1}));
}

TEST(SmallVector, InlineUpToNThenOneHeapBlock) {
  Ints v{4, 5, 6};
  EXPECT_EQ(v.capacity(), 3u);
  v.resize(4, 9);
  EXPECT_EQ(as_vector(v), (std::vector<int64_t>{4, 5, 6, 9}));
  v.resize(2);
  EXPECT_EQ(as_vector(v), (std::vector<int64_t>{4, 5}));
}

TEST(SmallVector, CopiesAndMovesInlineAndOnTheHeap) {
  for (size_t n : {0u, 2u, 3u, 4u, 300u}) {
    Ints a;
    for (size_t i = 0; i < n; ++i) a.push_back(static_cast<int64_t>(i) - 5);
    const std::vector<int64_t> want = as_vector(a);
    Ints copy = a;
    EXPECT_EQ(as_vector(copy), want);
    Ints moved = std::move(a);
    EXPECT_EQ(as_vector(moved), want);
    EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
    Ints assigned{1};
    assigned = moved;
    EXPECT_EQ(as_vector(assigned), want);
    Ints move_assigned(500, 1);
    move_assigned = std::move(copy);
    EXPECT_EQ(as_vector(move_assigned), want);
    const Ints& same = assigned;
    assigned = same;  // self-assignment keeps the values
    EXPECT_EQ(as_vector(assigned), want);
  }
}

TEST(SmallVector, ConvertsFromAndComparesWithStdVector) {
  const std::vector<int64_t> big{1, 2, 3, 4, 5, 6};
  Ints v = big;
  EXPECT_TRUE(v == big);
  v = std::vector<int64_t>{7};
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(v.front(), 7);
  EXPECT_EQ(v.back(), 7);
  EXPECT_FALSE(v == big);
  EXPECT_TRUE(v == Ints{7});
  v.clear();
  EXPECT_TRUE(v.empty());
}

TEST(SmallVector, HoldsDoublesBitForBit) {
  SmallVector<double, 1> v{-0.0, NAN, 1.5};
  ASSERT_EQ(v.size(), 3u);
  EXPECT_TRUE(std::signbit(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], 1.5);
}

}  // namespace
}  // namespace ipt
