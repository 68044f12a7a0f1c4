// Composite kernels built from other operators: copies, scalar overloads, full reductions
// and matmul's rules. Each calls back into the dispatcher, so the trace shows the pieces.
#include <cmath>

#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "core/util/warning.h"
#include "generated/native_functions.h"

namespace ipt::native {

// Note [clone preserves dense layouts]
// clone() with the default memory format keeps the strides of a tensor whose elements
// exactly tile a block of memory (x.t().clone() is still "transposed"); anything with gaps
// or overlaps (a slice with a step, an expand) becomes contiguous. contiguous() asks for
// MemoryFormat::Contiguous explicitly.
namespace {
// The tensor a copy of `self` is written into, for the Preserve memory format: self's strides
// when they tile memory densely, else dense strides in self's stride order; contiguous otherwise.
Tensor empty_for_copy(const Tensor& self, ScalarType dtype, Device device, std::optional<MemoryFormat> memory_format) {
  if (memory_format.value_or(MemoryFormat::Preserve) == MemoryFormat::Preserve && !self.is_contiguous())
    return ops::empty_strided(self.sizes(),
                              is_non_overlapping_and_dense(self.sizes(), self.strides())
                                  ? self.strides()
                                  : infer_dense_strides(self.sizes(), self.strides()),
                              dtype, std::nullopt, device, std::nullopt);
  return ops::empty_memory_format(self.sizes(), dtype, std::nullopt, device, std::nullopt, std::nullopt);
}
}  // namespace

Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                std::optional<MemoryFormat> memory_format) {
  (void)layout, (void)pin_memory;
  Tensor out = empty_for_copy(self, dtype.value_or(self.dtype()), device.value_or(self.device()), memory_format);
  return ops::copy_(out, self, non_blocking);
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  return ops::copy_(empty_for_copy(self, self.dtype(), self.device(), memory_format), self, false);
}

// Note [contiguous copies only when needed]
// A tensor that is already contiguous is returned as is (the very same tensor); otherwise
// clone() copies its elements, in logical order, into new contiguous storage.
Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (self.is_contiguous()) return self;
  return ops::clone(self, MemoryFormat::Contiguous);
}

Scalar item(const Tensor& self) {
  IPT_CHECK(self.numel() == 1, RuntimeError, "a Tensor with ", self.numel(), " elements cannot be converted to Scalar");
  return ops::_local_scalar_dense(self);
}

Tensor mul(const Tensor& self, const Scalar& other) { return ops::mul_Tensor(self, wrapped_scalar_tensor(other)); }

Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::add_Tensor(self, wrapped_scalar_tensor(other), alpha);
}

Tensor add_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::add__Tensor(self, wrapped_scalar_tensor(other), alpha);
}
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::sub_Tensor(self, wrapped_scalar_tensor(other), alpha);
}
Tensor sub_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::sub__Tensor(self, wrapped_scalar_tensor(other), alpha);
}
Tensor mul_(const Tensor& self, const Scalar& other) { return ops::mul__Tensor(self, wrapped_scalar_tensor(other)); }

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
//
// Note [matmul folds batch dims into rows]
// When one operand has 3 or more dims and the other at most 2, PyTorch 2.15 folds the larger
// one into a matrix (its batch dims become rows) and calls mm or mv instead of bmm, as long as
// that needs no copy of it, or always when the smaller operand requires grad (its gradient is
// then one mm too). A larger right operand is folded through its transpose, and the result is
// transposed back and made contiguous (CloneBackward0 over TransposeBackward0 in the graph). Two
// 3-D operands fold too when one of them, requiring grad, has a batch of 1 and the other not
// (observed behaviour of 2.15: (2,3,3) @ (1,3,3) records MmBackward0 over SqueezeBackward1).
namespace {
bool should_fold(const Tensor& a, const Tensor& b) {
  const bool a_larger = a.dim() >= b.dim();
  const Tensor t1 = a_larger ? a : ops::transpose_int(b, -2, -1);
  const int64_t dim_small = a_larger ? b.dim() : a.dim();
  if (!(t1.dim() >= 3 && dim_small <= 2)) return false;
  // Whether the smaller operand requires grad, not whether grad mode is on (as in PyTorch).
  if (a_larger ? b.requires_grad() : a.requires_grad()) return true;
  if (a.dim() == 2) return false;
  if (t1.numel() == 0) return true;
  for (int64_t i = 0; i + 2 < t1.dim(); ++i)
    if (t1.strides()[i] != t1.strides()[i + 1] * t1.sizes()[i + 1]) return false;
  return true;
}
}  // namespace

