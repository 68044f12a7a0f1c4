#pragma once
// Helpers the derivative formulas in core/ops/derivatives.yaml are written with (the only
// hand-written part of autograd's per-operator code; the rest is generated).

#include <optional>
#include <vector>

#include "generated/ops.h"

namespace ipt::autograd {

using Sizes = std::vector<int64_t>;

// Sums `grad` down to `sizes` (undoes broadcasting).
Tensor sum_to(const Tensor& grad, const Sizes& sizes);
Tensor mul_scalar(const Tensor& t, const Scalar& s);
// d/dself of self ** exponent for a scalar exponent.
Tensor pow_backward(const Tensor& grad, const Tensor& self, const Scalar& exponent);
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent);
Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result);
// grad of relu: grad where result > 0, else 0.
Tensor threshold_backward(const Tensor& grad, const Tensor& result);
// sum / mean over dims: expand the gradient back to the input's shape.
Tensor sum_backward(const Tensor& grad, const Sizes& sizes, const std::optional<Sizes>& dims, bool keepdim);
Tensor mean_backward(const Tensor& grad, const Sizes& sizes, const std::optional<Sizes>& dims, bool keepdim);
Tensor select_backward(const Tensor& grad, const Sizes& sizes, int64_t dim, int64_t index);
Tensor slice_backward(const Tensor& grad, const Sizes& sizes, int64_t dim, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step);
Tensor diagonal_backward(const Tensor& grad, const Sizes& sizes, int64_t offset, int64_t dim1, int64_t dim2);
Tensor permute_backward(const Tensor& grad, const Sizes& dims);
Tensor unsqueeze_to(const Tensor& grad, const Sizes& sizes);  // undo squeeze
Tensor zeros_like_grad(const Tensor& grad);
Tensor to_dtype_of(const Tensor& grad, const Tensor& like);

}  // namespace ipt::autograd
