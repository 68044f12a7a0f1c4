// SLEEF's AVX-512 functions on contiguous runs, for the functions whose 16-lane float (8-lane
// double) results are the AVX2 8-lane (4-lane) results bit for bit: exp, tanh, erf, asin, acos,
// atan, log1p and expm1 (float and double) and tan (float), checked by
// tests/runtime/vector_isa_test.cpp. Double log's, and log2's and log10's, differ only in the sign
// of the NaN they give for a negative or NaN input, so a vector holding one takes the AVX2
// function (sleef_avx2.cpp) instead. sin and cos (float) differ in the last bit for some inputs
// (sin(32.891186)), so they stay on AVX2. Compiled with
// -mavx512f, so it holds only these and includes no project header (see sleef_avx2.cpp); call
// it only when vml.h's has_avx512() said yes.
#include <immintrin.h>
#include <sleef.h>

#include <cstdint>
#include <cstring>

namespace ipt::cpu {

namespace sleef_avx2 {  // sleef_avx2.cpp
void log(const double* x, double* y, int64_t n);
void log2(const float* x, float* y, int64_t n);
void log2(const double* x, double* y, int64_t n);
void log10(const float* x, float* y, int64_t n);
void log10(const double* x, double* y, int64_t n);
}  // namespace sleef_avx2

namespace sleef_avx512 {

namespace {
__m512 load(const float* p) { return _mm512_loadu_ps(p); }
void store(float* p, __m512 v) { _mm512_storeu_ps(p, v); }
__m512d load(const double* p) { return _mm512_loadu_pd(p); }
void store(double* p, __m512d v) { _mm512_storeu_pd(p, v); }

// A contiguous run, a vector at a time; the last partial vector goes through a padded copy.
template <typename T, int W, typename F>
void run_array(const T* x, T* y, int64_t n, F f) {
  int64_t i = 0;
  for (; i + W <= n; i += W) store(y + i, f(load(x + i)));
  if (i < n) {
    alignas(64) T buf[W] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(T));
    store(buf, f(load(buf)));
    std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(T));
  }
}
}  // namespace

#define IPT_SLEEF512_FLOAT(name)                                                             \
  void name(const float* x, float* y, int64_t n) {                                           \
    run_array<float, 16>(x, y, n, [](__m512 v) { return Sleef_##name##f16_u10avx512f(v); }); \
  }
#define IPT_SLEEF512_DOUBLE(name)                                                            \
  void name(const double* x, double* y, int64_t n) {                                         \
    run_array<double, 8>(x, y, n, [](__m512d v) { return Sleef_##name##d8_u10avx512f(v); }); \
  }
IPT_SLEEF512_FLOAT(exp)
IPT_SLEEF512_DOUBLE(exp)
IPT_SLEEF512_FLOAT(tanh)
IPT_SLEEF512_DOUBLE(tanh)
IPT_SLEEF512_FLOAT(tan)
IPT_SLEEF512_FLOAT(erf)
IPT_SLEEF512_DOUBLE(erf)
IPT_SLEEF512_FLOAT(asin)
IPT_SLEEF512_DOUBLE(asin)
IPT_SLEEF512_FLOAT(acos)
IPT_SLEEF512_DOUBLE(acos)
IPT_SLEEF512_FLOAT(atan)
IPT_SLEEF512_DOUBLE(atan)
IPT_SLEEF512_FLOAT(log1p)
IPT_SLEEF512_DOUBLE(log1p)
IPT_SLEEF512_FLOAT(expm1)
IPT_SLEEF512_DOUBLE(expm1)
#undef IPT_SLEEF512_FLOAT
#undef IPT_SLEEF512_DOUBLE

// log (double; float's is log_float.cpp), log2 and log10: each full vector whose inputs are all
// >= 0 on AVX-512, any other on AVX2 (their NaNs differ in sign).
#define IPT_SLEEF512_NONNEGATIVE(name)                                      \
  void name(const float* x, float* y, int64_t n) {                          \
    int64_t i = 0;                                                          \
    for (; i + 16 <= n; i += 16) {                                          \
      const __m512 v = load(x + i);                                         \
      if (_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_GE_OQ) == 0xffff) \
        store(y + i, Sleef_##name##f16_u10avx512f(v));                      \
      else sleef_avx2::name(x + i, y + i, 16);                              \
    }                                                                       \
    if (i < n) sleef_avx2::name(x + i, y + i, n - i);                       \
  }
#define IPT_SLEEF512_NONNEGATIVE_DOUBLE(name)                             \
  void name(const double* x, double* y, int64_t n) {                      \
    int64_t i = 0;                                                        \
    for (; i + 8 <= n; i += 8) {                                          \
      const __m512d v = load(x + i);                                      \
      if (_mm512_cmp_pd_mask(v, _mm512_setzero_pd(), _CMP_GE_OQ) == 0xff) \
        store(y + i, Sleef_##name##d8_u10avx512f(v));                     \
      else sleef_avx2::name(x + i, y + i, 8);                             \
    }                                                                     \
    if (i < n) sleef_avx2::name(x + i, y + i, n - i);                     \
  }
IPT_SLEEF512_NONNEGATIVE_DOUBLE(log)
IPT_SLEEF512_NONNEGATIVE(log2)
IPT_SLEEF512_NONNEGATIVE_DOUBLE(log2)
IPT_SLEEF512_NONNEGATIVE(log10)
IPT_SLEEF512_NONNEGATIVE_DOUBLE(log10)
#undef IPT_SLEEF512_NONNEGATIVE
#undef IPT_SLEEF512_NONNEGATIVE_DOUBLE

}  // namespace sleef_avx512

}  // namespace ipt::cpu
