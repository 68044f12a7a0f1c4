// CPU take and index_fill_: take reads self's elements at flat (row-major) positions, in the
// index's shape; index_fill_ writes one value into self's slices at the given positions along a
// dim. Both accept negative positions, counted from the end.
#include "backends/cpu/cpu_loops.h"
#include "core/parallel/parallel.h"
#include "core/util/interrupt.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {

Tensor index_fill_cpu(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = self.dim() == 0 ? 0 : dim;
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[static_cast<size_t>(d)];
  const int64_t stride = self.dim() == 0 ? 0 : self.strides()[static_cast<size_t>(d)];
  // Every position is checked before anything is written.
  std::vector<int64_t> idx = cpu::long_values(index);
  for (int64_t& v : idx) {
    IPT_CHECK(v >= -size && v < size, IndexError, "index ", v, " is out of bounds for dimension ", d, " with size ",
              size);
    if (v < 0) v += size;
  }
  // self as (outer dims, d, inner dims): each outer slice gets the value at every position and
  // inner offset, the outer slices split over threads (the same value everywhere, so in any order).
  std::vector<int64_t> outer_sizes, outer_strides, inner_sizes, inner_strides;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (k == d) continue;
    (k < d ? outer_sizes : inner_sizes).push_back(self.sizes()[static_cast<size_t>(k)]);
    (k < d ? outer_strides : inner_strides).push_back(self.strides()[static_cast<size_t>(k)]);
  }
  const std::vector<int64_t> outer = cpu::offsets_of(outer_sizes, outer_strides);
  const std::vector<int64_t> inner = cpu::offsets_of(inner_sizes, inner_strides);
  bool inner_run = true;
  for (size_t j = 0; j < inner.size(); ++j) inner_run = inner_run && inner[j] == static_cast<int64_t>(j);
  const int64_t ni = static_cast<int64_t>(inner.size()), nidx = static_cast<int64_t>(idx.size());
  if (ni == 0 || nidx == 0) return self;
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T v = value.to<T>();
    T* base = static_cast<T*>(self.impl()->raw_data());
    parallel_for(0, static_cast<int64_t>(outer.size()), std::max<int64_t>(1, kGrainSize / (ni * nidx)),
                 [&](int64_t o0, int64_t o1) {
                   for (int64_t o = o0; o < o1; ++o) {
                     check_interrupt();
                     for (int64_t k : idx) {
                       T* p = base + outer[static_cast<size_t>(o)] + k * stride;
                       if (inner_run) std::fill_n(p, ni, v);
                       else
                         for (int64_t j = 0; j < ni; ++j) p[inner[static_cast<size_t>(j)]] = v;
                     }
                   }
                 });
  });
  return self;
}

}  // namespace

Tensor index_fill_scalar_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return index_fill_cpu(self, check_index_fill(self, dim, index, nullptr), index, value);
}

Tensor index_fill_tensor_cpu_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  const int64_t d = check_index_fill(self, dim, index, &value);
  return index_fill_cpu(self, d, index, ops::_local_scalar_dense(value));
}

Tensor take_cpu(const Tensor& self, const Tensor& index) {
  check_take(self, index);
  Tensor out = make_empty(index.sizes(), self.dtype(), self.device());
  if (index.numel() == 0) return out;
  const std::vector<int64_t> positions = cpu::long_values(index);
  const int64_t n = self.numel();
  for (int64_t p : positions)
    IPT_CHECK(p >= -n && p < n, IndexError, "out of range: tried to access index ", p, " on a tensor of ", n,
              " elements.");
  const Tensor src = ops::contiguous(self);
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* in = src.data_ptr<T>();
    T* o = out.data_ptr<T>();
    for (size_t i = 0; i < positions.size(); ++i) o[i] = in[positions[i] < 0 ? positions[i] + n : positions[i]];
  });
  return out;
}

}  // namespace ipt::native
