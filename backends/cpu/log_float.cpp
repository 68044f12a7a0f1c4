// The natural log of float32, within an ulp of log and the correctly rounded float for all but
// about one input in 400,000 (56 of the 21M swept by the test), in float arithmetic from a
// 32-entry table: the same operations one element at a time, 8 at a time (AVX2 + FMA) and 16 at
// a time (AVX-512F), so every path gives the same bits.
//
// Note [float log]
// PyTorch 2.15's PyPI build computes float log with MKL's vsLn (Note [VML in PyTorch 2.15] in
// vml.h), whose values this project cannot reproduce bit for bit; measured on 4M floats in
// [0.5, 2), 7% of MKL's values are not the correctly rounded ones. SLEEF's 1-ULP logf, which
// this project used before, works in float-float arithmetic and ran 1.5x slower than MKL here
// (as did the same table method in double: its conversions and 8-lane vectors cost as much).
// This one splits x = 2^k * z with z in [0.699, 1.398) by its bits (bits(x) - kOffset: k above
// bit 23, z's interval in bits 18..22) and looks up three floats for the interval:
//   - invc, a short (at most 13-bit) float near 1/c, c the interval's centre (exactly 1 for the
//     interval around z = 1), chosen so that r = z * invc - 1 is exact in one float FMA for
//     every z of the interval (|r| < 0.024);
//   - log(1/invc) as hi + lo: hi a multiple of 2^-16, so that k * ln2_hi + hi is exact in float
//     (ln2_hi is ln2 to 16 bits, |k| < 2^8).
// Then log(x) = A + r + (B + r^2 * p(r)) with A = k*ln2_hi + hi (exact), B = k*ln2_lo + lo, and
// p log1p's Taylor series from r^2 to r^5 (the r^6 term is under 3e-11). A + r is summed with its
// rounding error kept (|A| >= |r| wherever A is not 0), so the one rounding that matters is the
// last; the rest is under 0.03 ulp. Zeros, negatives, infinities, NaNs and denormals take the
// one-element path. The table's properties are checked by tests/runtime/vector_isa_test.cpp,
// which also counts the results that are not correctly rounded.
// GCC 12 warns that the AVX-512 intrinsics' own _mm512_undefined_* operands may be used
// uninitialized when they are inlined into a function with a target attribute (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ipt::cpu::log_float {

