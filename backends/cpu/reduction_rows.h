#pragma once
// Reduced dims laid out as rows, for the CPU reductions that walk rows of their own (max / min
// along a dim, var, norm, cumsum) rather than the reduction engine's loop (reduce_loops.h); and
// the geometry of a reduction along one dim.
#include <cstdint>
#include <vector>

#include "backends/cpu/copy_kernels.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/tensor/tensor.h"

namespace ipt::native {

// `t`, or a contiguous copy (no dispatch: kernels stay leaves in the trace).
inline Tensor contiguous_data(const Tensor& t) {
  if (t.is_contiguous()) return t;
  return copy_cpu_(make_empty(t.sizes(), t.dtype(), t.device()), t, false);
}

// The input as `outer` contiguous rows of `len` reduced elements each: the reduced dims are
// moved last (a permuted view) and the result copied when that is not contiguous.
struct Rows {
  Tensor data;
  int64_t outer = 1, len = 1;
};
inline Rows rows_of(const Tensor& self, const std::vector<bool>& reduced) {
  std::vector<int64_t> sizes, strides;
  int64_t outer = 1, len = 1;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!reduced[d]) {
      sizes.push_back(self.sizes()[d]);
      strides.push_back(self.strides()[d]);
      outer *= self.sizes()[d];
    }
  for (int64_t d = 0; d < self.dim(); ++d)
    if (reduced[d]) {
      sizes.push_back(self.sizes()[d]);
      strides.push_back(self.strides()[d]);
      len *= self.sizes()[d];
    }
  Tensor v = make_view(self, sizes, strides, self.storage_offset());
  return {contiguous_data(v), outer, len};
}

// One dim `d` reduced: rows of the (outer, len, inner) layout, where a row is strided by inner.
struct DimRows {
  Tensor data;
  int64_t outer = 1, len = 1, inner = 1;
};
inline DimRows dim_rows(const Tensor& self, int64_t d) {
  DimRows r{contiguous_data(self)};
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i < d) r.outer *= self.sizes()[i];
    else if (i == d) r.len = self.sizes()[i];
    else r.inner *= self.sizes()[i];
  }
  return r;
}

// A reduction along dim (nothing reduced for a 0-dim tensor): which dims it reduces and the
// output's sizes.
struct OneDimReduction {
  std::vector<bool> reduced;
  std::vector<int64_t> out_sizes;
};
inline OneDimReduction one_dim_reduction(const Tensor& self, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, self.dim());
  OneDimReduction r{std::vector<bool>(static_cast<size_t>(self.dim()), false), {}};
  if (self.dim() > 0) r.reduced[static_cast<size_t>(d)] = true;
  r.out_sizes = sizes_without_dim(self, self.dim() > 0 ? d : -1, keepdim);
  return r;
}

}  // namespace ipt::native
