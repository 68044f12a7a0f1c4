// layer_norm_impl.h's rows compiled for AVX2 and FMA (see layer_norm_avx2.h): the same
// operations, with std::fma one instruction instead of a call into libm.
#include "backends/cpu/layer_norm_avx2.h"

#define IPT_LAYER_NORM_MATH layer_norm_math_avx2
#include "backends/cpu/layer_norm_impl.h"

namespace ipt::native::layer_norm_avx2 {

namespace m = ipt::native::layer_norm_math_avx2;

#define IPT_LAYER_NORM_AVX2_DEF(T)                                                                              \
  void moments(const T* x, int64_t N, T& mean, T& var) { m::rowwise_moments(x, N, mean, var); }                 \
  void forward_row(const T* x, T* y, int64_t N, T mean, T rstd, const T* gamma, const T* beta) {                \
    m::layer_norm_row(x, y, N, mean, rstd, gamma, beta);                                                        \
  }                                                                                                             \
  void backward_row(const T* dy, const T* x, T mean, T a, const T* gamma, T* dx, T* dgamma_part, T* dbeta_part, \
                    int64_t N) {                                                                                \
    m::layer_norm_backward_row(dy, x, mean, a, gamma, dx, dgamma_part, dbeta_part, N);                          \
  }                                                                                                             \
  void scale_shift_row(const T* x, T* y, int64_t N, T scale, T shift) {                                         \
    for (int64_t i = 0; i < N; ++i) y[i] = std::fma(scale, x[i], shift);                                        \
  }
IPT_LAYER_NORM_AVX2_DEF(float)
IPT_LAYER_NORM_AVX2_DEF(double)
#undef IPT_LAYER_NORM_AVX2_DEF

}  // namespace ipt::native::layer_norm_avx2
