#pragma once
// Layer norm's and group norm's rows (layer_norm_impl.h) compiled for AVX2 and FMA
// (layer_norm_avx2.cpp); call only when cpu::has_avx2().
#include <cstdint>

namespace ipt::native::layer_norm_avx2 {

#define IPT_LAYER_NORM_AVX2_DECL(T)                                                                             \
  void moments(const T* x, int64_t N, T& mean, T& var);                                                         \
  void forward_row(const T* x, T* y, int64_t N, T mean, T rstd, const T* gamma, const T* beta);                 \
  void backward_row(const T* dy, const T* x, T mean, T a, const T* gamma, T* dx, T* dgamma_part, T* dbeta_part, \
                    int64_t N);                                                                                 \
  void scale_shift_row(const T* x, T* y, int64_t N, T scale, T shift);
IPT_LAYER_NORM_AVX2_DECL(float)
IPT_LAYER_NORM_AVX2_DECL(double)
#undef IPT_LAYER_NORM_AVX2_DECL

}  // namespace ipt::native::layer_norm_avx2
