// Pointwise kernels on the TensorIterator give the same bits on 1 and 2 threads, for sizes around
// the vector width and the grain (32768) and for contiguous, transposed, broadcast and mixed-dtype
// operands; masked_select too; a matrix product split over the team repeats its bits; the
// iterator's plan coalesces and orders dimensions as PyTorch's does. Runs under ThreadSanitizer
// in scripts/test.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/ops/tensor_iterator.h"
#include "core/parallel/parallel.h"
#include "generated/ops.h"

using namespace ipt;
using V = std::vector<int64_t>;

namespace {

struct Threads {
  int saved = get_num_threads();
  explicit Threads(int n) { set_num_threads(n); }
  ~Threads() { set_num_threads(saved); }
};

// Values in (-3, 3) without the random generator (its state is not what this tests).
Tensor values(int64_t n, ScalarType dtype = ScalarType::Float) {
  Tensor t = ops::linspace(Scalar(-2.99), Scalar(2.97), n, dtype);
  return ops::sin(ops::mul_Scalar(t, Scalar(7.3)));
}

std::vector<unsigned char> bytes(const Tensor& t) {
  Tensor c = ops::contiguous(t);
  const size_t n = static_cast<size_t>(c.numel()) * element_size(c.dtype());
  std::vector<unsigned char> b(n);
  if (n) std::memcpy(b.data(), c.impl()->raw_data(), n);
  return b;
}

// f() on 1 thread and on 2 threads: the same dtype, shape and bits.
template <typename F>
void expect_same_on_1_and_2_threads(const F& f, const char* what) {
  Tensor one, two;
  {
    Threads t(1);
    one = f();
  }
  {
    Threads t(2);
    two = f();
  }
  ASSERT_EQ(one.sizes(), two.sizes()) << what;
  ASSERT_EQ(one.dtype(), two.dtype()) << what;
  EXPECT_TRUE(bytes(one) == bytes(two)) << what;
}

}  // namespace

TEST(KernelThreads, PointwiseResultsAreTheSameOnOneAndTwoThreads) {
  for (int64_t n : {1, 7, 8, 15, 16, 17, 32767, 32768, 32769, 65536 + 5, 100003}) {
    SCOPED_TRACE(n);
    Tensor a = values(n), b = ops::mul_Scalar(values(n), Scalar(-0.7));
    expect_same_on_1_and_2_threads([&] { return ops::add_Tensor(a, b, Scalar(0.5)); }, "add alpha");
    expect_same_on_1_and_2_threads([&] { return ops::div_Tensor(a, b); }, "div");
    expect_same_on_1_and_2_threads([&] { return ops::mul_Scalar(a, Scalar(2.5)); }, "mul scalar");
    expect_same_on_1_and_2_threads([&] { return ops::exp(a); }, "exp");
    // Not sigmoid: its vector and scalar forms round differently and each thread's range starts
    // its own vectors, so its bits depend on the thread count, as PyTorch's do
    // (tests/reference/programs/ops_threads_bits.py compares them at 1 and 2 threads).
    expect_same_on_1_and_2_threads([&] { return ops::tanh(a); }, "tanh");
    expect_same_on_1_and_2_threads([&] { return ops::addcmul(a, b, a, Scalar(0.25)); }, "addcmul");
    expect_same_on_1_and_2_threads([&] { return ops::add_Tensor(a, values(n, ScalarType::Double)); }, "float + double");
  }
}

// masked_select's chunks count, then copy, their elements in place: the same elements in the same
// order on any thread count.
TEST(KernelThreads, MaskedSelectIsTheSameOnOneAndTwoThreads) {
  for (int64_t n : {1, 17, 32768, 32769, 100003}) {
    SCOPED_TRACE(n);
    Tensor a = values(n);
    Tensor m = ops::gt_Scalar(ops::cos(ops::mul_Scalar(a, Scalar(3.1))), Scalar(0.2));
    expect_same_on_1_and_2_threads([&] { return ops::masked_select(a, m); }, "masked_select");
  }
}

