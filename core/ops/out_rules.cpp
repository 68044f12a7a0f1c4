#include "core/ops/out_rules.h"

#include <algorithm>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "core/util/warning.h"

namespace ipt {

bool resize_output(const Tensor& out, std::span<const int64_t> sizes) {
  if (std::equal(sizes.begin(), sizes.end(), out.sizes().begin(), out.sizes().end())) return false;
  if (out.numel() != 0)
    IPT_WARN("An output with one or more elements was resized since it had shape ", int_list_str(out.sizes()),
             ", which does not match the required output shape ", int_list_str(sizes),
             ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless "
             "they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
             "elements with t.resize_(0).");
  out.impl()->resize_contiguous(std::vector<int64_t>(sizes.begin(), sizes.end()));
  return true;
}

void resize_output_like(const Tensor& out, std::span<const int64_t> sizes, const Tensor& like) {
  if (!resize_output(out, sizes)) return;
  std::vector<int64_t> strides = layout_strides_like(sizes, like);
  if (strides != out.strides()) out.impl()->set_geometry(out.sizes(), std::move(strides));
}

void check_out_dtype_is(const Tensor& out, ScalarType expected) {
  IPT_CHECK(out.dtype() == expected, RuntimeError, "Found dtype ", dtype_cpp_name(out.dtype()), " but expected ",
            dtype_cpp_name(expected));
}

void check_structured_out_dtype(const Tensor& out, ScalarType expected) {
  IPT_CHECK(out.dtype() == expected, RuntimeError, "Expected out tensor to have dtype ", dtype_element_name(expected),
            ", but got ", dtype_element_name(out.dtype()), " instead");
}

}  // namespace ipt
