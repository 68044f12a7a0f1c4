#include "core/ops/distance_rules.h"

#include <cmath>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt::native {

void check_cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  IPT_CHECK(x1.dim() >= 2, RuntimeError, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  IPT_CHECK(x2.dim() >= 2, RuntimeError, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  IPT_CHECK(x1.sizes().back() == x2.sizes().back(), RuntimeError,
            "X1 and X2 must have the same number of columns. X1: ", x1.sizes().back(), " X2: ", x2.sizes().back());
  IPT_CHECK(is_floating(x1.dtype()), RuntimeError,
            "cdist only supports floating-point dtypes, X1 got: ", dtype_cpp_name(x1.dtype()));
  IPT_CHECK(is_floating(x2.dtype()), RuntimeError,
            "cdist only supports floating-point dtypes, X2 got: ", dtype_cpp_name(x2.dtype()));
  IPT_CHECK(p >= 0, RuntimeError, "cdist only supports non-negative p values");
  IPT_CHECK(!compute_mode || (*compute_mode >= 0 && *compute_mode <= 2), RuntimeError,
            "possible modes: 0, 1, 2, but was: ", compute_mode.value_or(0));
}

CdistPlan cdist_plan(const Tensor& x1, const Tensor& x2) {
  const std::vector<int64_t> s1 = x1.sizes(), s2 = x2.sizes();
  const std::vector<int64_t> b1(s1.begin(), s1.end() - 2), b2(s2.begin(), s2.end() - 2);
  CdistPlan plan;
  plan.r1 = s1[s1.size() - 2];
  plan.r2 = s2[s2.size() - 2];
  plan.cols = s1.back();
  plan.out_sizes = broadcast_shapes(b1, b2);
  plan.batch = 1;
  for (int64_t s : plan.out_sizes) plan.batch *= s;
  auto flattened = [&](const Tensor& x, int64_t rows) {
    std::vector<int64_t> expanded = plan.out_sizes;
    expanded.push_back(rows);
    expanded.push_back(plan.cols);
    return ops::view(ops::contiguous(ops::expand(x, expanded, false), MemoryFormat::Contiguous),
                     std::vector<int64_t>{plan.batch, rows, plan.cols});
  };
  plan.x1 = flattened(x1, plan.r1);
  plan.x2 = flattened(x2, plan.r2);
  plan.out_sizes.push_back(plan.r1);
  plan.out_sizes.push_back(plan.r2);
  return plan;
}

void check_pdist(const Tensor& self, double p) {
  IPT_CHECK(self.dim() == 2, RuntimeError, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  IPT_CHECK(is_floating(self.dtype()), RuntimeError, "pdist only supports floating-point dtypes");
  IPT_CHECK(p >= 0, RuntimeError, "pdist only supports non-negative p values");
}

}  // namespace ipt::native
