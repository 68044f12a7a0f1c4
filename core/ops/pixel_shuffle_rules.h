#pragma once
// pixel_shuffle / pixel_unshuffle's checks and result shape (PyTorch 2.15's PixelShuffle.h), shared
// by the CPU and Meta kernels: (*, C * r^2, H, W) <-> (*, C, H * r, W * r).
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::native {

std::vector<int64_t> pixel_shuffle_sizes(const Tensor& self, int64_t upscale_factor);
std::vector<int64_t> pixel_unshuffle_sizes(const Tensor& self, int64_t downscale_factor);

}  // namespace ipt::native
