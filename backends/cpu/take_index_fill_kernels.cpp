// CPU take and index_fill_: take reads self's elements at flat (row-major) positions, in the
// index's shape; index_fill_ writes one value into self's slices at the given positions along a
// dim. Both accept negative positions, counted from the end.
#include "backends/cpu/cpu_loops.h"
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
  std::vector<int64_t> sizes = self.sizes(), strides = self.strides();
  if (self.dim() > 0) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  for (int64_t v : cpu::long_values(index)) {
    IPT_CHECK(v >= -size && v < size, IndexError, "index ", v, " is out of bounds for dimension ", d, " with size ",
              size);
    if (v < 0) v += size;
    ops::fill__Scalar(make_view(self, sizes, strides, self.storage_offset() + v * stride), value);
  }
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
