// Finite-difference gradient checks (float64) for the operators under torch.nn's layers:
// convolution (plain, strided, dilated, grouped, transposed; 1-D, 2-D, 3-D), constant padding,
// layer norm (with and without weight and bias), the activations gelu / elu / leaky_relu /
// hardtanh and embedding. Dropout's gradient is its mask times the scale, checked against
// PyTorch in tests/reference/programs/nn_embedding_dropout.py.
#include <gtest/gtest.h>

#include "tests/autograd/gradcheck.h"

namespace ipt_test {
namespace {

using T = std::vector<Tensor>;
using V = std::vector<int64_t>;

std::optional<Tensor> opt(const Tensor& t) { return t; }

TEST(GradcheckNnLayers, Conv2d) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::conv2d(x[0], x[1], opt(x[2]), V{1}, V{1}, V{1}, 1); },
                        {rleaf({2, 3, 5, 4}), rleaf({2, 3, 3, 2}), rleaf({2})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::conv2d(x[0], x[1], opt(x[2]), V{2, 1}, V{0, 1}, V{2}, 1);
      },
      {rleaf({1, 2, 7, 5}), rleaf({3, 2, 2, 2}), rleaf({3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::conv2d(x[0], x[1], std::nullopt, V{1}, V{0}, V{1}, 2); },
                        {rleaf({2, 4, 4, 4}), rleaf({4, 2, 2, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::conv2d(x[0], x[1], std::nullopt, V{1}, V{0}, V{1}, 1); },
                        {rleaf({2, 3, 3, 3}), rleaf({2, 3, 1, 1})}));
}

TEST(GradcheckNnLayers, Conv1dAnd3d) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::conv1d(x[0], x[1], opt(x[2]), V{2}, V{1}, V{1}, 1); },
                        {rleaf({2, 2, 7}), rleaf({3, 2, 3}), rleaf({3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::conv3d(x[0], x[1], opt(x[2]), V{1}, V{1}, V{1}, 1); },
                        {rleaf({1, 2, 3, 3, 2}), rleaf({2, 2, 2, 2, 2}), rleaf({2})}));
}

TEST(GradcheckNnLayers, ConvTranspose) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) { return ops::conv_transpose2d_input(x[0], x[1], opt(x[2]), V{2}, V{1}, V{1}, 1, V{1}); },
      {rleaf({2, 3, 3, 3}), rleaf({3, 2, 3, 3}), rleaf({2})}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::conv_transpose1d(x[0], x[1], std::nullopt, V{1}, V{0}, V{0}, 2, V{2}); },
                {rleaf({1, 4, 5}), rleaf({4, 1, 2})}));
}

TEST(GradcheckNnLayers, ConstantPad) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::constant_pad_nd(x[0], V{1, 2, -1, 1}, 0.5);
      },
      {rleaf({2, 3, 4})}));
}

TEST(GradcheckNnLayers, LayerNorm) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::layer_norm(x[0], V{5}, opt(x[1]), opt(x[2]), 1e-5, true); },
                        {rleaf({3, 5}), rleaf({5}), rleaf({5})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::layer_norm(x[0], V{2, 3}, opt(x[1]), std::nullopt, 1e-5, true);
      },
      {rleaf({2, 2, 3}), rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::layer_norm(x[0], V{17}, std::nullopt, std::nullopt, 1e-5, true); },
                        {rleaf({2, 17})}));
}

TEST(GradcheckNnLayers, Activations) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::gelu(x[0], "none"); }, {rleaf({2, 5}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::gelu(x[0], "tanh"); }, {rleaf({2, 5}, -3, 3)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::elu(x[0], 0.7, 1.2, 0.8); }, {rleaf({2, 5}, -3, 3, 0.1)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::leaky_relu(x[0], 0.2); }, {rleaf({2, 5}, -3, 3, 0.1)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::hardtanh(x[0], -1, 1); }, {rleaf({2, 5}, -0.9, 0.9, 0.1)}));
}

TEST(GradcheckNnLayers, Embedding) {
  const Tensor idx = from_values({2, 3}, {0, 2, 3, 3, 1, 0}, ipt::ScalarType::Long);
  EXPECT_TRUE(gradcheck([idx](const T& x) { return ops::embedding(x[0], idx, -1, false, false); }, {rleaf({4, 3})}));
  // padding_idx and scale_grad_by_freq change the gradient on purpose (no finite difference
  // matches them); nn_embedding_dropout checks them against PyTorch.
}

}  // namespace
}  // namespace ipt_test

namespace ipt_test {
namespace {

using T = std::vector<Tensor>;
using V = std::vector<int64_t>;

// Pooling, with values far enough apart that a finite difference never moves a maximum.
TEST(GradcheckNnLayers, Pooling) {
  const Tensor spread = ops::mul_Scalar(ops::randperm(2 * 3 * 6 * 5, ipt::ScalarType::Double), 0.1);
  const Tensor x = leaf(ops::clone(ops::view(spread, V{2, 3, 6, 5})));
  EXPECT_TRUE(gradcheck(
      [](const T& v) { return std::get<0>(ops::max_pool2d_with_indices(v[0], V{2}, V{2}, V{0}, V{1}, false)); }, {x}));
  EXPECT_TRUE(gradcheck(
      [](const T& v) { return std::get<0>(ops::max_pool2d_with_indices(v[0], V{3}, V{2}, V{1}, V{1}, true)); }, {x}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::avg_pool2d(v[0], V{3}, V{2}, V{1}, false, true, std::nullopt); },
                        {rleaf({2, 3, 6, 5})}));
  EXPECT_TRUE(gradcheck(
      [](const T& v) {
        return ops::avg_pool2d(v[0], V{2, 3}, V{1}, V{1}, true, false, std::nullopt);
      },
      {rleaf({1, 2, 5, 5})}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::avg_pool3d(v[0], V{2}, V{1}, V{0}, false, true, std::nullopt); },
                        {rleaf({1, 2, 3, 3, 3})}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::_adaptive_avg_pool2d(v[0], V{4, 3}); }, {rleaf({2, 2, 7, 5})}));
  EXPECT_TRUE(gradcheck(
      [](const T& v) {
        return ops::_adaptive_avg_pool3d(v[0], V{2, 2, 3});
      },
      {rleaf({1, 2, 3, 5, 4})}));
}

TEST(GradcheckNnLayers, GroupNorm) {
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::group_norm(v[0], 2, v[1], v[2], 1e-5, false); },
                        {rleaf({2, 4, 3, 2}), rleaf({4}), rleaf({4})}));
  EXPECT_TRUE(gradcheck([](const T& v) { return ops::group_norm(v[0], 3, std::nullopt, std::nullopt, 1e-5, false); },
                        {rleaf({2, 6, 5})}));
}

TEST(GradcheckNnLayers, BatchNorm) {
  for (const V& shape : {V{4, 3, 3, 2}, V{5, 3}}) {
    EXPECT_TRUE(gradcheck(
        [](const T& v) {
          return ops::batch_norm(v[0], v[1], v[2], std::nullopt, std::nullopt, true, 0.1, 1e-5, false);
        },
        {rleaf(shape), rleaf({3}), rleaf({3})}));
    const Tensor rm = rand_double({3}), rv = rand_double({3}, 0.5, 1.5);
    EXPECT_TRUE(
        gradcheck([rm, rv](const T& v) { return ops::batch_norm(v[0], v[1], v[2], rm, rv, false, 0.1, 1e-5, false); },
                  {rleaf(shape), rleaf({3}), rleaf({3})}));
  }
}

}  // namespace
}  // namespace ipt_test