// A matrix product big enough is split over the team by rows or columns of the result (Note [BLAS
// on the team]), each block one OpenBLAS call. OpenBLAS picks its kernel by the block's shape, so,
// as with PyTorch's MKL, the last bits may depend on the thread count; on a given count they are
// the same on every run, and within float rounding of the one-thread product.
TEST(KernelThreads, SplitMatrixProductsAreRepeatableAndClose) {
  for (V mkn : {V{64, 784, 256}, V{784, 64, 256}, V{100, 100, 100}, V{33, 512, 70}}) {
    const V sa{mkn[0], mkn[1]}, sb{mkn[1], mkn[2]};
    Tensor a = ops::reshape(values(mkn[0] * mkn[1]), sa);
    Tensor b = ops::reshape(values(mkn[1] * mkn[2]), sb);
    for (bool transposed : {false, true}) {
      SCOPED_TRACE(std::to_string(mkn[0]) + "x" + std::to_string(mkn[1]) + "x" + std::to_string(mkn[2]) +
                   (transposed ? " transposed" : ""));
      Tensor at = transposed ? ops::t(ops::contiguous(ops::t(a))) : a;
      Tensor one, two, again;
      {
        Threads t(1);
        one = ops::mm(at, b);
      }
      {
        Threads t(2);
        two = ops::mm(at, b);
        again = ops::mm(at, b);
      }
      EXPECT_TRUE(bytes(two) == bytes(again));
      EXPECT_TRUE(ops::allclose(one, two, 1e-5, 1e-4));
    }
  }
}

TEST(KernelThreads, StridedAndBroadcastOperands) {
  Tensor m = ops::reshape(values(300 * 257), V{300, 257});
  Tensor row = values(257), col = ops::reshape(values(300), V{300, 1});
  expect_same_on_1_and_2_threads([&] { return ops::add_Tensor(ops::t(m), ops::t(m)); }, "transposed");
  expect_same_on_1_and_2_threads([&] { return ops::mul_Tensor(m, row); }, "row broadcast");
  expect_same_on_1_and_2_threads([&] { return ops::sub_Tensor(m, col); }, "column broadcast");
  expect_same_on_1_and_2_threads([&] { return ops::exp(ops::slice_Tensor(m, 1, 1, 257, 2)); }, "every other column");
  // In place on a transposed view writes every element once.
  Threads t(2);
  Tensor x = ops::clone(m);
  ops::add__Tensor(ops::t(x), ops::ones_like(ops::t(x)));
  EXPECT_TRUE(bytes(x) == bytes(ops::add_Scalar(m, Scalar(1))));
}

TEST(KernelThreads, ThePlanCoalescesAndOrdersDimensions) {
  Threads t(2);
  Tensor c = ops::empty_memory_format(V{4, 5, 6});
  TensorIterator contiguous({c}, {c});
  EXPECT_EQ(contiguous.plan(), "1 dim [120] contiguous, 1 thread");
  // A transposed output is walked in memory order: its innermost dimension is the tensor's first.
  Tensor tr = ops::t(ops::empty_memory_format(V{6, 5}));
  TensorIterator transposed({tr}, {tr});
  EXPECT_EQ(transposed.plan(), "1 dim [30] contiguous, 1 thread");
  // A broadcast row cannot coalesce with the rows.
  Tensor big = ops::empty_memory_format(V{1000, 100}), row = ops::empty_memory_format(V{100});
  TensorIterator broadcast({big}, {big, row});
  EXPECT_EQ(broadcast.plan(), "2 dims [1000, 100] strided, 2 threads");
  EXPECT_TRUE(broadcast.is_scalar(1) == false);
  Tensor one = ops::empty_memory_format(V{});
  TensorIterator scalar({big}, {big, one});
  EXPECT_TRUE(scalar.is_scalar(2));
}
