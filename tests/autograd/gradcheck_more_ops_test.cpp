// Finite-difference gradient checks (float64) for the Core ATen operators added beside the nn
// layers: reflection / replication / circular padding, nearest and bilinear upsampling, flip,
// roll, rot90, sort / topk / kthvalue (distinct values), tril / triu, clamp with tensor bounds,
// number ** tensor, div with rounding_mode (a zero gradient), the scatters into slices,
// repeat_interleave, diag_embed, and the losses with kernels of their own (binary cross entropy,
// with logits, smooth L1, Huber, log_sigmoid), xlogy / kl_div / cosine_similarity, attention and
// masked_scatter, im2col / col2im (F.unfold / F.fold), scatter_reduce (every reduction, with
// and without self, distinct values so no perturbation changes which value wins), einsum,
// tensordot and kron, cdist (the distance kernel and the matrix-product form) and pdist; and the
// pooling and embedding backward operators, differentiated in their gradient (double backward);
// grid_sampler_2d (input and grid), affine_grid_generator, and _embedding_bag (weight and
// per_sample_weights); convolution_backward and native_layer_norm_backward differentiated in
// their gradients (double backward), and group norm's differentiable mean and rstd.
#include <gtest/gtest.h>

#include <limits>

#include "tests/autograd/gradcheck.h"

namespace ipt_test {
namespace {

using T = std::vector<Tensor>;
using V = std::vector<int64_t>;

std::optional<Tensor> opt(const Tensor& t) { return t; }

TEST(GradcheckMoreOps, Padding) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::reflection_pad2d(x[0], V{2, 1, 1, 2}); }, {rleaf({1, 2, 3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::reflection_pad1d(x[0], V{2, -1}); }, {rleaf({2, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::replication_pad2d(x[0], V{3, 0, 2, 1}); }, {rleaf({2, 3, 2})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::replication_pad3d(x[0], V{1, 1, 2, 0, 1, 1});
      },
      {rleaf({1, 1, 2, 2, 3})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::pad(x[0], V{2, 1, 1, 1}, "circular", std::nullopt);
      },
      {rleaf({1, 2, 3, 4})}));
}

TEST(GradcheckMoreOps, Upsampling) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::upsample_nearest2d(x[0], V{5, 7}, std::nullopt, std::nullopt);
      },
      {rleaf({1, 2, 3, 4})}));
  for (bool ac : {false, true})
    EXPECT_TRUE(gradcheck(
        [ac](const T& x) {
          return ops::upsample_bilinear2d(x[0], V{5, 3}, ac, std::nullopt, std::nullopt);
        },
        {rleaf({2, 1, 3, 4})}));
}

TEST(GradcheckMoreOps, Rearranging) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::flip(x[0], V{0, 2}); }, {rleaf({2, 3, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::roll(x[0], V{1, -2}, V{0, 1}); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::rot90(x[0], 1, V{0, 1}); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::tril(x[0], 0); }, {rleaf({2, 3, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::triu(x[0], 1); }, {rleaf({3, 4})}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::repeat_interleave_self_int(x[0], 2, 1, std::nullopt); }, {rleaf({2, 3})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::diag_embed(x[0], 1, -2, -1); }, {rleaf({2, 3})}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::slice_scatter(x[0], x[1], 1, 1, 4, 2); }, {rleaf({2, 5}), rleaf({2, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::select_scatter(x[0], x[1], 0, 1); }, {rleaf({3, 4}), rleaf({4})}));
}

TEST(GradcheckMoreOps, Sorting) {
  // random values: no perturbation of 1e-6 reorders them
  EXPECT_TRUE(gradcheck([](const T& x) { return std::get<0>(ops::sort(x[0], 1, false)); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return std::get<0>(ops::topk(x[0], 2, 0, true, true)); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return std::get<0>(ops::kthvalue(x[0], 2, 1, false)); }, {rleaf({3, 4})}));
}

TEST(GradcheckMoreOps, Pointwise) {
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::clamp_Tensor(x[0], opt(x[1]), opt(x[2])); },
                        {rleaf({3, 4}), rleaf({4}, -0.9, -0.1), rleaf({3, 1}, 0.1, 0.9)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::pow_Scalar(ipt::Scalar(2.5), x[0]); }, {rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::div_Tensor_mode(x[0], x[1], std::nullopt); },
                        {rleaf({3, 4}), rleaf({4}, 0.5, 2.0)}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::xlogy_Tensor(x[0], x[1]); }, {rleaf({3, 4}), rleaf({3, 4}, 0.5, 2.0)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::log_sigmoid(x[0]); }, {rleaf({3, 4}, -5.0, 5.0)}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::clamp_min(x[0], ipt::Scalar(0.0)); }, {rleaf({3, 4}, -1, 1, 0.05)}));
}

