#pragma once
// A vector of AVX2 lanes for the activations' vector lambdas (activation_loops.h), as PyTorch's
// Vectorized<float> / Vectorized<double> serve its cpu_kernel_vec lambdas: an activation whose
// vec() is written once over its compute type C (the operators, C(number), select(), fmadd()
// and the sleef_* functions) runs it on 8 floats or 4 doubles at a time, each lane computing
// exactly what vec() computes on one element: the same IEEE operations in the same order, the
// multiply-adds it writes as fmadd() fused, and SLEEF's vector functions (whose lanes are
// independent, so one lane of them is cpu::vml's one-element value). Every function here is
// compiled for AVX2 and FMA: call them only from code compiled so, after has_avx2() said yes.
#include <immintrin.h>

#include <cmath>
#include <type_traits>

#include "backends/cpu/vml.h"

namespace ipt::native::activation {

#define IPT_AVX2 [[gnu::target("avx2,fma"), gnu::always_inline]] inline

// ---- the scalar forms (C = float or double): what vec() means on one element ----------------
template <typename C>
requires std::is_floating_point_v<C> C select(bool m, C a, C b) {
  return m ? a : b;
}
template <typename C>
requires std::is_floating_point_v<C> C fmadd(C a, C b, C c) {
  return std::fma(a, b, c);
}
template <typename C>
C sleef_exp(C x) {
  return cpu::vml::exp(x);
}
template <typename C>
C sleef_tanh(C x) {
  return cpu::vml::tanh(x);
}
template <typename C>
C sleef_expm1(C x) {
  return cpu::vml::expm1(x);
}
template <typename C>
C sleef_log1p(C x) {
  return cpu::vml::log1p(x);
}

// ---- the vectors ------------------------------------------------------------------------------
struct MaskF {
  __m256 m;
};
struct VecF {
  using Lane = float;
  static constexpr int kSize = 8;
  __m256 v;
  IPT_AVX2 VecF() : v(_mm256_setzero_ps()) {}
  IPT_AVX2 explicit VecF(__m256 x) : v(x) {}
  IPT_AVX2 VecF(double x) : v(_mm256_set1_ps(static_cast<float>(x))) {}
  IPT_AVX2 VecF(float x) : v(_mm256_set1_ps(x)) {}
  IPT_AVX2 VecF(int x) : v(_mm256_set1_ps(static_cast<float>(x))) {}
  IPT_AVX2 static VecF load(const float* p) { return VecF(_mm256_loadu_ps(p)); }
  IPT_AVX2 void store(float* p) const { _mm256_storeu_ps(p, v); }
};
struct MaskD {
  __m256d m;
};
struct VecD {
  using Lane = double;
  static constexpr int kSize = 4;
  __m256d v;
  IPT_AVX2 VecD() : v(_mm256_setzero_pd()) {}
  IPT_AVX2 explicit VecD(__m256d x) : v(x) {}
  IPT_AVX2 VecD(double x) : v(_mm256_set1_pd(x)) {}
  IPT_AVX2 VecD(int x) : v(_mm256_set1_pd(static_cast<double>(x))) {}
  IPT_AVX2 static VecD load(const double* p) { return VecD(_mm256_loadu_pd(p)); }
  IPT_AVX2 void store(double* p) const { _mm256_storeu_pd(p, v); }
};

// The vector of T's lanes (T float or double).
template <typename T>
using VecOf = std::conditional_t<std::is_same_v<T, float>, VecF, VecD>;

// The lane type of a compute type: float for float and VecF, double for double and VecD.
template <typename C>
struct LaneOf {
  using type = C;
};
template <>
struct LaneOf<VecF> {
  using type = float;
};
template <>
struct LaneOf<VecD> {
  using type = double;
};
template <typename C>
using Lane = typename LaneOf<C>::type;

#define IPT_VEC_BINARY(V, op, f)                                                \
  IPT_AVX2 V operator op(V a, V b) { return V(f(a.v, b.v)); }                   \
  IPT_AVX2 V operator op(V a, typename V::Lane b) { return V(f(a.v, V(b).v)); } \
  IPT_AVX2 V operator op(typename V::Lane a, V b) { return V(f(V(a).v, b.v)); }
IPT_VEC_BINARY(VecF, +, _mm256_add_ps)
IPT_VEC_BINARY(VecF, -, _mm256_sub_ps)
IPT_VEC_BINARY(VecF, *, _mm256_mul_ps)
IPT_VEC_BINARY(VecF, /, _mm256_div_ps)
IPT_VEC_BINARY(VecD, +, _mm256_add_pd)
IPT_VEC_BINARY(VecD, -, _mm256_sub_pd)
IPT_VEC_BINARY(VecD, *, _mm256_mul_pd)
IPT_VEC_BINARY(VecD, /, _mm256_div_pd)
#undef IPT_VEC_BINARY

IPT_AVX2 VecF operator-(VecF a) { return VecF(_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))); }
IPT_AVX2 VecD operator-(VecD a) { return VecD(_mm256_xor_pd(a.v, _mm256_set1_pd(-0.0))); }

