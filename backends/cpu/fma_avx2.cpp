// x + alpha * y with fused multiply-adds on contiguous runs, as PyTorch 2.15's AVX2 build computes
// add and sub with an alpha (vec::fmadd; its scalar tail is contracted too). Compiled with -mavx2
// -mfma, so it holds only this and includes no project header (see sleef_avx2.cpp); call it only
// after vml.h's has_avx2() said yes. A vector lane and std::fma give the same value.
#include <immintrin.h>

#include <cmath>
#include <cstdint>

namespace ipt::cpu::fma_avx2 {

void add_alpha(float* out, const float* x, const float* y, float alpha, int64_t n) {
  const __m256 a = _mm256_set1_ps(alpha);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_fmadd_ps(a, _mm256_loadu_ps(y + i), _mm256_loadu_ps(x + i)));
  for (; i < n; ++i) out[i] = std::fma(alpha, y[i], x[i]);
}

void add_alpha(double* out, const double* x, const double* y, double alpha, int64_t n) {
  const __m256d a = _mm256_set1_pd(alpha);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(out + i, _mm256_fmadd_pd(a, _mm256_loadu_pd(y + i), _mm256_loadu_pd(x + i)));
  for (; i < n; ++i) out[i] = std::fma(alpha, y[i], x[i]);
}

}  // namespace ipt::cpu::fma_avx2