Tensor matmul(const Tensor& self, const Tensor& other) {
  int64_t d1 = self.dim(), d2 = other.dim();
  IPT_CHECK(d1 > 0 && d2 > 0, RuntimeError, "both arguments to matmul need to be at least 1D, but they are ", d1,
            "D and ", d2, "D");
  if (d1 == 1 && d2 == 1) return ops::dot(self, other);
  if (d1 == 2 && d2 == 1) return ops::mv(self, other);
  if (d1 == 1 && d2 == 2) return ops::squeeze__dim(ops::mm(ops::unsqueeze(self, 0), other), 0);
  if (d1 == 2 && d2 == 2) return ops::mm(self, other);
  // Two 3-D operands where one has a batch of 1 and requires grad and the other a larger batch:
  // that one loses its batch dim (SqueezeBackward1) and the product folds as above.
  if (d1 == 3 && d2 == 3) {
    const int64_t b1 = self.sizes()[0], b2 = other.sizes()[0];
    if (b2 == 1 && b1 != 1 && other.requires_grad()) return ops::matmul(self, ops::squeeze_dim(other, 0));
    if (b1 == 1 && b2 != 1 && self.requires_grad()) return ops::matmul(ops::squeeze_dim(self, 0), other);
  }
  if (should_fold(self, other)) {
    const bool transpose = d2 > d1;
    const Tensor t1 = transpose ? ops::transpose_int(other, -2, -1) : self;
    const Tensor t2 = !transpose ? other : d1 == 2 ? ops::t(self) : self;
    std::vector<int64_t> out_size(t1.sizes().begin(), t1.sizes().end() - 1);
    const int64_t folded = numel_of(out_size);
    const bool t2_matrix = t2.dim() == 2;
    if (t2_matrix) out_size.push_back(t2.sizes()[1]);
    Tensor t1_folded = ops::reshape(t1, std::vector<int64_t>{folded, t1.sizes().back()});
    if (!t2_matrix) return ops::_unsafe_view(ops::mv(t1_folded, t2), out_size);
    Tensor out = ops::_unsafe_view(ops::mm(t1_folded, t2), out_size);
    return transpose ? ops::contiguous(ops::transpose_int(out, -2, -1), MemoryFormat::Contiguous) : out;
  }
  // Batched: broadcast the batch dims, then one bmm over the flattened batch.
  const int64_t n = d1 > 1 ? self.sizes()[d1 - 2] : 1, m1 = self.sizes()[d1 - 1];
  const int64_t m2 = d2 > 1 ? other.sizes()[d2 - 2] : other.sizes()[0], p = d2 > 1 ? other.sizes()[d2 - 1] : 1;
  std::vector<int64_t> b1(self.sizes().begin(), self.sizes().end() - std::min<int64_t>(d1, 2));
  std::vector<int64_t> b2(other.sizes().begin(), other.sizes().end() - std::min<int64_t>(d2, 2));
  std::vector<int64_t> batch = broadcast_shapes(b1, b2);
  const int64_t nb = numel_of(batch);
  std::vector<int64_t> e1 = batch, e2 = batch;
  e1.push_back(n), e1.push_back(m1);
  e2.push_back(m2), e2.push_back(p);
  Tensor s1 = d1 == 1 ? ops::unsqueeze(self, 0) : self;
  Tensor s2 = d2 == 1 ? ops::unsqueeze(other, -1) : other;
  Tensor a = ops::reshape(ops::expand(s1, e1), std::vector<int64_t>{nb, n, m1});
  Tensor b = ops::reshape(ops::expand(s2, e2), std::vector<int64_t>{nb, m2, p});
  std::vector<int64_t> out_size = batch;
  if (d1 > 1) out_size.push_back(n);
  if (d2 > 1) out_size.push_back(p);
  return ops::_unsafe_view(ops::bmm(a, b), out_size);
}

