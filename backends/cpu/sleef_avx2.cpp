// SLEEF's AVX2 functions on one lane (see vml.h). This file is compiled with -mavx2 -mfma, so
// it holds only these functions, which run after vml.h's has_avx2() said yes; it includes no
// project header (an inline function compiled here could be the one the linker keeps).
#include <immintrin.h>
#include <sleef.h>

namespace ipt::cpu {

namespace sleef_avx2 {
#define IPT_SLEEF_LANE(name)                                                                    \
  float name(float x) { return _mm256_cvtss_f32(Sleef_##name##f8_u10avx2(_mm256_set1_ps(x))); } \
  double name(double x) { return _mm256_cvtsd_f64(Sleef_##name##d4_u10avx2(_mm256_set1_pd(x))); }
IPT_SLEEF_LANE(exp)
IPT_SLEEF_LANE(log)
IPT_SLEEF_LANE(sin)
IPT_SLEEF_LANE(cos)
IPT_SLEEF_LANE(tan)
IPT_SLEEF_LANE(tanh)
#undef IPT_SLEEF_LANE
}  // namespace sleef_avx2

}  // namespace ipt::cpu