TEST(GradcheckMoreOps, Losses) {
  const Tensor weight = rand_double({3, 4}, 0.5, 1.5);  // not differentiable, as in PyTorch
  EXPECT_TRUE(gradcheck([weight](const T& x) { return ops::binary_cross_entropy(x[0], x[1], weight, 1); },
                        {rleaf({3, 4}, 0.1, 0.9), rleaf({3, 4}, 0.0, 1.0)}));
  const Tensor pos_weight = rand_double({4}, 0.5, 2.0);
  EXPECT_TRUE(gradcheck(
      [pos_weight](const T& x) {
        return ops::binary_cross_entropy_with_logits(x[0], x[1], std::nullopt, pos_weight, 2);
      },
      {rleaf({3, 4}), rleaf({3, 4}, 0.0, 1.0)}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::smooth_l1_loss(x[0], x[1], 1, 0.5); }, {rleaf({3, 4}), rleaf({3, 4})}));
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::huber_loss(x[0], x[1], 0, 0.5); }, {rleaf({3, 4}), rleaf({3, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::kl_div(x[0], x[1], 2, false); },
                        {rleaf({3, 4}), rleaf({3, 4}, 0.1, 1.0)}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cosine_similarity(x[0], x[1], 1, 1e-8); },
                        {rleaf({3, 4}), rleaf({3, 4})}));
}

TEST(GradcheckMoreOps, AttentionAndMaskedScatter) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::scaled_dot_product_attention(x[0], x[1], x[2], std::nullopt, 0.0, true, std::nullopt, false);
      },
      {rleaf({1, 2, 3, 4}), rleaf({1, 2, 3, 4}), rleaf({1, 2, 3, 4})}));
  const Tensor mask = ops::gt_Scalar(rand_double({3, 4}), ipt::Scalar(0.0));
  EXPECT_TRUE(
      gradcheck([mask](const T& x) { return ops::masked_scatter(x[0], mask, x[1]); }, {rleaf({3, 4}), rleaf({12})}));
}

TEST(GradcheckMoreOps, SlidingBlocks) {
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::im2col(x[0], V{2, 3}, V{1, 2}, V{1, 0}, V{2, 1});
      },
      {rleaf({2, 2, 4, 5})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::col2im(x[0], V{4, 4}, V{2, 2}, V{1, 1}, V{1, 1}, V{1, 1});
      },
      {rleaf({1, 8, 25})}));
}

TEST(GradcheckMoreOps, ScatterReduce) {
  const Tensor index = from_values({2, 3}, {0, 2, 0, 1, 0, 2}, ipt::ScalarType::Long);
  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"})
    for (bool include_self : {true, false})
      EXPECT_TRUE(
          gradcheck([&](const T& x) { return ops::scatter_reduce_two(x[0], 0, index, x[1], reduce, include_self); },
                    {rleaf({3, 3}, 0.5, 1.5), rleaf({2, 3}, -2.0, -0.5)}))
          << reduce << " include_self=" << include_self;
}

