// CPU pixel_shuffle and pixel_unshuffle: a copy of self, read through a view that splits the
// channel (or the height and width) dims and orders them as the result's memory.
//   shuffle:   (*, C, r, r, H, W) read as (*, C, H, r, W, r) is the result (*, C, H * r, W * r);
//   unshuffle: (*, C, H, r, W, r) read as (*, C, r, r, H, W) is the result (*, C * r^2, H, W).
#include "backends/cpu/copy_kernels.h"
#include "core/ops/pixel_shuffle_rules.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// Copies `self` read as the view (sizes, strides) of its storage, in the given dim order, into a
// new contiguous tensor of `out_sizes`.
Tensor permuted_copy(const Tensor& self, const std::vector<int64_t>& split_sizes,
                     const std::vector<int64_t>& split_strides, const std::vector<size_t>& order,
                     const std::vector<int64_t>& out_sizes) {
  Tensor out = make_empty(out_sizes, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  std::vector<int64_t> sizes, strides;
  for (size_t d : order) {
    sizes.push_back(split_sizes[d]);
    strides.push_back(split_strides[d]);
  }
  const Tensor src = make_view(self, sizes, strides, self.storage_offset());
  std::vector<int64_t> dst_strides(sizes.size());
  int64_t step = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    dst_strides[d] = step;
    step *= sizes[d];
  }
  copy_cpu_(make_view(out, sizes, dst_strides, 0), src, false);
  return out;
}

}  // namespace

Tensor pixel_shuffle_cpu(const Tensor& self, int64_t upscale_factor) {
  const std::vector<int64_t> out_sizes = pixel_shuffle_sizes(self, upscale_factor);
  const int64_t r = upscale_factor;
  const size_t lead = self.sizes().size() - 3;
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().begin() + static_cast<std::ptrdiff_t>(lead));
  std::vector<int64_t> strides(self.strides().begin(), self.strides().begin() + static_cast<std::ptrdiff_t>(lead));
  const int64_t sc = self.strides()[lead], sh = self.strides()[lead + 1], sw = self.strides()[lead + 2];
  // (*, C, r, r, H, W)
  sizes.insert(sizes.end(), {self.sizes()[lead] / (r * r), r, r, self.sizes()[lead + 1], self.sizes()[lead + 2]});
  strides.insert(strides.end(), {sc * r * r, sc * r, sc, sh, sw});
  std::vector<size_t> order;
  for (size_t d = 0; d < lead; ++d) order.push_back(d);
  order.insert(order.end(), {lead, lead + 3, lead + 1, lead + 4, lead + 2});  // (*, C, H, r, W, r)
  return permuted_copy(self, sizes, strides, order, out_sizes);
}

Tensor pixel_unshuffle_cpu(const Tensor& self, int64_t downscale_factor) {
  const std::vector<int64_t> out_sizes = pixel_unshuffle_sizes(self, downscale_factor);
  const int64_t r = downscale_factor;
  const size_t lead = self.sizes().size() - 3;
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().begin() + static_cast<std::ptrdiff_t>(lead));
  std::vector<int64_t> strides(self.strides().begin(), self.strides().begin() + static_cast<std::ptrdiff_t>(lead));
  const int64_t sc = self.strides()[lead], sh = self.strides()[lead + 1], sw = self.strides()[lead + 2];
  // (*, C, H, r, W, r)
  sizes.insert(sizes.end(), {self.sizes()[lead], self.sizes()[lead + 1] / r, r, self.sizes()[lead + 2] / r, r});
  strides.insert(strides.end(), {sc, sh * r, sh, sw * r, sw});
  std::vector<size_t> order;
  for (size_t d = 0; d < lead; ++d) order.push_back(d);
  order.insert(order.end(), {lead, lead + 2, lead + 4, lead + 1, lead + 3});  // (*, C, r, r, H, W)
  return permuted_copy(self, sizes, strides, order, out_sizes);
}

}  // namespace ipt::native