namespace {

constexpr int32_t kOffset = 0x3f330000;  // bits(0.69921875f)
alignas(64) constexpr float kInvC[32] = {
    0x1.68p+0f, 0x1.6p+0f,  0x1.5cp+0f, 0x1.54p+0f, 0x1.4cp+0f, 0x1.48p+0f, 0x1.4p+0f,  0x1.38p+0f,
    0x1.34p+0f, 0x1.3p+0f,  0x1.28p+0f, 0x1.24p+0f, 0x1.2p+0f,  0x1.18p+0f, 0x1.14p+0f, 0x1.1p+0f,
    0x1.0cp+0f, 0x1.08p+0f, 0x1.04p+0f, 0x1p+0f,    0x1.fp-1f,  0x1.ep-1f,  0x1.dp-1f,  0x1.c4p-1f,
    0x1.b8p-1f, 0x1.acp-1f, 0x1.ap-1f,  0x1.98p-1f, 0x1.8cp-1f, 0x1.84p-1f, 0x1.7cp-1f, 0x1.7p-1f,
};
alignas(64) constexpr float kLogCHi[32] = {
    -0x1.5d1cp-2f, -0x1.4618p-2f, -0x1.3a64p-2f, -0x1.2294p-2f, -0x1.0a34p-2f, -0x1.fb9p-3f, -0x1.c9p-3f,
    -0x1.9528p-3f, -0x1.7ab8p-3f, -0x1.5ffp-3f,  -0x1.2958p-3f, -0x1.0d78p-3f, -0x1.e27p-4f, -0x1.6f1p-4f,
    -0x1.342p-4f,  -0x1.f0ap-5f,  -0x1.774p-5f,  -0x1.f84p-6f,  -0x1.fcp-7f,   0.0f,         0x1.042p-5f,
    0x1.086p-4f,   0x1.933p-4f,   0x1.fe9p-4f,   0x1.366p-3f,   0x1.6fp-3f,    0x1.a94p-3f,  0x1.d1p-3f,
    0x1.0714p-2f,  0x1.1bf8p-2f,  0x1.315p-2f,   0x1.522cp-2f,
};
alignas(64) constexpr float kLogCLo[32] = {
    0x1.2053fcp-21f,  -0x1.78438cp-19f, -0x1.8aad28p-19f, -0x1.fbcf7ap-22f, 0x1.b1d8c6p-18f,
    -0x1.86d5e4p-19f, 0x1.070cacp-20f,  0x1.2b185ep-18f,  -0x1.20421cp-20f, -0x1.83853cp-18f,
    0x1.683fp-18f,    0x1.832f72p-23f,  -0x1.db8abcp-22f, 0x1.6ba8d4p-19f,  0x1.434f22p-19f,
    -0x1.86008cp-20f, -0x1.63d8ccp-19f, 0x1.64f188p-18f,  -0x1.5161f8p-20f, 0.0f,
    -0x1.44ec32p-18f, -0x1.9d2988p-18f, 0x1.797566p-18f,  -0x1.bb189p-18f,  -0x1.a7f538p-22f,
    0x1.28b756p-19f,  -0x1.2c3752p-19f, 0x1.bf932ap-18f,  -0x1.e7ecaap-20f, 0x1.9635a6p-18f,
    -0x1.c3c594p-19f, -0x1.1f8c76p-18f,
};
constexpr float kLn2Hi = 0x1.62e4p-1f, kLn2Lo = 0x1.7f7d1cp-20f;
constexpr float kC5 = 1.0f / 5, kC4 = -1.0f / 4, kC3 = 1.0f / 3, kC2 = -1.0f / 2;

// Whether bits(x) is a positive normal finite float (the table's domain).
inline bool normal_positive(int32_t ix) { return static_cast<uint32_t>(ix) - 0x00800000u < 0x7f000000u; }

// The arithmetic of every path (Note [float log]), one function per vector type V (float, 8 or 16
// floats), with that type's fused multiply-add FMA and broadcast SPLAT; + - * are lane-wise.
#define IPT_LOG_FROM_PARTS(ATTRIBUTE, V, FMA, SPLAT)            \
  ATTRIBUTE inline V from_parts(V z, V k, V invc, V hi, V lo) { \
    const V r = FMA(z, invc, SPLAT(-1.0f));                     \
    const V a = FMA(k, SPLAT(kLn2Hi), hi);                      \
    const V b = FMA(k, SPLAT(kLn2Lo), lo);                      \
    const V r2 = r * r;                                         \
    V p = FMA(r, SPLAT(kC5), SPLAT(kC4));                       \
    p = FMA(p, r, SPLAT(kC3));                                  \
    p = FMA(p, r, SPLAT(kC2));                                  \
    const V q = FMA(p, r2, b);                                  \
    const V s = a + r;                                          \
    const V err = r - (s - a);                                  \
    return s + (err + q);                                       \
  }
IPT_LOG_FROM_PARTS([[gnu::always_inline]], float, __builtin_fmaf, float)
IPT_LOG_FROM_PARTS([[gnu::target("avx2,fma")]], __m256, _mm256_fmadd_ps, _mm256_set1_ps)
IPT_LOG_FROM_PARTS([[gnu::target("avx512f")]], __m512, _mm512_fmadd_ps, _mm512_set1_ps)
#undef IPT_LOG_FROM_PARTS

[[gnu::always_inline]] inline float one(float x) {
  int32_t ix;
  std::memcpy(&ix, &x, sizeof ix);
  int32_t k_extra = 0;
  if (!normal_positive(ix)) {
    if (std::isnan(x)) return x + x;
    if (x == 0.0f) return -std::numeric_limits<float>::infinity();
    if (x < 0.0f) return std::numeric_limits<float>::quiet_NaN();
    if (std::isinf(x)) return x;
    x *= 0x1p23f;  // a denormal: log(x) = log(x * 2^23) - 23 * ln2
    std::memcpy(&ix, &x, sizeof ix);
    k_extra = -23;
  }
  const int32_t t = ix - kOffset;
  const int i = (t >> 18) & 31;
  const int32_t iz = ix - static_cast<int32_t>(static_cast<uint32_t>(t) & 0xff800000u);
  float z;
  std::memcpy(&z, &iz, sizeof z);
  return from_parts(z, static_cast<float>((t >> 23) + k_extra), kInvC[i], kLogCHi[i], kLogCLo[i]);
}

[[gnu::target("avx2,fma")]] float one_fma(float x) { return one(x); }

[[gnu::target("avx2,fma")]] void vector8(const float* x, float* y) {
  const __m256i ix = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x));
  const __m256i shifted = _mm256_sub_epi32(ix, _mm256_set1_epi32(0x00800000));
  const __m256i in_range = _mm256_andnot_si256(_mm256_srai_epi32(shifted, 31),  // shifted >= 0 ...
                                               _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7f000000), shifted));
  if (_mm256_movemask_ps(_mm256_castsi256_ps(in_range)) != 0xff) {
    for (int j = 0; j < 8; ++j) y[j] = one_fma(x[j]);
    return;
  }
  const __m256i t = _mm256_sub_epi32(ix, _mm256_set1_epi32(kOffset));
  const __m256i i = _mm256_and_si256(_mm256_srli_epi32(t, 18), _mm256_set1_epi32(31));
  const __m256 k = _mm256_cvtepi32_ps(_mm256_srai_epi32(t, 23));
  const __m256 z = _mm256_castsi256_ps(
      _mm256_sub_epi32(ix, _mm256_and_si256(t, _mm256_set1_epi32(static_cast<int32_t>(0xff800000)))));
  const __m256 invc = _mm256_i32gather_ps(kInvC, i, 4);
  const __m256 hi = _mm256_i32gather_ps(kLogCHi, i, 4);
  const __m256 lo = _mm256_i32gather_ps(kLogCLo, i, 4);
  _mm256_storeu_ps(y, from_parts(z, k, invc, hi, lo));
}

