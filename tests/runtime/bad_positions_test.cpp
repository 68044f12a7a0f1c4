// Operators that follow positions held in their arguments (offsets, indices, saved results) and
// that can be called directly (torch.ops.aten): a position outside its tensor raises an error and
// writes nothing, where PyTorch 2.15 reads or writes past its buffers.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt {
namespace {

Tensor longs(std::vector<int64_t> v) {
  Tensor t = ops::empty_memory_format(std::vector<int64_t>{static_cast<int64_t>(v.size())}, ScalarType::Long);
  std::copy(v.begin(), v.end(), t.data_ptr<int64_t>());
  return t;
}

TEST(BadPositions, EmbeddingBagOffsets) {
  const Tensor w = ops::ones(std::vector<int64_t>{5, 3}, ScalarType::Double);
  // a middle offset past the indices
  EXPECT_THROW(ops::_embedding_bag(w, longs({1, 2, 3}), longs({0, 5, 2}), false, 0, false, std::nullopt, false, -1),
               Error);
  // no offsets at all: an empty result, never an index put in bag -1
  const auto r = ops::_embedding_bag(w, longs({1, 2}), longs({}), false, 1, false, std::nullopt, false, -1);
  EXPECT_EQ(std::get<0>(r).sizes(), (std::vector<int64_t>{0, 3}));
}

TEST(BadPositions, EmbeddingBagBackward) {
  const Tensor grad = ops::ones(std::vector<int64_t>{2, 3}, ScalarType::Float);
  EXPECT_THROW(ops::_embedding_bag_dense_backward(grad, longs({0, 9}), longs({0, 1}), longs({1, 1}), longs({1, 1}), 5,
                                                  false, 0, std::nullopt, -1),
               Error);
  EXPECT_THROW(ops::_embedding_bag_dense_backward(grad, longs({0, 1}), longs({0, 7}), longs({1, 1}), longs({1, 1}), 5,
                                                  false, 0, std::nullopt, -1),
               Error);
}

TEST(BadPositions, DistanceBackward) {
  const Tensor x = ops::ones(std::vector<int64_t>{2, 3}, ScalarType::Float);
  const Tensor one = ops::ones(std::vector<int64_t>{1}, ScalarType::Float);
  EXPECT_THROW(ops::_cdist_backward(one, x, x, 2.0, one), Error);
  EXPECT_THROW(ops::_pdist_backward(one, ops::ones(std::vector<int64_t>{3, 2}, ScalarType::Float), 2.0, one), Error);
  EXPECT_THROW(ops::_pdist_forward(one, 2.0), Error);
}

}  // namespace
}  // namespace ipt