TEST(GradcheckMoreOps, Contractions) {
  const std::vector<std::string> equations = {"ij,jk->ik", "bij,bjk->bik", "ii->i", "i,j->ij", "ij,ij->", "...j,jk"};
  const std::vector<std::pair<V, V>> shapes = {{{3, 4}, {4, 2}}, {{2, 3, 4}, {2, 4, 2}}, {{3, 3}, {}},
                                               {{3}, {4}},       {{2, 3}, {2, 3}},       {{2, 3, 4}, {4, 2}}};
  for (size_t k = 0; k < equations.size(); ++k) {
    const std::string eq = equations[k];
    if (shapes[k].second.empty())
      EXPECT_TRUE(gradcheck([&](const T& x) { return ops::einsum(eq, x, std::nullopt); }, {rleaf(shapes[k].first)}))
          << eq;
    else
      EXPECT_TRUE(gradcheck([&](const T& x) { return ops::einsum(eq, x, std::nullopt); },
                            {rleaf(shapes[k].first), rleaf(shapes[k].second)}))
          << eq;
  }
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::tensordot(x[0], x[1], V{1, 2}, V{0, 1});
      },
      {rleaf({2, 3, 4}), rleaf({3, 4, 2})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::kron(x[0], x[1]); }, {rleaf({2, 3}), rleaf({3})}));
}

TEST(GradcheckMoreOps, Distances) {
  for (double p : {1.0, 2.0, 3.0, 1.5, std::numeric_limits<double>::infinity()}) {
    EXPECT_TRUE(
        gradcheck([p](const T& x) { return ops::cdist(x[0], x[1], p, std::nullopt); }, {rleaf({3, 4}), rleaf({2, 4})}))
        << "cdist p=" << p;
    EXPECT_TRUE(gradcheck([p](const T& x) { return ops::pdist(x[0], p); }, {rleaf({4, 3})})) << "pdist p=" << p;
  }
  EXPECT_TRUE(
      gradcheck([](const T& x) { return ops::cdist(x[0], x[1], 2.0, 1); }, {rleaf({2, 3, 4}), rleaf({2, 2, 4})}));
  EXPECT_TRUE(gradcheck([](const T& x) { return ops::cdist(x[0], x[1], 2.0, std::nullopt); },
                        {rleaf({2, 1, 3, 4}), rleaf({3, 2, 4})}));
}

TEST(GradcheckMoreOps, BackwardOperatorsTwice) {
  const Tensor self = rand_double({1, 2, 4, 4});
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::_adaptive_avg_pool2d_backward(x[0], self); }, {rleaf({1, 2, 3, 3})}));
  EXPECT_TRUE(gradcheck(
      [&](const T& x) {
        return ops::avg_pool2d_backward(x[0], self, V{2, 2}, V{2, 2}, V{0, 0}, false, true, std::nullopt);
      },
      {rleaf({1, 2, 2, 2})}));
  // a plain variable, not a structured binding: clang cannot capture those in a lambda
  const Tensor indices = std::get<1>(ops::max_pool2d_with_indices(self, V{2, 2}, V{2, 2}, V{0, 0}, V{1, 1}, false));
  EXPECT_TRUE(gradcheck(
      [&](const T& x) {
        return ops::max_pool2d_with_indices_backward(x[0], self, V{2, 2}, V{2, 2}, V{0, 0}, V{1, 1}, false, indices);
      },
      {rleaf({1, 2, 2, 2})}));
  const Tensor idx = from_values({2, 3}, {0, 4, 2, 2, 1, 4}, ipt::ScalarType::Long);
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return ops::embedding_dense_backward(x[0], idx, 5, 2, false); }, {rleaf({2, 3, 3})}));
}

// The three results of a backward operator, flattened into one tensor (its outputs each get a
// gradient, so each output's double-backward formula is checked).
Tensor joined(const std::tuple<Tensor, Tensor, Tensor>& r) {
  std::vector<Tensor> parts;
  for (const Tensor& t : {std::get<0>(r), std::get<1>(r), std::get<2>(r)})
    if (t.defined()) parts.push_back(ops::reshape(t, V{-1}));
  return ops::cat(parts, 0);
}

