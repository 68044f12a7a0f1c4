// The geometry a CPU convolution's kernels share: an image of C channels and `img` sizes, a grid
// of `grid` patch positions (the output of a plain convolution), the kernel, stride, padding and
// dilation, always as three spatial dims (1-D and 2-D convolutions lead with sizes of 1).
#pragma once

#include <cstdint>

namespace ipt::cpu {

struct ConvGeometry {
  int64_t C = 1;
  int64_t img[3] = {1, 1, 1}, grid[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0},
          d[3] = {1, 1, 1};
  int64_t img_size() const { return img[0] * img[1] * img[2]; }
  int64_t grid_size() const { return grid[0] * grid[1] * grid[2]; }
  int64_t kernel_size() const { return k[0] * k[1] * k[2]; }
  int64_t rows() const { return C * kernel_size(); }
  // A 1x1 kernel at stride 1 without padding: the image is its own column matrix.
  bool identity() const {
    for (int i = 0; i < 3; ++i)
      if (k[i] != 1 || s[i] != 1 || p[i] != 0 || img[i] != grid[i]) return false;
    return true;
  }
};

}  // namespace ipt::cpu
