// Natural log of float runs with AVX-512, 16 lanes at a time, for the elementwise log kernel.
// PyTorch 2.15 computes float log with MKL's VML (see vml.h), which no open library reproduces
// bit for bit; SLEEF's 1-ulp log costs half as much again as VML's here. This one evaluates in
// double and rounds once to float, so it is within one float ulp of the exact log (nearly always
// the correctly rounded value), as close to VML's as SLEEF's.
//
// Note [A float log evaluated in double]
// A positive normal x is written as 2^k * z with z in [0.699, 1.398) (subtracting the bits of
// 0.699 and splitting the difference's exponent off, so k = 0 around 1 and nothing cancels
// there). The top four mantissa bits of that difference pick one of 16 subintervals, with c its
// centre: log(x) = k * ln 2 + log(c) + log1p(r), where r = z / c - 1, |r| < 0.032, computed as one
// fused multiply-add z * (1 / c) - 1 in double. log1p(r) is its Taylor series to r^8 (relative
// error below 1e-11). The 16 values of 1 / c and -log(1 / c) sit in two pairs of vector
// registers and are looked up with a two-table permute. Lanes that are zero, negative, subnormal,
// infinite or NaN take SLEEF's value instead, which handles them as PyTorch does. Every float
// of the elementwise log goes through these vectors (a lone element in a padded one), so a
// value's log does not depend on where it sits in a tensor.
//
// Compiled with -mavx512f, so it includes no project header (see sleef_avx2.cpp); call it only
// when vml.h's has_avx512() said yes.
// GCC 12 warns that its own AVX-512 shift and extract intrinsics read an uninitialized vector
// (their unused masked-off source); nothing here is uninitialized.
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ipt::cpu {

namespace sleef_avx2 {  // sleef_avx2.cpp
void log(const float* x, float* y, int64_t n);
}  // namespace sleef_avx2

namespace log_avx512 {

namespace {
constexpr uint32_t kOffset = 0x3f330000;  // 0.69921875: z is in [kOffset, 2 * kOffset)

struct Tables {
  alignas(64) double inv_c[16];
  alignas(64) double log_c[16];  // log(c) = -log(1 / c), of the rounded 1 / c
  Tables() {
    for (uint32_t i = 0; i < 16; ++i) {
      // The subinterval's ends (z is the float itself between them), its centre c, 1 / c.
      const uint32_t a = kOffset + (i << 19), b = kOffset + ((i + 1) << 19);
      float lo, hi;
      std::memcpy(&lo, &a, sizeof lo);
      std::memcpy(&hi, &b, sizeof hi);
      const double c = (static_cast<double>(lo) + static_cast<double>(hi)) / 2;
      inv_c[i] = 1.0 / c;
      log_c[i] = -std::log(inv_c[i]);
    }
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

// log of 8 doubles z * 2^k from their subinterval index i.
__m512d log8(__m512d z, __m512d k, __m512i i, const Tables& t) {
  const __m512d inv_c = _mm512_permutex2var_pd(_mm512_load_pd(t.inv_c), i, _mm512_load_pd(t.inv_c + 8));
  const __m512d log_c = _mm512_permutex2var_pd(_mm512_load_pd(t.log_c), i, _mm512_load_pd(t.log_c + 8));
  const __m512d r = _mm512_fmsub_pd(z, inv_c, _mm512_set1_pd(1.0));
  // log1p(r) = r - r^2/2 + r^3/3 - ... - r^8/8, as r + r^2 * p(r)
  __m512d p = _mm512_set1_pd(-1.0 / 8);
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 7));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(-1.0 / 6));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 5));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(-1.0 / 4));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 3));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(-1.0 / 2));
  const __m512d r2 = _mm512_mul_pd(r, r);
  const __m512d base = _mm512_fmadd_pd(k, _mm512_set1_pd(0x1.62e42fefa39efp-1), log_c);  // k ln 2 + log c
  return _mm512_add_pd(base, _mm512_fmadd_pd(r2, p, r));
}

// 16 positive normal floats; the caller checked them.
__m512 log16(__m512 x, const Tables& t) {
  const __m512i ix = _mm512_castps_si512(x);
  const __m512i tmp = _mm512_sub_epi32(ix, _mm512_set1_epi32(static_cast<int>(kOffset)));
  const __m512i index = _mm512_and_si512(_mm512_srli_epi32(tmp, 19), _mm512_set1_epi32(15));
  const __m512i k = _mm512_srai_epi32(tmp, 23);
  const __m512 z = _mm512_castsi512_ps(
      _mm512_sub_epi32(ix, _mm512_and_si512(tmp, _mm512_set1_epi32(static_cast<int>(0xff800000u)))));
  const __m256 z_lo = _mm512_castps512_ps256(z);
  const __m256 z_hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(z), 1));
  const __m256i k_lo = _mm512_castsi512_si256(k), k_hi = _mm512_extracti64x4_epi64(k, 1);
  const __m256i i_lo = _mm512_castsi512_si256(index), i_hi = _mm512_extracti64x4_epi64(index, 1);
  const __m512d lo = log8(_mm512_cvtps_pd(z_lo), _mm512_cvtepi32_pd(k_lo), _mm512_cvtepi32_epi64(i_lo), t);
  const __m512d hi = log8(_mm512_cvtps_pd(z_hi), _mm512_cvtepi32_pd(k_hi), _mm512_cvtepi32_epi64(i_hi), t);
  const __m256 y_lo = _mm512_cvtpd_ps(lo), y_hi = _mm512_cvtpd_ps(hi);
  return _mm512_castpd_ps(
      _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(y_lo)), _mm256_castps_pd(y_hi), 1));
}

// The lanes that are positive normal finite floats (as unsigned bits, x - 2^-126's bits below
// inf's bits - 2^-126's).
__mmask16 positive_normal(__m512 x) {
  const __m512i shifted = _mm512_sub_epi32(_mm512_castps_si512(x), _mm512_set1_epi32(0x00800000));
  return _mm512_cmplt_epu32_mask(shifted, _mm512_set1_epi32(0x7f800000 - 0x00800000));
}

// Any 16 floats: the lanes that are not positive normal take SLEEF's value.
__m512 log16_any(__m512 x, const Tables& t) {
  const __mmask16 ok = positive_normal(x);
  const __m512 y = log16(x, t);
  if (ok == 0xffff) return y;
  alignas(64) float in[16], out[16];
  _mm512_store_ps(in, x);
  sleef_avx2::log(in, out, 16);
  return _mm512_mask_blend_ps(ok, _mm512_load_ps(out), y);
}
}  // namespace

// A run of n floats; a last partial vector is padded with ones. y may be x.
void log(const float* x, float* y, int64_t n) {
  const Tables& t = tables();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, log16_any(_mm512_loadu_ps(x + i), t));
  if (i < n) {
    alignas(64) float buf[16];
    for (float& b : buf) b = 1.0f;
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(float));
    _mm512_store_ps(buf, log16_any(_mm512_load_ps(buf), t));
    std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(float));
  }
}

float log(float x) {
  float y;
  log(&x, &y, 1);
  return y;
}

}  // namespace log_avx512

}  // namespace ipt::cpu
