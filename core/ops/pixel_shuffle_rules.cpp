#include "core/ops/pixel_shuffle_rules.h"

#include "core/util/error.h"

namespace ipt::native {

std::vector<int64_t> pixel_shuffle_sizes(const Tensor& self, int64_t upscale_factor) {
  IPT_CHECK(self.dim() >= 3, RuntimeError,
            "pixel_shuffle expects input to have at least 3 dimensions, but got input with ", self.dim(),
            " dimension(s)");
  IPT_CHECK(upscale_factor > 0, RuntimeError, "pixel_shuffle expects a positive upscale_factor, but got ",
            upscale_factor);
  std::vector<int64_t> sizes = self.sizes();
  const size_t n = sizes.size();
  const int64_t squared = upscale_factor * upscale_factor;
  IPT_CHECK(sizes[n - 3] % squared == 0, RuntimeError,
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
            "but input.size(-3)=",
            sizes[n - 3], " is not divisible by ", squared);
  sizes[n - 3] /= squared;
  sizes[n - 2] *= upscale_factor;
  sizes[n - 1] *= upscale_factor;
  return sizes;
}

std::vector<int64_t> pixel_unshuffle_sizes(const Tensor& self, int64_t downscale_factor) {
  IPT_CHECK(self.dim() >= 3, RuntimeError,
            "pixel_unshuffle expects input to have at least 3 dimensions, but got input with ", self.dim(),
            " dimension(s)");
  IPT_CHECK(downscale_factor > 0, RuntimeError, "pixel_unshuffle expects a positive downscale_factor, but got ",
            downscale_factor);
  std::vector<int64_t> sizes = self.sizes();
  const size_t n = sizes.size();
  IPT_CHECK(sizes[n - 2] % downscale_factor == 0, RuntimeError,
            "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=", sizes[n - 2],
            " is not divisible by ", downscale_factor);
  IPT_CHECK(sizes[n - 1] % downscale_factor == 0, RuntimeError,
            "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=", sizes[n - 1],
            " is not divisible by ", downscale_factor);
  sizes[n - 3] *= downscale_factor * downscale_factor;
  sizes[n - 2] /= downscale_factor;
  sizes[n - 1] /= downscale_factor;
  return sizes;
}

}  // namespace ipt::native