// std / var with `unbiased` are the correction overloads with correction 1 or 0 (as in 2.15).
Tensor std(const Tensor& self, bool unbiased) { return ops::std_correction(self, std::nullopt, unbiased ? 1 : 0); }
Tensor std(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim) {
  return ops::std_correction(self, dim, unbiased ? 1 : 0, keepdim);
}
Tensor var(const Tensor& self, bool unbiased) { return ops::var_correction(self, std::nullopt, unbiased ? 1 : 0); }
Tensor var(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim) {
  return ops::var_correction(self, dim, unbiased ? 1 : 0, keepdim);
}

// var_mean / std_mean: the variance (or standard deviation) and the mean over the same dims, as a
// tuple. 2.15 computes both in one Welford pass in double; here the var kernel (double, two
// passes) and the mean taken in double, each rounded once to self's dtype, which gives the same
// float results and double results to their last bits but rarely.
namespace {
std::tuple<Tensor, Tensor> stat_mean(const Tensor& self, std::optional<IntArrayRef> dim,
                                     std::optional<int64_t> correction, bool keepdim, bool take_sqrt,
                                     const char* name) {
  IPT_CHECK(is_floating(self.dtype()), NotImplementedError, name, " only support floating point and complex dtypes");
  Tensor v = take_sqrt ? ops::std_correction(self, dim, correction, keepdim)
                       : ops::var_correction(self, dim, correction, keepdim);
  const int64_t factor = v.numel() ? self.numel() / v.numel() : 0;
  if (factor - correction.value_or(1) <= 0 && self.numel() > 0)
    IPT_WARN(name,
             "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor "
             "(input numel divided by output numel).");
  Tensor m = self.dtype() == ScalarType::Double
                 ? ops::mean_dim(self, dim, keepdim, std::nullopt)
                 : ops::_to_copy(ops::mean_dim(ops::_to_copy(self, ScalarType::Double), dim, keepdim, std::nullopt),
                                 self.dtype());
  return {v, m};
}
}  // namespace
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, std::optional<IntArrayRef> dim,
                                    std::optional<int64_t> correction, bool keepdim) {
  return stat_mean(self, dim, correction, keepdim, false, "var_mean");
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim) {
  return ops::var_mean_correction(self, dim, unbiased ? 1 : 0, keepdim);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased) {
  return ops::var_mean_correction(self, std::nullopt, unbiased ? 1 : 0, false);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, std::optional<IntArrayRef> dim,
                                    std::optional<int64_t> correction, bool keepdim) {
  return stat_mean(self, dim, correction, keepdim, true, "std_mean");
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim) {
  return ops::std_mean_correction(self, dim, unbiased ? 1 : 0, keepdim);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased) {
  return ops::std_mean_correction(self, std::nullopt, unbiased ? 1 : 0, false);
}

// The p-norm of all elements.
Tensor norm(const Tensor& self, const Scalar& p) { return ops::norm_ScalarOpt_dim(self, p, IntArrayRef(), false); }

// logsumexp as PyTorch 2.15 composes it (its logsumexp_out_impl): the max over dims (keepdim) is
// subtracted before exp and added back after log, with an infinite max replaced by 0 (so that
// inf - inf is not NaN); integer inputs are first converted to the default float dtype.
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const Tensor x = is_integral(self.dtype(), true) ? ops::_to_copy(self, kDefaultFloat) : self;
  if (x.numel() == 0) return ops::log_(ops::sum_dim_IntList(ops::exp(x), dim, keepdim));
  Tensor maxes = ops::amax(x, dim, true);
  Tensor maxes_squeezed = maxes;
  if (!keepdim && x.dim() > 0) {  // a 0-dim input's dim 0 is the tensor itself: nothing to squeeze
    std::vector<bool> squeeze(static_cast<size_t>(x.dim()), false);
    for (int64_t d : dim) squeeze[static_cast<size_t>(wrap_dim(d, x.dim()))] = true;
    for (int64_t d = x.dim() - 1; d >= 0; --d)
      if (squeeze[static_cast<size_t>(d)]) maxes_squeezed = ops::squeeze_dim(maxes_squeezed, d);
  }
  ops::masked_fill__Scalar(maxes_squeezed, ops::eq_Scalar(ops::abs(maxes_squeezed), Scalar(INFINITY)), Scalar(0.0));
  Tensor result = ops::sum_dim_IntList(ops::exp_(ops::sub_Tensor(x, maxes)), dim, keepdim);
  return ops::add__Tensor(ops::log_(result), maxes_squeezed);
}

}  // namespace ipt::native