[[gnu::target("avx512f")]] void run16(const float* x, float* y, int64_t n) {
  const __m512 invc_lo = _mm512_load_ps(kInvC), invc_hi = _mm512_load_ps(kInvC + 16);
  const __m512 hi_lo = _mm512_load_ps(kLogCHi), hi_hi = _mm512_load_ps(kLogCHi + 16);
  const __m512 lo_lo = _mm512_load_ps(kLogCLo), lo_hi = _mm512_load_ps(kLogCLo + 16);
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m512i ix = _mm512_loadu_si512(x + j);
    const __mmask16 in_range =
        _mm512_cmplt_epu32_mask(_mm512_sub_epi32(ix, _mm512_set1_epi32(0x00800000)), _mm512_set1_epi32(0x7f000000));
    if (in_range != 0xffff) {
      for (int l = 0; l < 16; ++l) y[j + l] = one_fma(x[j + l]);
      continue;
    }
    const __m512i t = _mm512_sub_epi32(ix, _mm512_set1_epi32(kOffset));
    const __m512i i = _mm512_srli_epi32(t, 18);  // the permutes read its low 5 bits
    const __m512 k = _mm512_cvtepi32_ps(_mm512_srai_epi32(t, 23));
    const __m512 z = _mm512_castsi512_ps(
        _mm512_sub_epi32(ix, _mm512_and_si512(t, _mm512_set1_epi32(static_cast<int32_t>(0xff800000)))));
    const __m512 invc = _mm512_permutex2var_ps(invc_lo, i, invc_hi);
    const __m512 hi = _mm512_permutex2var_ps(hi_lo, i, hi_hi);
    const __m512 lo = _mm512_permutex2var_ps(lo_lo, i, lo_hi);
    _mm512_storeu_ps(y + j, from_parts(z, k, invc, hi, lo));
  }
  for (; j < n; ++j) y[j] = one_fma(x[j]);
}

}  // namespace

float scalar(float x) { return one(x); }

float lane(float x) { return one_fma(x); }

void avx2(const float* x, float* y, int64_t n) {
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) vector8(x + j, y + j);
  for (; j < n; ++j) y[j] = one_fma(x[j]);
}

void avx512(const float* x, float* y, int64_t n) { run16(x, y, n); }

const float* inverse_centres() { return kInvC; }
const float* log_centres_high() { return kLogCHi; }
const float* log_centres_low() { return kLogCLo; }

}  // namespace ipt::cpu::log_float
