// The Meta backend: tensors with shapes, strides and dtypes but no memory. Its kernels run
// the same shape rules as the CPU kernels (core/ops/shape_rules.h) and touch no data, which
// is how PyTorch traces shapes without computing.
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/backend.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt {

void register_Meta_kernels(Dispatcher& d);  // generated RegisterMeta.cpp

namespace {
void* meta_allocate(size_t) { return nullptr; }
void meta_deallocate(void*) {}
const BackendInterface kMetaBackend = {
    "meta", DeviceType::Meta, meta_allocate, meta_deallocate, register_Meta_kernels, nullptr, nullptr,
};
const Device kMeta(DeviceType::Meta);
}  // namespace

void register_meta_backend() { register_backend(&kMetaBackend); }

namespace native {

int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step);

Tensor empty_meta(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                  std::optional<bool>, std::optional<MemoryFormat>) {
  return make_empty(size, dtype.value_or(ScalarType::Float), kMeta);
}

Tensor empty_strided_meta(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype, std::optional<Layout>,
                          std::optional<Device>, std::optional<bool>) {
  IPT_CHECK(size.size() == stride.size(), RuntimeError, "mismatch in length of strides and shape");
  Tensor base = make_empty(size, dtype.value_or(ScalarType::Float), kMeta);
  return make_view(base, std::vector<int64_t>(size.begin(), size.end()), std::vector<int64_t>(stride.begin(), stride.end()), 0);
}

Tensor fill_meta_(const Tensor& self, const Scalar&) { return self; }
Tensor fill_meta_random_(const Tensor& self, double, double) { return self; }
Tensor copy_meta_(const Tensor& self, const Tensor& src, bool) {
  auto b = broadcast_shapes(self.sizes(), src.sizes());
  IPT_CHECK(b == self.sizes(), RuntimeError, "output with shape ", int_list_str(self.sizes()),
            " doesn't match the broadcast shape ", int_list_str(b));
  return self;
}

Tensor arange_out_meta(const Scalar& start, const Scalar& end, const Scalar& step, const Tensor& out) {
  out.impl()->resize_contiguous({arange_length(start, end, step)});
  return out;
}

static Tensor meta_like(const PointwiseGeometry& g) { return make_empty(g.sizes, g.out_dtype, kMeta); }

Tensor binary_meta(const Tensor& self, const Tensor& other) { return meta_like(binary_geometry(self, other)); }
Tensor binary_meta_alpha(const Tensor& self, const Tensor& other, const Scalar&) { return binary_meta(self, other); }
Tensor binary_meta_float(const Tensor& self, const Tensor& other) {
  return meta_like(binary_geometry(self, other, PromoteInts::ToFloat));
}
Tensor binary_meta_(const Tensor& self, const Tensor& other) {
  inplace_binary_geometry(self, other);
  return self;
}
Tensor binary_meta_alpha_(const Tensor& self, const Tensor& other, const Scalar&) { return binary_meta_(self, other); }
Tensor unary_meta(const Tensor& self) { return make_empty(self.sizes(), self.dtype(), kMeta); }
Tensor unary_meta_float(const Tensor& self) { return make_empty(self.sizes(), unary_dtype(self, PromoteInts::ToFloat), kMeta); }
Tensor unary_meta_(const Tensor& self) { return self; }
Tensor pow_scalar_meta(const Tensor& self, const Scalar& e) {
  Tensor w = wrapped_scalar_tensor(e);
  return make_empty(self.sizes(), result_type({&self, &w}), kMeta);
}
Tensor pow_scalar_meta_(const Tensor& self, const Scalar&) { return self; }

Tensor reduce_meta(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  auto g = reduction_geometry(self, dim, keepdim, dtype, "sum");
  return make_empty(g.out_sizes, g.out_dtype, kMeta);
}

Tensor dot_meta(const Tensor& self, const Tensor& tensor) {
  check_dot(self, tensor);
  return make_empty(std::vector<int64_t>{}, self.dtype(), kMeta);
}
Tensor mv_meta(const Tensor& self, const Tensor& vec) {
  check_mv(self, vec);
  return make_empty(std::vector<int64_t>{self.sizes()[0]}, self.dtype(), kMeta);
}
Tensor bmm_meta(const Tensor& self, const Tensor& mat2) {
  check_bmm(self, mat2);
  return make_empty(std::vector<int64_t>{self.sizes()[0], self.sizes()[1], mat2.sizes()[2]}, self.dtype(), kMeta);
}

Tensor mm_meta(const Tensor& self, const Tensor& mat2) {
  check_mm(self, mat2);
  return make_empty(std::vector<int64_t>{self.sizes()[0], mat2.sizes()[1]}, self.dtype(), kMeta);
}

}  // namespace native
}  // namespace ipt
