// cdist, pdist and _euclidean_dist as PyTorch writes them: cdist picks, as 2.15 does, between
// the distance kernel (_cdist_forward) and, for p = 2 with more than 25 rows on a side (or
// compute_mode 1), the matrix-product form _euclidean_dist: |a|^2 - 2 a.b + |b|^2 as one
// matmul of augmented operands, clamped at 0 before the square root. Its result differs from the
// kernel's in the last bits, as PyTorch's does.
#include "core/ops/distance_rules.h"
#include "core/ops/scalar_tensor.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

Tensor _euclidean_dist(const Tensor& x1, const Tensor& x2) {
  const Tensor x1_norm =
      ops::sum_dim_IntList(ops::pow_Tensor_Scalar(x1, Scalar(int64_t{2})), std::vector<int64_t>{-1}, true);
  const Tensor x1_pad = ops::ones_like(x1_norm);
  const Tensor x2_norm =
      ops::sum_dim_IntList(ops::pow_Tensor_Scalar(x2, Scalar(int64_t{2})), std::vector<int64_t>{-1}, true);
  const Tensor x2_pad = ops::ones_like(x2_norm);
  const Tensor x1_ =
      ops::cat(std::vector<Tensor>{ops::mul_Tensor(x1, wrapped_scalar_tensor(-2.0)), x1_norm, x1_pad}, -1);
  const Tensor x2_ = ops::cat(std::vector<Tensor>{x2, x2_pad, x2_norm}, -1);
  Tensor result = ops::matmul(x1_, ops::transpose_int(x2_, -2, -1));
  ops::clamp_min_(result, Scalar(0.0));
  return ops::sqrt_(result);
}

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  check_cdist(x1, x2, p, compute_mode);
  const int64_t mode = compute_mode.value_or(0);
  const int64_t r1 = x1.sizes()[static_cast<size_t>(x1.dim() - 2)], r2 = x2.sizes()[static_cast<size_t>(x2.dim() - 2)];
  const bool use_mm = p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)));
  if (x1.numel() == 0 || x2.numel() == 0 || !use_mm) return ops::_cdist_forward(x1, x2, p, compute_mode);
  const CdistPlan plan = cdist_plan(x1, x2);
  if (plan.r1 == 0 || plan.r2 == 0 || plan.batch == 0)
    return ops::empty_memory_format(plan.out_sizes, x1.dtype(), std::nullopt, x1.device());
  if (plan.cols == 0) return ops::zeros(plan.out_sizes, x1.dtype(), std::nullopt, x1.device());
  const Tensor d = plan.batch == 1 ? ops::_euclidean_dist(x1, x2) : ops::_euclidean_dist(plan.x1, plan.x2);
  return ops::view(d, plan.out_sizes);
}

Tensor pdist(const Tensor& self, double p) {
  check_pdist(self, p);
  return ops::_pdist_forward(ops::contiguous(self, MemoryFormat::Contiguous), p);
}

}  // namespace ipt::native
