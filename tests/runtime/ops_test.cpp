// Pointwise ops, broadcasting, type promotion, reductions and mm on the CPU backend.
#include <gtest/gtest.h>

#include <set>

#include "core/ops/generator.h"
#include "core/ops/scalar_tensor.h"
#include "core/util/error.h"
#include "generated/ops.h"

using namespace ipt;
using V = std::vector<int64_t>;
using D = std::vector<double>;

static int64_t numel_of_test(const V& s) {
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}

TEST(Ops, BroadcastAdd) {
  Tensor a = ops::reshape(ops::arange(6.0), V{2, 3});
  Tensor b = ops::arange(3.0);
  Tensor c = ops::add_Tensor(a, b, 2);
  EXPECT_EQ(c.sizes(), (V{2, 3}));
  EXPECT_EQ(to_double_vector(c), (D{0, 3, 6, 3, 6, 9}));
  EXPECT_THROW(ops::add_Tensor(a, ops::arange(4.0)), Error);
}

TEST(Ops, TypePromotion) {
  Tensor i = ops::arange(3);  // int64
  EXPECT_EQ(i.dtype(), ScalarType::Long);
  EXPECT_EQ(ops::add_Tensor(i, native::wrapped_scalar_tensor(1.5)).dtype(), ScalarType::Float);
  EXPECT_EQ(ops::div_Tensor(i, i).dtype(), ScalarType::Float);
  Tensor d = ops::ones(V{3}, ScalarType::Double);
  EXPECT_EQ(ops::mul_Tensor(i, d).dtype(), ScalarType::Double);
  // A 0-dim float64 tensor does not promote a dimensioned float32 tensor.
  EXPECT_EQ(ops::mul_Tensor(ops::ones(V{2}), ops::ones(V{}, ScalarType::Double)).dtype(), ScalarType::Float);
  try {
    ops::add__Tensor(i, native::wrapped_scalar_tensor(1.5));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "result type Float can't be cast to the desired output type Long");
  }
}

TEST(Ops, UnaryAndPow) {
  Tensor x = ops::sub_Tensor(ops::arange(4.0), native::wrapped_scalar_tensor(int64_t(1)));
  EXPECT_EQ(to_double_vector(ops::relu(x)), (D{0, 0, 1, 2}));
  EXPECT_EQ(to_double_vector(ops::neg(x)), (D{1, 0, -1, -2}));
  EXPECT_EQ(to_double_vector(ops::pow_Tensor_Scalar(x, 2)), (D{1, 0, 1, 4}));
  EXPECT_NEAR(element_as_double(ops::exp(ops::ones(V{1})), 0), 2.718281828, 1e-6);
  EXPECT_EQ(ops::exp(ops::arange(2)).dtype(), ScalarType::Float);
}

TEST(Ops, Reductions) {
  Tensor x = ops::reshape(ops::arange(6.0), V{2, 3});
  EXPECT_EQ(to_double_vector(ops::sum(x)), (D{15}));
  EXPECT_EQ(to_double_vector(ops::sum_dim_IntList(x, V{0})), (D{3, 5, 7}));
  Tensor k = ops::mean_dim(x, V{-1}, true);
  EXPECT_EQ(k.sizes(), (V{2, 1}));
  EXPECT_EQ(to_double_vector(k), (D{1, 4}));
  EXPECT_EQ(ops::sum(ops::arange(4)).dtype(), ScalarType::Long);
  EXPECT_THROW(ops::mean(ops::arange(4)), Error);
}

TEST(Ops, MmUsesTransposedOperandsWithoutCopy) {
  Tensor a = ops::reshape(ops::arange(6.0), V{2, 3});
  Tensor b = ops::t(ops::reshape(ops::arange(6.0), V{2, 3}));  // 3x2, column-major
  Tensor c = ops::mm(a, b);
  EXPECT_EQ(to_double_vector(c), (D{5, 14, 14, 50}));
  Tensor ai = ops::reshape(ops::arange(6), V{2, 3});
  EXPECT_EQ(to_double_vector(ops::mm(ai, ops::t(ai))), (D{5, 14, 14, 50}));
  try {
    ops::mm(a, a);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  }
  Tensor v = ops::arange(3.0);
  EXPECT_EQ(to_double_vector(ops::matmul(a, v)), (D{5, 14}));
  EXPECT_EQ(to_double_vector(ops::matmul(v, v)), (D{5}));
}

TEST(Ops, StridedSliceAsMmOperandIsCopied) {
  Tensor big = ops::reshape(ops::arange(16.0), V{4, 4});
  Tensor s =
      ops::slice_Tensor(ops::slice_Tensor(big, 0, 0, std::nullopt, 2), 1, 0, std::nullopt, 2);  // 2x2, strides (8,2)
  Tensor c = ops::mm(s, s);
  EXPECT_EQ(to_double_vector(c), (D{0 * 0 + 2 * 8, 0 * 2 + 2 * 10, 8 * 0 + 10 * 8, 8 * 2 + 10 * 10}));
}

