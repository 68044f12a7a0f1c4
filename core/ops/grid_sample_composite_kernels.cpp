// grid_sampler (4-D input: grid_sampler_2d) and affine_grid_generator / its backward, as PyTorch
// writes them: the base grid of each output pixel's normalized coordinates (x, y, 1), from
// linspace(-1, 1) scaled by (k - 1) / k without align_corners, times theta^T by one bmm.
#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

Tensor linspace_from_neg_one(const Tensor& like, int64_t steps, bool align_corners) {
  if (steps <= 1) return ops::scalar_tensor(Scalar(int64_t{0}), like.dtype(), std::nullopt, like.device());
  Tensor range = ops::linspace(Scalar(-1.0), Scalar(1.0), steps, like.dtype(), std::nullopt, like.device());
  if (!align_corners)
    range = ops::div_Tensor(ops::mul_Tensor(range, wrapped_scalar_tensor(Scalar(steps - 1))),
                            wrapped_scalar_tensor(Scalar(steps)));
  return range;
}

// [N, H, W, 3]: (x, y, 1) of each output pixel.
Tensor base_grid(const Tensor& like, int64_t n, int64_t h, int64_t w, bool align_corners) {
  Tensor base = ops::empty_memory_format(std::vector<int64_t>{n, h, w, 3}, like.dtype(), std::nullopt, like.device());
  ops::copy_(ops::select_int(base, -1, 0), linspace_from_neg_one(like, w, align_corners), false);
  ops::copy_(ops::select_int(base, -1, 1), ops::unsqueeze_(linspace_from_neg_one(like, h, align_corners), -1), false);
  ops::fill__Scalar(ops::select_int(base, -1, 2), Scalar(int64_t{1}));
  return base;
}

void check_affine_size(IntArrayRef size) {
  IPT_CHECK(size.size() == 4 || size.size() == 5, RuntimeError,
            "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.");
  IPT_CHECK(size.size() == 4, NotImplementedError,
            "affine_grid of a 5-D size (3-D affine transforms) is not supported by this runtime yet");
}

}  // namespace

Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners) {
  check_affine_size(size);
  const int64_t n = size[0], h = size[2], w = size[3];
  const Tensor base = base_grid(theta, n, h, w, align_corners);
  const Tensor grid = ops::bmm(ops::view(base, std::vector<int64_t>{n, h * w, 3}), ops::transpose_int(theta, 1, 2));
  return ops::view(grid, std::vector<int64_t>{n, h, w, 2});
}

Tensor affine_grid_generator_backward(const Tensor& grad, IntArrayRef size, bool align_corners) {
  check_affine_size(size);
  const int64_t n = size[0], h = size[2], w = size[3];
  const std::vector<int64_t> want{n, h, w, 2};
  IPT_CHECK(grad.sizes() == want, RuntimeError,
            "grad_grid.sizes() == IntArrayRef({N, H, W, 2}) INTERNAL ASSERT FAILED: the gradient has sizes ",
            int_list_str(grad.sizes()));
  const Tensor base = base_grid(grad, n, h, w, align_corners);
  const Tensor grad_theta = ops::bmm(ops::transpose_int(ops::view(base, std::vector<int64_t>{n, h * w, 3}), 1, 2),
                                     ops::reshape(grad, std::vector<int64_t>{n, h * w, 2}));
  return ops::transpose_int(grad_theta, 1, 2);
}

// grid_sampler: the 2-D sampler for 4-D input (the checks come first, as 2.15's do).
Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode,
                    bool align_corners) {
  IPT_CHECK(input.dim() != 5, NotImplementedError,
            "grid_sample of a 5-D input (grid_sampler_3d) is not supported by this runtime yet");
  return ops::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners);
}

}  // namespace ipt::native
