// oneDNN's gelu_erf, forward and backward, eight floats at a time: onednn_gelu.h's operations
// written as AVX2 / FMA vector instructions, in the same order (so the same bits as one element
// at a time), with the last n % 8 elements through onednn_gelu.h itself.
#include "backends/cpu/gelu_avx2.h"

#include <immintrin.h>

#include "backends/cpu/onednn_gelu.h"

namespace ipt::native::gelu_avx2 {

namespace {

__m256 splat_bits(uint32_t bits) { return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(bits))); }

__m256 one() { return _mm256_set1_ps(1.0f); }
__m256 sign_bits(__m256 v) { return _mm256_and_ps(v, splat_bits(0x80000000u)); }
__m256 vabs(__m256 v) { return _mm256_and_ps(v, splat_bits(0x7fffffffu)); }
__m256 neg(__m256 v) { return _mm256_xor_ps(v, splat_bits(0x80000000u)); }

// onednn::onednn_exp
__m256 vexp(__m256 v) {
  const __m256 lo = splat_bits(0xc2aeac50), hi = splat_bits(0x42b17218);
  const __m256 underflow = _mm256_cmp_ps(v, lo, _CMP_LT_OQ);
  v = _mm256_max_ps(lo, _mm256_min_ps(hi, v));  // std::max(std::min(v, hi), lo), NaN kept
  const __m256 fx = _mm256_floor_ps(_mm256_add_ps(_mm256_mul_ps(v, splat_bits(0x3fb8aa3b)), _mm256_set1_ps(0.5f)));
  const __m256 r = _mm256_fnmadd_ps(fx, splat_bits(0x3f317218), v);
  const __m256i k = _mm256_cvttps_epi32(_mm256_sub_ps(fx, one()));
  const __m256 p2 = _mm256_andnot_ps(
      underflow, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23)));
  __m256 q = _mm256_fmadd_ps(splat_bits(0x3c07cfce), r, splat_bits(0x3d2b9d0d));
  q = _mm256_fmadd_ps(q, r, splat_bits(0x3e2aad40));
  q = _mm256_fmadd_ps(q, r, splat_bits(0x3efffee3));
  q = _mm256_fmadd_ps(q, r, splat_bits(0x3f7ffffb));
  q = _mm256_fmadd_ps(q, r, one());
  return _mm256_mul_ps(_mm256_mul_ps(q, p2), _mm256_set1_ps(2.0f));
}

// onednn::onednn_erf_poly
__m256 erf_poly(__m256 t) {
  __m256 p = _mm256_fmadd_ps(splat_bits(0x3f87dc22), t, splat_bits(0xbfba00e3));
  p = _mm256_fmadd_ps(p, t, splat_bits(0x3fb5f0e3));
  p = _mm256_fmadd_ps(p, t, splat_bits(0xbe91a98e));
  return _mm256_fmadd_ps(p, t, splat_bits(0x3e827906));
}

// 1 / fma(0x3ea7ba05, |x|, 1)
__m256 erf_t(__m256 x) { return _mm256_div_ps(one(), _mm256_fmadd_ps(splat_bits(0x3ea7ba05), vabs(x), one())); }

// onednn::onednn_gelu
__m256 gelu(__m256 s) {
  const __m256 x = _mm256_mul_ps(s, splat_bits(0x3f3504f3));
  const __m256 t = erf_t(x);
  const __m256 u = _mm256_mul_ps(neg(vexp(neg(_mm256_mul_ps(x, x)))), t);
  const __m256 erf = _mm256_xor_ps(_mm256_fmadd_ps(u, erf_poly(t), one()), sign_bits(s));
  const __m256 half = _mm256_mul_ps(s, _mm256_set1_ps(0.5f));
  return _mm256_fmadd_ps(erf, half, half);
}

// onednn::onednn_gelu_backward
__m256 gelu_backward(__m256 dy, __m256 s) {
  const __m256 r = _mm256_mul_ps(s, splat_bits(0x3f3504f3));
  const __m256 q = vexp(neg(_mm256_mul_ps(r, r)));
  const __m256 t = _mm256_mul_ps(_mm256_mul_ps(r, splat_bits(0x3f106eba)), q);
  const __m256 w = erf_t(r);
  const __m256 erf = _mm256_xor_ps(_mm256_fmadd_ps(_mm256_mul_ps(neg(q), w), erf_poly(w), one()), sign_bits(r));
  return _mm256_mul_ps(_mm256_fmadd_ps(erf, _mm256_set1_ps(0.5f), _mm256_add_ps(t, _mm256_set1_ps(0.5f))), dy);
}

}  // namespace

void forward(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, gelu(_mm256_loadu_ps(x + i)));
  for (; i < n; ++i) y[i] = onednn::onednn_gelu(x[i]);
}

void backward(const float* dy, const float* x, float* dx, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dx + i, gelu_backward(_mm256_loadu_ps(dy + i), _mm256_loadu_ps(x + i)));
  for (; i < n; ++i) dx[i] = onednn::onednn_gelu_backward(dy[i], x[i]);
}

}  // namespace ipt::native::gelu_avx2