// Comparisons as C++'s (false where either side is NaN; != true there).
#define IPT_VEC_COMPARE(V, M, cmp, suffix)                                 \
  IPT_AVX2 M operator>(V a, V b) { return M{cmp(a.v, b.v, _CMP_GT_OQ)}; }  \
  IPT_AVX2 M operator>=(V a, V b) { return M{cmp(a.v, b.v, _CMP_GE_OQ)}; } \
  IPT_AVX2 M operator<(V a, V b) { return M{cmp(a.v, b.v, _CMP_LT_OQ)}; }  \
  IPT_AVX2 M operator<=(V a, V b) { return M{cmp(a.v, b.v, _CMP_LE_OQ)}; } \
  IPT_AVX2 M operator!(M a) { return M{_mm256_xor_##suffix(a.m, _mm256_castsi256_##suffix(_mm256_set1_epi32(-1)))}; }
IPT_VEC_COMPARE(VecF, MaskF, _mm256_cmp_ps, ps)
IPT_VEC_COMPARE(VecD, MaskD, _mm256_cmp_pd, pd)
#undef IPT_VEC_COMPARE

IPT_AVX2 VecF vabs(VecF a) { return VecF(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.v)); }
IPT_AVX2 VecD vabs(VecD a) { return VecD(_mm256_andnot_pd(_mm256_set1_pd(-0.0), a.v)); }
IPT_AVX2 VecF select(MaskF m, VecF a, VecF b) { return VecF(_mm256_blendv_ps(b.v, a.v, m.m)); }
IPT_AVX2 VecD select(MaskD m, VecD a, VecD b) { return VecD(_mm256_blendv_pd(b.v, a.v, m.m)); }
IPT_AVX2 VecF fmadd(VecF a, VecF b, VecF c) { return VecF(_mm256_fmadd_ps(a.v, b.v, c.v)); }
IPT_AVX2 VecD fmadd(VecD a, VecD b, VecD c) { return VecD(_mm256_fmadd_pd(a.v, b.v, c.v)); }

// SLEEF's AVX2 functions (sleef.h declares them only where the whole file is compiled for AVX),
// declared with their callers' target, so that their 256-bit arguments pass in registers (clang
// refuses the call otherwise).
extern "C" {
#define IPT_VEC_SLEEF_DECL(name)                                         \
  [[gnu::target("avx2,fma")]] __m256 Sleef_##name##f8_u10avx2(__m256 x); \
  [[gnu::target("avx2,fma")]] __m256d Sleef_##name##d4_u10avx2(__m256d x);
IPT_VEC_SLEEF_DECL(exp)
IPT_VEC_SLEEF_DECL(tanh)
IPT_VEC_SLEEF_DECL(expm1)
IPT_VEC_SLEEF_DECL(log1p)
#undef IPT_VEC_SLEEF_DECL
}

#define IPT_VEC_SLEEF(name)                                                          \
  IPT_AVX2 VecF sleef_##name(VecF x) { return VecF(Sleef_##name##f8_u10avx2(x.v)); } \
  IPT_AVX2 VecD sleef_##name(VecD x) { return VecD(Sleef_##name##d4_u10avx2(x.v)); }
IPT_VEC_SLEEF(exp)
IPT_VEC_SLEEF(tanh)
IPT_VEC_SLEEF(expm1)
IPT_VEC_SLEEF(log1p)
#undef IPT_VEC_SLEEF

#undef IPT_AVX2

// Whether an activation's vec() is written for the vectors too (it declares `lanes = true`). Such
// a vec() is compiled for AVX2 and FMA (IPT_VEC_LANES), as everything it calls with a vector must
// be; it runs only where the CPU has them (cpu::vector_part is 0 elsewhere), and its float and
// double forms compute the same values as without AVX2 (nothing is contracted).
#define IPT_VEC_LANES [[gnu::target("avx2,fma")]]
template <typename Fn>
constexpr bool has_vector_lanes() {
  if constexpr (requires { Fn::lanes; }) return Fn::lanes;
  else return false;
}

}  // namespace ipt::native::activation
