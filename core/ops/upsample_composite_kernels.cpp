// upsample_nearest2d.vec and upsample_bilinear2d.vec, the forms F.interpolate calls, as PyTorch
// writes them (CompositeImplicitAutograd): the output size from output_size or from the scale
// factors (the input size times the scale, truncated), then the operator with the sizes and the
// scales, which the kernels use to map output indices back.
#include <cmath>
#include <limits>

#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

std::vector<int64_t> output_size_of(const Tensor& input, std::optional<IntArrayRef> output_size,
                                    std::optional<std::span<const double>> scale_factors) {
  const int64_t spatial = input.dim() - 2;
  IPT_CHECK(!(output_size && scale_factors), RuntimeError, "Must specify exactly one of output_size and scale_factors");
  if (output_size) {
    IPT_CHECK(static_cast<int64_t>(output_size->size()) == spatial, RuntimeError,
              "Expected static_cast<int64_t>(output_size->size()) == spatial_dimensions to be true, but got false.  "
              "(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    return {output_size->begin(), output_size->end()};
  }
  IPT_CHECK(scale_factors.has_value(), RuntimeError, "Must specify exactly one of output_size and scale_factors");
  IPT_CHECK(static_cast<int64_t>(scale_factors->size()) == spatial, RuntimeError,
            "Expected static_cast<int64_t>(scale_factors->size()) == spatial_dimensions to be true, but got false.  "
            "(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
  std::vector<int64_t> sizes;
  for (int64_t i = 0; i < spatial; ++i) {
    const double odim =
        static_cast<double>(input.sizes()[static_cast<size_t>(i + 2)]) * (*scale_factors)[static_cast<size_t>(i)];
    IPT_CHECK(std::isfinite(odim) && odim >= static_cast<double>(std::numeric_limits<int64_t>::min()) &&
                  odim <= static_cast<double>(std::numeric_limits<int64_t>::max()),
              RuntimeError, "value cannot be converted to type int64_t without overflow");
    sizes.push_back(static_cast<int64_t>(odim));
  }
  return sizes;
}

std::optional<double> scale_at(std::optional<std::span<const double>> scales, size_t i) {
  if (!scales) return std::nullopt;
  return (*scales)[i];
}

}  // namespace

Tensor upsample_nearest2d_vec(const Tensor& input, std::optional<IntArrayRef> output_size,
                              std::optional<std::span<const double>> scale_factors) {
  const std::vector<int64_t> osize = output_size_of(input, output_size, scale_factors);
  return ops::upsample_nearest2d(input, osize, scale_at(scale_factors, 0), scale_at(scale_factors, 1));
}

Tensor upsample_bilinear2d_vec(const Tensor& input, std::optional<IntArrayRef> output_size, bool align_corners,
                               std::optional<std::span<const double>> scale_factors) {
  const std::vector<int64_t> osize = output_size_of(input, output_size, scale_factors);
  return ops::upsample_bilinear2d(input, osize, align_corners, scale_at(scale_factors, 0), scale_at(scale_factors, 1));
}

}  // namespace ipt::native