TEST(GradcheckMoreOps, ConvolutionAndNormBackwardTwice) {
  // grad_output, input and weight of a strided, padded, grouped 2-D convolution and of a 1-D
  // transposed one with output padding
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return joined(ops::convolution_backward(x[0], x[1], x[2], V{2}, V{2, 1}, V{1, 0}, V{1, 1}, false, V{0, 0}, 2,
                                                {true, true, true}));
      },
      {rleaf({1, 2, 3, 3}), rleaf({1, 4, 5, 4}), rleaf({2, 2, 2, 2})}));
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return joined(ops::convolution_backward(x[0], x[1], x[2], std::nullopt, V{2}, V{1}, V{1}, true, V{1}, 1,
                                                {true, true, false}));
      },
      {rleaf({2, 3, 6}), rleaf({2, 2, 3}), rleaf({2, 3, 3})}));
  // grad_out, input and weight of layer norm's backward, with and without a weight; its mean and
  // rstd come from the same input (not differentiable: the formula differentiates through them)
  auto layer_norm_backward = [](const T& x, bool affine) {
    const auto stats = ops::native_layer_norm(x[1], V{4}, std::nullopt, std::nullopt, 1e-5);
    const std::optional<Tensor> w = affine ? opt(x[2]) : std::nullopt;
    return joined(ops::native_layer_norm_backward(x[0], x[1], V{4}, std::get<1>(stats), std::get<2>(stats), w, w,
                                                  {true, affine, affine}));
  };
  EXPECT_TRUE(
      gradcheck([&](const T& x) { return layer_norm_backward(x, true); }, {rleaf({3, 4}), rleaf({3, 4}), rleaf({4})}));
  EXPECT_TRUE(gradcheck([&](const T& x) { return layer_norm_backward(x, false); }, {rleaf({3, 4}), rleaf({3, 4})}));
  // group norm's mean and rstd are differentiable outputs, as in 2.15
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        auto r = ops::native_group_norm(x[0], opt(x[1]), opt(x[2]), 2, 4, 3, 2, 1e-5);
        return ops::cat(T{ops::reshape(std::get<0>(r), V{-1}), ops::reshape(std::get<1>(r), V{-1}),
                          ops::reshape(std::get<2>(r), V{-1})},
                        0);
      },
      {rleaf({2, 4, 3}), rleaf({4}), rleaf({4})}));
}

TEST(GradcheckMoreOps, GridSampleAndEmbeddingBag) {
  for (int64_t mode : {0, 2})
    for (int64_t pad : {0, 1, 2})
      EXPECT_TRUE(gradcheck([&](const T& x) { return ops::grid_sampler_2d(x[0], x[1], mode, pad, false); },
                            {rleaf({1, 2, 4, 5}), rleaf({1, 3, 2, 2}, -0.9, 0.9)}))
          << "mode " << mode << " padding " << pad;
  EXPECT_TRUE(gradcheck(
      [](const T& x) {
        return ops::affine_grid_generator(x[0], V{2, 1, 3, 4}, false);
      },
      {rleaf({2, 2, 3})}));
  const Tensor idx = from_values({6}, {1, 3, 3, 0, 2, 1}, ipt::ScalarType::Long);
  const Tensor off = from_values({3}, {0, 2, 2}, ipt::ScalarType::Long);
  for (int64_t mode : {0, 1, 2})
    EXPECT_TRUE(gradcheck(
        [&](const T& x) {
          return std::get<0>(ops::_embedding_bag(x[0], idx, off, false, mode, false, std::nullopt, false, -1));
        },
        {rleaf({4, 3})}))
        << "mode " << mode;
  EXPECT_TRUE(gradcheck(
      [&](const T& x) { return std::get<0>(ops::_embedding_bag(x[0], idx, off, false, 0, false, x[1], false, -1)); },
      {rleaf({4, 3}), rleaf({6})}));
}

}  // namespace
}  // namespace ipt_test
