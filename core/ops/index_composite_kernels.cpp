// Composite kernels for comparisons, masks and indexing (as PyTorch 2.15 writes them in
// TensorCompare.cpp, TensorAdvancedIndexing.cpp): each calls back into the dispatcher.
#include <cmath>

#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

// |self - other| <= atol + rtol * |other|, or equal (also infinities), or both NaN with equal_nan.
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  IPT_CHECK(self.dtype() == other.dtype(), RuntimeError, dtype_cpp_name(self.dtype()), " did not match ",
            dtype_cpp_name(other.dtype()));
  IPT_CHECK(rtol >= 0, RuntimeError, "rtol must be greater than or equal to zero, but got ", rtol);
  IPT_CHECK(atol >= 0, RuntimeError, "atol must be greater than or equal to zero, but got ", atol);
  Tensor close = ops::eq_Tensor(self, other);
  if (equal_nan && is_floating(self.dtype()))
    close = ops::logical_or(close, ops::logical_and(ops::ne_Tensor(self, self), ops::ne_Tensor(other, other)));
  if (rtol == 0 && atol == 0) return close;
  Tensor cast_other = other;
  if (!is_floating(self.dtype())) {
    cast_other = ops::empty_like(other, ScalarType::Float);
    ops::copy_(cast_other, other);
  }
  Tensor allowed =
      ops::add_Tensor(ops::abs(ops::mul_Tensor(cast_other, wrapped_scalar_tensor(rtol))), wrapped_scalar_tensor(atol));
  Tensor actual = ops::abs(ops::sub_Tensor(self, cast_other));
  return ops::logical_or(close, ops::logical_and(ops::isfinite(actual), ops::le_Tensor(actual, allowed)));
}

bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return ops::item(ops::all(ops::isclose(self, other, rtol, atol, equal_nan))).to_bool();
}

// Neither NaN nor infinite (every integer is finite).
// PyTorch's isinf: integers and bools are never infinite; otherwise |x| == inf.
Tensor isinf(const Tensor& self) {
  if (!is_floating(self.dtype()))
    return ops::zeros_like(self, ScalarType::Bool, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Preserve);
  return ops::eq_Scalar(ops::abs(self), INFINITY);
}
Tensor isfinite(const Tensor& self) {
  if (!is_floating(self.dtype())) return ops::ones_like(self, ScalarType::Bool);
  return ops::logical_and(ops::eq_Tensor(self, self), ops::ne_Scalar(ops::abs(self), INFINITY));
}

// The mask and self broadcast to one shape; a contiguous copy of self is filled in place.
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  auto sizes = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor result = ops::clone(ops::expand(self, sizes), MemoryFormat::Contiguous);
  return ops::masked_fill__Scalar(result, mask, value);
}

Tensor index_put_(const Tensor& self, std::span<const std::optional<Tensor>> indices, const Tensor& values,
                  bool accumulate) {
  return ops::_index_put_impl_(self, indices, values, accumulate, false);
}

Tensor index_put(const Tensor& self, std::span<const std::optional<Tensor>> indices, const Tensor& values,
                 bool accumulate) {
  return ops::index_put_(ops::clone(self), indices, values, accumulate);
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  return ops::index_add_(ops::clone(self), dim, index, source, alpha);
}

// The functional scatters: a contiguous copy of self (PyTorch's structured output), scattered into.
Tensor scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter__src(ops::clone(self, MemoryFormat::Contiguous), dim, index, src);
}

Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::scatter__value(ops::clone(self, MemoryFormat::Contiguous), dim, index, value);
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter_add_(ops::clone(self, MemoryFormat::Contiguous), dim, index, src);
}

Tensor scatter_reduce_two(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                          std::string_view reduce, bool include_self) {
  return ops::scatter_reduce__two(ops::clone(self, MemoryFormat::Contiguous), dim, index, src, reduce, include_self);
}

}  // namespace ipt::native
