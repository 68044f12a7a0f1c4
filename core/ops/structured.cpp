#include "core/ops/structured.h"

#include <algorithm>

#include "core/ops/autograd_hooks.h"
#include "core/ops/out_rules.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt {

namespace {

void check_written_dtype(const Tensor& t, const StructuredMeta& m) {
  if (m.out_dtype == StructuredMeta::OutDtype::Exact) {
    check_structured_out_dtype(t, m.dtype);
    return;
  }
  if (m.out_dtype == StructuredMeta::OutDtype::Same) {
    check_out_dtype_is(t, m.dtype);
    return;
  }
  IPT_CHECK(can_cast(m.compute_dtype, t.dtype()), RuntimeError, "result type ", dtype_cpp_name(m.compute_dtype),
            " can't be cast to the desired output type ", dtype_cpp_name(t.dtype()));
}

void check_written_device(const Tensor& t, const StructuredMeta& m) {
  IPT_CHECK(t.device() == m.device, RuntimeError,
            "Expected all tensors to be on the same device, but found at least two devices, ", m.device.str(), " and ",
            t.device().str(), "!");
}

}  // namespace

Tensor structured_result(const StructuredMeta& m) {
  IPT_CHECK(m.meta_device_mismatch.empty(), RuntimeError, m.meta_device_mismatch);
  if (m.layout_like) return make_empty_like_layout(m.sizes, m.dtype, m.device, *m.layout_like);
  return make_empty(m.sizes, m.dtype, m.device);
}

void structured_check_inplace(const Tensor& self, const StructuredMeta& m,
                              std::initializer_list<const Tensor*> inputs) {
  if (m.device.type == DeviceType::Meta && involves_meta(inputs)) {
    // Note [Elementwise checks on the Meta device]: the shape, the dtype, no device.
    check_meta_inplace_shape(self, m.sizes);
    check_written_dtype(self, m);
    return;
  }
  IPT_CHECK(std::equal(m.sizes.begin(), m.sizes.end(), self.sizes().begin(), self.sizes().end()), RuntimeError,
            "output with shape ", int_list_str(self.sizes()), " doesn't match the broadcast shape ",
            int_list_str(m.sizes));
  check_written_dtype(self, m);
  check_written_device(self, m);
  check_no_internal_overlap(self);
  for (const Tensor* in : inputs) check_no_partial_overlap(self, *in);
}

void structured_prepare_out(const Tensor& out, const StructuredMeta& m, std::initializer_list<const Tensor*> inputs) {
  IPT_CHECK(m.meta_device_mismatch.empty(), RuntimeError, m.meta_device_mismatch);
  check_written_dtype(out, m);
  check_written_device(out, m);
  const bool resizes = !std::equal(m.sizes.begin(), m.sizes.end(), out.sizes().begin(), out.sizes().end());
  if (!resizes) check_no_internal_overlap(out);
  for (const Tensor* in : inputs) check_no_partial_overlap(out, *in);
  if (m.layout_like) resize_output_like(out, m.sizes, *m.layout_like);
  else resize_output(out, m.sizes);
}

void check_no_partial_overlap(const Tensor& written, const Tensor& input) {
  if (written.is_same(input) || !written.defined() || !input.defined()) return;
  if (written.numel() == 0 || input.numel() == 0) return;
  if (written.storage().get() != input.storage().get()) return;
  // Only dense tensors are compared, as PyTorch does (others are "too hard" and pass).
  if (!is_non_overlapping_and_dense(written.sizes(), written.strides()) ||
      !is_non_overlapping_and_dense(input.sizes(), input.strides()))
    return;
  const int64_t wb = written.storage_offset() * static_cast<int64_t>(element_size(written.dtype()));
  const int64_t we = wb + written.numel() * static_cast<int64_t>(element_size(written.dtype()));
  const int64_t ib = input.storage_offset() * static_cast<int64_t>(element_size(input.dtype()));
  const int64_t ie = ib + input.numel() * static_cast<int64_t>(element_size(input.dtype()));
  const bool full = wb == ib && we == ie && written.strides() == input.strides();
  IPT_CHECK(full || !(wb < ie && ib < we), RuntimeError,
            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
            "memory location. Please clone() the tensor before performing the operation.");
}

}  // namespace ipt