TEST(Ops, CopyBroadcastsAndConverts) {
  Tensor dst = ops::zeros(V{2, 3}, ScalarType::Long);
  ops::copy_(dst, ops::arange(3.0));
  EXPECT_EQ(to_double_vector(dst), (D{0, 1, 2, 0, 1, 2}));
  Tensor big = ops::reshape(ops::arange(64.0 * 48), V{64, 48});
  Tensor tc = ops::contiguous(ops::t(big));  // blocked transpose path
  for (int64_t i = 0; i < 48; ++i)
    for (int64_t j = 0; j < 64; ++j) ASSERT_EQ(element_as_double(tc, i * 64 + j), j * 48 + i);
}

TEST(Ops, BlockedTransposeCopyFloatOddShapesAndBatches) {
  for (auto shape : {V{37, 53}, V{3, 17, 9}, V{4, 4}, V{1, 5}}) {
    Tensor x = ops::reshape(ops::arange(static_cast<double>(numel_of_test(shape)), ScalarType::Float), shape);
    int64_t nd = static_cast<int64_t>(shape.size());
    Tensor t = ops::transpose_int(x, nd - 2, nd - 1);
    Tensor c = ops::contiguous(t);
    ASSERT_TRUE(c.is_contiguous());
    for (int64_t i = 0; i < c.numel(); ++i) ASSERT_EQ(element_as_double(c, i), element_as_double(t, i)) << i;
  }
}

// Meta tensors get the shapes and dtypes the CPU kernels would produce, with the same checks.
TEST(Ops, MetaKernelsOfNnOps) {
  auto meta = [](V sizes, ScalarType dt = ScalarType::Float) {
    return ops::empty_memory_format(sizes, dt, std::nullopt, Device(DeviceType::Meta));
  };
  Tensor r = ops::addmm(meta({4}), meta({3, 5}), meta({5, 4}));
  EXPECT_EQ(r.device().type, DeviceType::Meta);
  EXPECT_EQ(r.sizes(), (V{3, 4}));
  EXPECT_THROW(ops::addmm(meta({3}), meta({2, 5}), meta({5, 4})), Error);
  EXPECT_EQ(ops::linear(meta({2, 3, 5}), meta({4, 5}), meta({4})).sizes(), (V{2, 3, 4}));
  EXPECT_EQ(ops::softmax_int(meta({2, 3}), 1).sizes(), (V{2, 3}));
  auto [out, total] = ops::nll_loss_forward(meta({4, 5}), meta({4}, ScalarType::Long), std::nullopt, 0, -100);
  EXPECT_EQ(out.sizes(), (V{4}));
  EXPECT_EQ(total.sizes(), (V{}));
  EXPECT_EQ(ops::mse_loss(meta({3, 1}), meta({4}), 0).sizes(), (V{3, 4}));
  EXPECT_EQ(ops::mse_loss(meta({3, 1}), meta({4})).sizes(), (V{}));
  EXPECT_EQ(ops::addcmul(meta({3}), meta({2, 1}), meta({2, 3})).sizes(), (V{2, 3}));
  EXPECT_EQ(ops::sigmoid(meta({2}, ScalarType::Long)).dtype(), ScalarType::Float);
  EXPECT_THROW(ops::sqrt_(meta({2}, ScalarType::Long)), Error);
}

// Random factories: PyTorch's random streams are not reproduced, but the samples are in range,
// follow the distribution, repeat for a seed and can come from an own generator.
TEST(Ops, RandomFactoriesRangesSeedsAndGenerators) {
  manual_seed(7);
  Tensor a = ops::randint_low(-3, 4, V{2000});
  manual_seed(7);
  Tensor b = ops::randint_low(-3, 4, V{2000});
  EXPECT_EQ(to_double_vector(a), to_double_vector(b));
  std::set<double> seen;
  for (double v : to_double_vector(a)) {
    ASSERT_GE(v, -3);
    ASSERT_LT(v, 4);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
  for (double v : to_double_vector(ops::rand_like(ops::zeros(V{1000})))) {
    ASSERT_GE(v, 0.0);
    ASSERT_LT(v, 1.0);
  }
  Tensor n = ops::normal_float_float(3.0, 2.0, V{20000}, std::nullopt, ScalarType::Double);
  EXPECT_NEAR(element_as_double(ops::mean(n), 0), 3.0, 0.1);
  EXPECT_NEAR(element_as_double(ops::std(n), 0), 2.0, 0.1);
  Tensor m = ops::normal_Tensor_Tensor(ops::full(V{20000}, 10.0), ops::full(V{1}, 0.5));
  EXPECT_NEAR(element_as_double(ops::mean(m), 0), 10.0, 0.05);
  Generator e1{std::make_shared<random::CpuGenerator>(42)}, e2{std::make_shared<random::CpuGenerator>(42)};
  Tensor g1 = ops::normal_(ops::empty_memory_format(V{5}), 0.0, 1.0, e1);
  Tensor g2 = ops::normal_(ops::empty_memory_format(V{5}), 0.0, 1.0, e2);
  EXPECT_EQ(to_double_vector(g1), to_double_vector(g2));
}
