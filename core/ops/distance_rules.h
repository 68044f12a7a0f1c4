#pragma once
// cdist and pdist: their checks (with PyTorch 2.15's messages) and cdist's batch geometry,
// shared by the composites (core/ops/distance_composite_kernels.cpp), the CPU kernels
// (backends/cpu/distance_kernels.cpp) and the Meta kernels.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::native {

// cdist's checks, in 2.15's order: ranks, columns, dtypes, p, compute_mode (0, 1 or 2).
void check_cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode);

// The batch dims of x1 and x2 broadcast, each operand expanded to them, made contiguous and
// viewed as [B, r, c]; the result's sizes are batch + [r1, r2].
struct CdistPlan {
  std::vector<int64_t> out_sizes;
  int64_t batch, r1, r2, cols;
  Tensor x1, x2;
};
CdistPlan cdist_plan(const Tensor& x1, const Tensor& x2);

// pdist's checks: a 2-D floating tensor, p >= 0.
void check_pdist(const Tensor& self, double p);

}  // namespace ipt::native
