// x + alpha * y with fused multiply-adds on contiguous runs, as PyTorch 2.15's AVX2 build computes
// add and sub with an alpha (vec::fmadd; its scalar tail is contracted too). Compiled with -mavx2
// -mfma, so it holds only this and includes no project header (see sleef_avx2.cpp); call it only
// after vml.h's has_avx2() said yes. A vector lane and std::fma give the same value.
#include <immintrin.h>

#include <cmath>
#include <cstdint>

namespace ipt::cpu::fma_avx2 {

namespace {
__m256 load(const float* p) { return _mm256_loadu_ps(p); }
__m256d load(const double* p) { return _mm256_loadu_pd(p); }
void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
__m256 fmadd(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
__m256d fmadd(__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); }
__m256 splat(float v) { return _mm256_set1_ps(v); }
__m256d splat(double v) { return _mm256_set1_pd(v); }

template <typename T>
void add_alpha_run(T* out, const T* x, const T* y, T alpha, int64_t n) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T));
  const auto a = splat(alpha);
  int64_t i = 0;
  for (; i + W <= n; i += W) store(out + i, fmadd(a, load(y + i), load(x + i)));
  for (; i < n; ++i) out[i] = std::fma(alpha, y[i], x[i]);
}
}  // namespace

void add_alpha(float* out, const float* x, const float* y, float alpha, int64_t n) {
  add_alpha_run(out, x, y, alpha, n);
}
void add_alpha(double* out, const double* x, const double* y, double alpha, int64_t n) {
  add_alpha_run(out, x, y, alpha, n);
}

}  // namespace ipt::cpu::fma_avx2
