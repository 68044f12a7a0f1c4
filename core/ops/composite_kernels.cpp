// Composite kernels built from other operators: copies, scalar overloads, full reductions
// and matmul's rules. Each calls back into the dispatcher, so the trace shows the pieces.
#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

// Note [clone preserves dense layouts]
// clone() with the default memory format keeps the strides of a tensor whose elements
// exactly tile a block of memory (x.t().clone() is still "transposed"); anything with gaps
// or overlaps (a slice with a step, an expand) becomes contiguous. contiguous() asks for
// MemoryFormat::Contiguous explicitly.
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  Tensor out;
  if (memory_format.value_or(MemoryFormat::Preserve) == MemoryFormat::Preserve &&
      is_non_overlapping_and_dense(self.sizes(), self.strides()) && !self.is_contiguous())
    out = ops::empty_strided(self.sizes(), self.strides(), self.dtype(), std::nullopt, self.device(), std::nullopt);
  else
    out = ops::empty_memory_format(self.sizes(), self.dtype(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  return ops::copy_(out, self, false);
}

// Note [contiguous copies only when needed]
// A tensor that is already contiguous is returned as is (the very same tensor); otherwise
// clone() copies its elements, in logical order, into new contiguous storage.
Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (self.is_contiguous()) return self;
  return ops::clone(self, MemoryFormat::Contiguous);
}

Scalar item(const Tensor& self) {
  IPT_CHECK(self.numel() == 1, RuntimeError, "a Tensor with ", self.numel(),
            " elements cannot be converted to Scalar");
  return ops::_local_scalar_dense(self);
}

Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::add_Tensor(self, wrapped_scalar_tensor(other), alpha);
}

// number - tensor (Python's __rsub__): other - alpha * self.
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::sub_Tensor(wrapped_scalar_tensor(other), self, alpha);
}

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return ops::sum_dim_IntList(self, std::nullopt, false, dtype);
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return ops::mean_dim(self, std::nullopt, false, dtype);
}

// torch.matmul's rules for 1-D and 2-D operands: 2-D x 2-D is mm; a 1-D operand is
// treated as a row (left) or column (right) vector and that dimension is removed again.
Tensor matmul(const Tensor& self, const Tensor& other) {
  int64_t d1 = self.dim(), d2 = other.dim();
  IPT_CHECK(d1 > 0 && d2 > 0, RuntimeError, "both arguments to matmul need to be at least 1D, but they are ", d1,
            "D and ", d2, "D");
  if (d1 == 1 && d2 == 1) {
    IPT_CHECK(self.sizes()[0] == other.sizes()[0], RuntimeError,
              "inconsistent tensor size, expected tensor [", self.sizes()[0], "] and src [", other.sizes()[0],
              "] to have the same number of elements, but got ", self.sizes()[0], " and ", other.sizes()[0], " elements respectively");
    return ops::squeeze(ops::mm(ops::unsqueeze(self, 0), ops::unsqueeze(other, 1)));
  }
  if (d1 == 2 && d2 == 1) {
    IPT_CHECK(self.sizes()[1] == other.sizes()[0], RuntimeError, "size mismatch, got ", self.sizes()[0], ", ",
              self.sizes()[0], "x", self.sizes()[1], ",", other.sizes()[0]);
    return ops::squeeze_dim(ops::mm(self, ops::unsqueeze(other, 1)), -1);
  }
  if (d1 == 1 && d2 == 2) return ops::squeeze_dim(ops::mm(ops::unsqueeze(self, 0), other), 0);
  if (d1 == 2 && d2 == 2) return ops::mm(self, other);
  IPT_FAIL(NotImplementedError, "matmul of ", d1, "-D and ", d2,
           "-D tensors (batched matmul) is not supported yet; use 1-D or 2-D operands");
}

}  // namespace ipt::native
