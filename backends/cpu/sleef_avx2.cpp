// SLEEF's AVX2 functions on one lane and on contiguous runs (see vml.h). This file is compiled with -mavx2 -mfma, so
// it holds only these functions, which run after vml.h's has_avx2() said yes; the one project
// header it includes is a list of names (an inline function compiled here could be the one the
// linker keeps).
#include <immintrin.h>
#include <sleef.h>

#include <cstdint>
#include <cstring>

#include "backends/cpu/sleef_functions.h"

namespace ipt::cpu {

namespace sleef_avx2 {
#define IPT_SLEEF_LANE(name)                                                                    \
  float name(float x) { return _mm256_cvtss_f32(Sleef_##name##f8_u10avx2(_mm256_set1_ps(x))); } \
  double name(double x) { return _mm256_cvtsd_f64(Sleef_##name##d4_u10avx2(_mm256_set1_pd(x))); }
IPT_SLEEF_FUNCTIONS(IPT_SLEEF_LANE)
#undef IPT_SLEEF_LANE

// A contiguous run, a vector at a time; the last partial vector goes through a padded copy
// (lanes are independent, so each element gets the value it gets in a full vector).
static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
static void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
static __m256d load(const double* p) { return _mm256_loadu_pd(p); }
static void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
template <typename T, int W, typename F>
static void run_array(const T* x, T* y, int64_t n, F f) {
  int64_t i = 0;
  for (; i + W <= n; i += W) store(y + i, f(load(x + i)));
  if (i < n) {
    alignas(32) T buf[W] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(T));
    store(buf, f(load(buf)));
    std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(T));
  }
}
#define IPT_SLEEF_ARRAY(name)                                                             \
  void name(const float* x, float* y, int64_t n) {                                        \
    run_array<float, 8>(x, y, n, [](__m256 v) { return Sleef_##name##f8_u10avx2(v); });   \
  }                                                                                       \
  void name(const double* x, double* y, int64_t n) {                                      \
    run_array<double, 4>(x, y, n, [](__m256d v) { return Sleef_##name##d4_u10avx2(v); }); \
  }
IPT_SLEEF_FUNCTIONS(IPT_SLEEF_ARRAY)
#undef IPT_SLEEF_ARRAY

// atan2(y, x): one element, and n elements of two contiguous runs (whole vectors only: the
// caller takes the rest, Note [cpu_kernel_vec's tail] in vml.h).
float atan2(float y, float x) { return _mm256_cvtss_f32(Sleef_atan2f8_u10avx2(_mm256_set1_ps(y), _mm256_set1_ps(x))); }
double atan2(double y, double x) {
  return _mm256_cvtsd_f64(Sleef_atan2d4_u10avx2(_mm256_set1_pd(y), _mm256_set1_pd(x)));
}
void atan2(const float* y, const float* x, float* out, int64_t n) {
  for (int64_t i = 0; i + 8 <= n; i += 8) store(out + i, Sleef_atan2f8_u10avx2(load(y + i), load(x + i)));
}
void atan2(const double* y, const double* x, double* out, int64_t n) {
  for (int64_t i = 0; i + 4 <= n; i += 4) store(out + i, Sleef_atan2d4_u10avx2(load(y + i), load(x + i)));
}

// fmod(x, y) and Python's remainder (fmod, plus y where it is nonzero and its sign is not y's)
// of n elements of two contiguous runs (whole vectors only: the caller takes the rest), as
// Vectorized<T>::fmod (SLEEF's) and 2.15's remainder lambda compute them. out may be x or y.
static __m256 fmod_of(__m256 x, __m256 y) { return Sleef_fmodf8_avx2(x, y); }
static __m256d fmod_of(__m256d x, __m256d y) { return Sleef_fmodd4_avx2(x, y); }
static __m256 below_zero(__m256 v) { return _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ); }
static __m256d below_zero(__m256d v) { return _mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_LT_OQ); }
// m + y where m is nonzero (or NaN) and its sign is not y's, else m
static __m256 python_mod(__m256 m, __m256 y) {
  const __m256 fix =
      _mm256_and_ps(_mm256_cmp_ps(m, _mm256_setzero_ps(), _CMP_NEQ_UQ), _mm256_xor_ps(below_zero(y), below_zero(m)));
  return _mm256_blendv_ps(m, _mm256_add_ps(m, y), fix);
}
static __m256d python_mod(__m256d m, __m256d y) {
  const __m256d fix =
      _mm256_and_pd(_mm256_cmp_pd(m, _mm256_setzero_pd(), _CMP_NEQ_UQ), _mm256_xor_pd(below_zero(y), below_zero(m)));
  return _mm256_blendv_pd(m, _mm256_add_pd(m, y), fix);
}
template <typename T>
static void remainder_run(const T* x, const T* y, T* out, int64_t n) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T));
  for (int64_t i = 0; i + W <= n; i += W) {
    const auto b = load(y + i);
    store(out + i, python_mod(fmod_of(load(x + i), b), b));
  }
}
void fmod(const float* x, const float* y, float* out, int64_t n) {
  for (int64_t i = 0; i + 8 <= n; i += 8) store(out + i, fmod_of(load(x + i), load(y + i)));
}
void fmod(const double* x, const double* y, double* out, int64_t n) {
  for (int64_t i = 0; i + 4 <= n; i += 4) store(out + i, fmod_of(load(x + i), load(y + i)));
}
void remainder(const float* x, const float* y, float* out, int64_t n) { remainder_run(x, y, out, n); }
void remainder(const double* x, const double* y, double* out, int64_t n) { remainder_run(x, y, out, n); }

// pow(x, y) of one element, as Vectorized<T>::pow computes each lane.
float pow(float x, float y) { return _mm256_cvtss_f32(Sleef_powf8_u10avx2(_mm256_set1_ps(x), _mm256_set1_ps(y))); }
double pow(double x, double y) { return _mm256_cvtsd_f64(Sleef_powd4_u10avx2(_mm256_set1_pd(x), _mm256_set1_pd(y))); }
// pow and hypot (Vectorized<T>::pow, ::hypot) of n elements (whole vectors only), x and y each a
// contiguous run (step 1) or one value (step 0).
static __m256 load_or_broadcast(const float* p, int64_t step, int64_t i) {
  return step ? _mm256_loadu_ps(p + i) : _mm256_set1_ps(*p);
}
static __m256d load_or_broadcast(const double* p, int64_t step, int64_t i) {
  return step ? _mm256_loadu_pd(p + i) : _mm256_set1_pd(*p);
}
#define IPT_SLEEF_BINARY_STEPS(name, fn_f, fn_d)                                                \
  void name(const float* x, int64_t sx, const float* y, int64_t sy, float* out, int64_t n) {    \
    for (int64_t i = 0; i + 8 <= n; i += 8)                                                     \
      store(out + i, fn_f(load_or_broadcast(x, sx, i), load_or_broadcast(y, sy, i)));           \
  }                                                                                             \
  void name(const double* x, int64_t sx, const double* y, int64_t sy, double* out, int64_t n) { \
    for (int64_t i = 0; i + 4 <= n; i += 4)                                                     \
      store(out + i, fn_d(load_or_broadcast(x, sx, i), load_or_broadcast(y, sy, i)));           \
  }
IPT_SLEEF_BINARY_STEPS(pow, Sleef_powf8_u10avx2, Sleef_powd4_u10avx2)
IPT_SLEEF_BINARY_STEPS(hypot, Sleef_hypotf8_u05avx2, Sleef_hypotd4_u05avx2)
#undef IPT_SLEEF_BINARY_STEPS
}  // namespace sleef_avx2

}  // namespace ipt::cpu
