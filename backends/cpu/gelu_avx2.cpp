#include "backends/cpu/gelu_avx2.h"

#include "backends/cpu/onednn_gelu.h"

namespace ipt::native::gelu_avx2 {

void forward(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = onednn::onednn_gelu(x[i]);
}

void backward(const float* dy, const float* x, float* dx, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dx[i] = onednn::onednn_gelu_backward(dy[i], x[i]);
}

}  // namespace ipt::native::gelu_avx2
