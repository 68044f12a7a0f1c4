// CPU reductions: sum and mean over all or some dimensions, with keepdim.
#include <cmath>

#include "backends/cpu/cpu_loops.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// Sums `self` into an output of geometry g; divides by the reduced count when `mean`.
Tensor reduce_sum(const Tensor& self, const ReductionGeometry& g, bool mean) {
  Tensor out = make_empty(g.out_sizes, g.out_dtype, self.device());
  // Accumulate in double (floating) or int64 (integral) per output element.
  std::vector<int64_t> acc_sizes;  // output shape with reduced dims kept as 1
  for (int64_t d = 0; d < self.dim(); ++d) acc_sizes.push_back(g.reduced[d] ? 1 : self.sizes()[d]);
  std::vector<int64_t> acc_strides = contiguous_strides(acc_sizes);
  for (int64_t d = 0; d < self.dim(); ++d)
    if (g.reduced[d]) acc_strides[d] = 0;
  const int64_t n_out = numel_of(acc_sizes);
  const int64_t count = n_out == 0 ? 0 : self.numel() / std::max<int64_t>(n_out, 1);
  const void* src = self.impl()->raw_data();
  std::array<std::vector<int64_t>, 2> st{self.strides(), acc_strides};
  auto finish = [&](auto& acc) {
    for (int64_t i = 0; i < n_out; ++i) {
      double v = static_cast<double>(acc[i]);
      if (mean) v = count == 0 ? NAN : v / static_cast<double>(count);
      if (is_floating(out.dtype()) || mean) cpu::store_as<double>(out.impl()->raw_data(), out.dtype(), i, v);
      else cpu::store_as<int64_t>(out.impl()->raw_data(), out.dtype(), i, static_cast<int64_t>(acc[i]));
    }
  };
  if (is_floating(g.out_dtype) || mean) {
    std::vector<double> acc(static_cast<size_t>(n_out), 0.0);
    if (self.dtype() == ScalarType::Float) {
      const float* p = static_cast<const float*>(src);
      cpu::for_each_offsets<2>(self.sizes(), st, [&](int64_t i, int64_t o) { acc[o] += p[i]; });
    } else {
      cpu::for_each_offsets<2>(self.sizes(), st, [&](int64_t i, int64_t o) { acc[o] += cpu::load_as<double>(src, self.dtype(), i); });
    }
    finish(acc);
  } else {
    std::vector<int64_t> acc(static_cast<size_t>(n_out), 0);
    cpu::for_each_offsets<2>(self.sizes(), st, [&](int64_t i, int64_t o) { acc[o] += cpu::load_as<int64_t>(src, self.dtype(), i); });
    finish(acc);
  }
  return out;
}

}  // namespace

Tensor sum_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce_sum(self, reduction_geometry(self, dim, keepdim, dtype, "sum"), false);
}

Tensor mean_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce_sum(self, reduction_geometry(self, dim, keepdim, dtype, "mean"), true);
}

}  // namespace ipt::native
