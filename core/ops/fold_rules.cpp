#include "core/ops/fold_rules.h"

#include <string>

#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt::native {

namespace {

void check_pair(IntArrayRef v, const char* name) {
  IPT_CHECK(v.size() == 2, RuntimeError, "It is expected ", name, " equals to 2, but got size ", v.size());
}

// 2.15's col2im/im2col_shape_check: the arguments' signs.
void check_arguments(const SlidingBlocks& b) {
  IPT_CHECK(b.kw > 0 && b.kh > 0, RuntimeError,
            "kernel size should be greater than zero, but got kernel_height: ", b.kh, " kernel_width: ", b.kw);
  IPT_CHECK(b.dw > 0 && b.dh > 0, RuntimeError, "dilation should be greater than zero, but got dilation_height: ", b.dh,
            " dilation_width: ", b.dw);
  IPT_CHECK(b.pw >= 0 && b.ph >= 0, RuntimeError, "padding should be non-negative, but got pad_height: ", b.ph,
            " pad_width: ", b.pw);
  IPT_CHECK(b.sw > 0 && b.sh > 0, RuntimeError, "stride should be greater than zero, but got stride_height: ", b.sh,
            " stride_width: ", b.sw);
}

SlidingBlocks arguments(IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  check_pair(kernel_size, "kernel_size");
  check_pair(dilation, "dilation");
  check_pair(padding, "padding");
  check_pair(stride, "stride");
  SlidingBlocks b{kernel_size[0], kernel_size[1], dilation[0], dilation[1], padding[0], padding[1],
                  stride[0],      stride[1],      0,           0,           0,          0};
  check_arguments(b);
  return b;
}

int64_t blocks_along(int64_t size, int64_t pad, int64_t dil, int64_t k, int64_t stride) {
  return (size + 2 * pad - (dil * (k - 1) + 1)) / stride + 1;
}

// Only the batch dim (the first of `batched_dims` dims) may be empty.
bool non_empty_but_batch(const Tensor& t, int64_t batched_dims) {
  for (int64_t d = t.dim() == batched_dims ? 1 : 0; d < t.dim(); ++d)
    if (t.sizes()[static_cast<size_t>(d)] == 0) return false;
  return true;
}

}  // namespace

SlidingBlocks im2col_blocks(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                            IntArrayRef stride) {
  SlidingBlocks b = arguments(kernel_size, dilation, padding, stride);
  // 2.15 reads dims 1 and 2 before it checks the rank, so a 2-D image fails there (IndexError).
  const bool valid_dims = self.size(1) != 0 && self.size(2) != 0;
  const int64_t nd = self.dim();
  IPT_CHECK((nd == 3 && valid_dims) || (nd == 4 && valid_dims && self.size(3) != 0), RuntimeError,
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for "
            "input, but got: ",
            int_list_str(self.sizes()));
  b.height = self.sizes()[static_cast<size_t>(nd - 2)];
  b.width = self.sizes()[static_cast<size_t>(nd - 1)];
  b.blocks_h = blocks_along(b.height, b.ph, b.dh, b.kh, b.sh);
  b.blocks_w = blocks_along(b.width, b.pw, b.dw, b.kw, b.sw);
  IPT_CHECK(b.blocks_h >= 1 && b.blocks_w >= 1, RuntimeError, "Given input with spatial size (", b.height, ", ",
            b.width, "), kernel_size=(", b.kh, ", ", b.kw, "), dilation=(", b.dh, ", ", b.dw, "), padding=(", b.ph,
            ", ", b.pw, "), calculated shape of the array of sliding blocks as (", b.blocks_h, ", ", b.blocks_w,
            "), but its components must be at least one.");
  return b;
}

std::vector<int64_t> im2col_output_sizes(const Tensor& self, const SlidingBlocks& b) {
  const int64_t channels = self.sizes()[static_cast<size_t>(self.dim() - 3)];
  std::vector<int64_t> out{channels * b.kh * b.kw, b.blocks_h * b.blocks_w};
  if (self.dim() == 4) out.insert(out.begin(), self.sizes()[0]);
  return out;
}

SlidingBlocks col2im_blocks(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
                            IntArrayRef padding, IntArrayRef stride) {
  check_pair(output_size, "output_size");
  SlidingBlocks b = arguments(kernel_size, dilation, padding, stride);
  const int64_t nd = self.dim();
  IPT_CHECK((nd == 2 || nd == 3) && non_empty_but_batch(self, 3), RuntimeError,
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
            "input, but got: ",
            int_list_str(self.sizes()));
  const int64_t rows = self.sizes()[static_cast<size_t>(nd - 2)], cols = self.sizes()[static_cast<size_t>(nd - 1)];
  IPT_CHECK(rows % (b.kw * b.kh) == 0, RuntimeError,
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
            "input.size(1)=",
            rows, " and kernel_size=(", b.kh, ", ", b.kw, ").");
  b.height = output_size[0];
  b.width = output_size[1];
  b.blocks_h = blocks_along(b.height, b.ph, b.dh, b.kh, b.sh);
  b.blocks_w = blocks_along(b.width, b.pw, b.dw, b.kw, b.sw);
  IPT_CHECK(cols == b.blocks_h * b.blocks_w, RuntimeError, "Given output_size=(", b.height, ", ", b.width,
            "), kernel_size=(", b.kh, ", ", b.kw, "), dilation=(", b.dh, ", ", b.dw, "), padding=(", b.ph, ", ", b.pw,
            "), stride=(", b.sh, ", ", b.sw,
            "), expected size of input's dimension 2 to match the calculated number of sliding blocks ", b.blocks_h,
            " * ", b.blocks_w, " = ", b.blocks_h * b.blocks_w, ", but got input.size(2)=", cols, ".");
  IPT_CHECK(b.blocks_h >= 1 && b.blocks_w >= 1, RuntimeError, "Given output_size=(", b.height, ", ", b.width,
            "), kernel_size=(", b.kh, ", ", b.kw, "), dilation=(", b.dh, ", ", b.dw, "), padding=(", b.ph, ", ", b.pw,
            "), stride=(", b.sh, ", ", b.sw, "), calculated shape of the array of sliding blocks as (", b.blocks_h,
            ", ", b.blocks_w, "), which is too small (non-positive)");
  return b;
}

std::vector<int64_t> col2im_output_sizes(const Tensor& self, const SlidingBlocks& b) {
  const int64_t channels = self.sizes()[static_cast<size_t>(self.dim() - 2)] / (b.kh * b.kw);
  std::vector<int64_t> out{channels, b.height, b.width};
  if (self.dim() == 3) out.insert(out.begin(), self.sizes()[0]);
  return out;
}

}  // namespace ipt::native
