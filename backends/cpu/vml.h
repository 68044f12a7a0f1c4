#pragma once
// The elementwise math of PyTorch's CPU kernels: exp, log, sin, cos, tan, tanh, asin, acos, atan,
// log2, log10, log1p, expm1 and erf of every element (sleef_functions.h) with SLEEF's 8-lane
// float / 4-lane double functions of 1.0-ULP accuracy (Sleef_expf8_u10 ...; "vml" in ATen), and
// atanh, sinh and cosh as PyTorch's cpu_kernel_vec computes them (Note [cpu_kernel_vec's tail]). Lanes are independent, so one element through a vector
// function gives the value it gets in a full vector. Without AVX2 these run the scalar fallback
// (std::exp ...). float16 and bfloat16 go through the float functions and are rounded, as
// PyTorch 2.15's Vectorized<Half> / Vectorized<BFloat16> do. The log operator's float values come
// from log_float.cpp instead (log_op, log_row; Note [float log]).
//
// Note [VML in PyTorch 2.15]
// PyTorch 2.15's PyPI build has MKL, and its ATen "vml" calls MKL's VML (vsExp / vdExp ... in
// high-accuracy mode) for float and double exp, log, sin, cos, tan and tanh instead of SLEEF.
// MKL's results are not SLEEF's in about one element in ten (each within an ulp, and they depend
// on the instruction set MKL picks at run time); this project has no MKL, so those float and
// double elements can differ from 2.15's in the last bit. The same holds for asin, acos, atan,
// log2, log10 and erf (MKL's vsAsin ... in 2.15). log1p and expm1 are SLEEF's there and here, bit
// for bit, atanh, sinh and cosh are Note [cpu_kernel_vec's tail]'s, and asinh and acosh glibc's
// (checked on 320,000 inputs of each dtype, and on runs whose length is no multiple of a vector,
// against 2.15).

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "backends/cpu/sleef_functions.h"

namespace ipt::cpu {

namespace sleef_avx2 {  // sleef_avx2.cpp, compiled for AVX2; call only when has_avx2()
// name(x): one element through the vector function; name(x, y, n): a contiguous run of n
// elements (y may be x).
#define IPT_SLEEF_DECL(name)                      \
  float name(float x);                            \
  double name(double x);                          \
  void name(const float* x, float* y, int64_t n); \
  void name(const double* x, double* y, int64_t n);
IPT_SLEEF_FUNCTIONS(IPT_SLEEF_DECL)
#undef IPT_SLEEF_DECL
float atan2(float y, float x);
double atan2(double y, double x);
// n a multiple of the vector width (8 floats, 4 doubles)
void atan2(const float* y, const float* x, float* out, int64_t n);
void atan2(const double* y, const double* x, double* out, int64_t n);
// fmod and Python's remainder of two runs, n a multiple of the vector width; out may be an input
void fmod(const float* x, const float* y, float* out, int64_t n);
void fmod(const double* x, const double* y, double* out, int64_t n);
void remainder(const float* x, const float* y, float* out, int64_t n);
void remainder(const double* x, const double* y, double* out, int64_t n);
float pow(float x, float y);
double pow(double x, double y);
// pow and hypot of n elements (a multiple of the vector width); x and y each a run (step 1) or
// one value (step 0)
void pow(const float* x, int64_t sx, const float* y, int64_t sy, float* out, int64_t n);
void pow(const double* x, int64_t sx, const double* y, int64_t sy, double* out, int64_t n);
void hypot(const float* x, int64_t sx, const float* y, int64_t sy, float* out, int64_t n);
void hypot(const double* x, int64_t sx, const double* y, int64_t sy, double* out, int64_t n);
}  // namespace sleef_avx2

namespace fma_avx2 {  // fma_avx2.cpp: out[i] = fma(alpha, y[i], x[i]) on contiguous runs
void add_alpha(float* out, const float* x, const float* y, float alpha, int64_t n);
void add_alpha(double* out, const double* x, const double* y, double alpha, int64_t n);
}  // namespace fma_avx2

// rows_avx2.cpp: a row's max or min (n >= 8 floats or 4 doubles), and the lane-wise sum of
// exp(x - max) (e, if not null, gets exp(x[k] - mx) for each k)
namespace rows_avx2 {
float row_max(const float* x, int64_t n);
double row_max(const double* x, int64_t n);
float row_min(const float* x, int64_t n);
double row_min(const double* x, int64_t n);
float exp_sum(const float* x, float mx, float* e, int64_t n);
double exp_sum(const double* x, double mx, double* e, int64_t n);
// a contiguous row's sum in the cascade order (cascade_sum.h), 8 <= n < 8192 floats or
// 4 <= n < 4096 doubles
float short_row_sum(const float* x, int64_t n);
double short_row_sum(const double* x, int64_t n);
// softmax along a dim other than the last, nvec (1 or 2) vectors of adjacent positions at once:
// per lane the max over the dim's len elements `stride` apart (into mx; vec_max: vec::maximum's,
// a NaN all ones, else the first NaN) and the sum (into sum) of e = exp(x - max), written to y;
// with divide, y = e / sum
void dim_exp_sum(const float* x, float* y, int64_t len, int64_t stride, int64_t nvec, float* mx, float* sum,
                 bool divide, bool vec_max);
void dim_exp_sum(const double* x, double* y, int64_t len, int64_t stride, int64_t nvec, double* mx, double* sum,
                 bool divide, bool vec_max);
}  // namespace rows_avx2

namespace log_float {                              // log_float.cpp: float log (Note [float log])
float scalar(float x);                             // any x86-64
float lane(float x);                               // call only when has_avx2()
void avx2(const float* x, float* y, int64_t n);    // call only when has_avx2(); y may be x
void avx512(const float* x, float* y, int64_t n);  // call only when has_avx512(); y may be x
const float* inverse_centres();                    // its table, for the 32 intervals of z: invc ...
const float* log_centres_high();                   // ... and log(1 / invc) as high ...
const float* log_centres_low();                    // ... and low parts
}  // namespace log_float

namespace sleef_avx512 {  // sleef_avx512.cpp: the functions whose AVX-512 results are the AVX2 ones
void exp(const float* x, float* y, int64_t n);
void exp(const double* x, double* y, int64_t n);
void log(const double* x, double* y, int64_t n);
void tanh(const float* x, float* y, int64_t n);
void tanh(const double* x, double* y, int64_t n);
void tan(const float* x, float* y, int64_t n);
#define IPT_SLEEF512_DECL(name)                   \
  void name(const float* x, float* y, int64_t n); \
  void name(const double* x, double* y, int64_t n);
IPT_SLEEF512_DECL(erf)
IPT_SLEEF512_DECL(asin)
IPT_SLEEF512_DECL(acos)
IPT_SLEEF512_DECL(atan)
IPT_SLEEF512_DECL(log1p)
IPT_SLEEF512_DECL(expm1)
IPT_SLEEF512_DECL(log2)
IPT_SLEEF512_DECL(log10)
#undef IPT_SLEEF512_DECL
}  // namespace sleef_avx512

// Whether this CPU has AVX2 and FMA (the capability PyTorch's kernels pick here). Defined here,
// in code compiled for any x86-64, never in sleef_avx2.cpp.
inline bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}

// Whether this CPU (and its OS) has AVX-512F: the vml rows then take 16 floats at a time.
inline bool has_avx512() {
  static const bool yes = has_avx2() && __builtin_cpu_supports("avx512f");
  return yes;
}

// Note [cpu_kernel_vec's tail]: how many leading elements of a contiguous run of n PyTorch's
// cpu_kernel_vec gives its vector function: whole chunks of two vectors (16 floats, 8 doubles, 32
// float16 / bfloat16); none of an integer run, and none without AVX2.
template <typename T>
int64_t vector_part(int64_t n) {
  constexpr int64_t chunk = std::is_same_v<T, double>  ? 8
                            : std::is_same_v<T, float> ? 16
                            : !std::is_arithmetic_v<T> ? 32
                                                       : 0;
  if constexpr (chunk == 0) return 0;
  else return has_avx2() ? n / chunk * chunk : 0;
}

// f of x (and of the other operands) in T; float16 and bfloat16 go through float, which glibc
// has functions of.
template <typename F, typename T, typename... U>
T through_float(F f, T x, U... more) {
  if constexpr (std::is_arithmetic_v<T>) return static_cast<T>(f(x, more...));
  else return static_cast<T>(f(static_cast<float>(x), static_cast<float>(more)...));
}

namespace vml {
#define IPT_VML_FUNCTION(name)                                             \
  template <typename T>                                                    \
  T name(T x) {                                                            \
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) { \
      if (has_avx2()) return sleef_avx2::name(x);                          \
    } else if constexpr (!std::is_arithmetic_v<T>) {                       \
      return static_cast<T>(name(static_cast<float>(x)));                  \
    }                                                                      \
    return static_cast<T>(std::name(x));                                   \
  }
IPT_SLEEF_FUNCTIONS(IPT_VML_FUNCTION)
#undef IPT_VML_FUNCTION

// The log operator's value: float by log_float.cpp (Note [float log]: 2.15 computes it with
// MKL), any other type as log above (2.15's MKL path is for float and double only; double keeps
// SLEEF, not timed against MKL). vml::log itself is Vectorized<T>::log, SLEEF, which 2.15's kernels
// that take a log inside them (log_softmax) use.
template <typename T>
T log_op(T x) {
  if constexpr (std::is_same_v<T, float>) return has_avx2() ? log_float::lane(x) : log_float::scalar(x);
  else return log(x);
}

// name##_row(x, y, n): the function on a contiguous run, a vector at a time where the CPU has AVX2,
// and for the functions whose AVX-512 results are the AVX2 ones (IPT_VML_ROW_WIDE: float, and
// double too where Double512) 16 floats or 8 doubles at a time on AVX-512.
#define IPT_VML_ROW(name)                                                  \
  template <typename T>                                                    \
  void name##_row(const T* x, T* y, int64_t n) {                           \
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) { \
      if (has_avx2()) return sleef_avx2::name(x, y, n);                    \
    }                                                                      \
    for (int64_t i = 0; i < n; ++i) y[i] = name(x[i]);                     \
  }
#define IPT_VML_ROW_WIDE(name, Double512)                                                                \
  template <typename T>                                                                                  \
  void name##_row(const T* x, T* y, int64_t n) {                                                         \
    if constexpr (std::is_same_v<T, float> || (Double512 && std::is_same_v<T, double>)) {                \
      if (n >= 64 / static_cast<int64_t>(sizeof(T)) && has_avx512()) return sleef_avx512::name(x, y, n); \
    }                                                                                                    \
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {                               \
      if (has_avx2()) return sleef_avx2::name(x, y, n);                                                  \
    }                                                                                                    \
    for (int64_t i = 0; i < n; ++i) y[i] = name(x[i]);                                                   \
  }
IPT_VML_ROW_WIDE(exp, true)
// log_row is the log operator's (log_op's values)
template <typename T>
void log_row(const T* x, T* y, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    if (n >= 16 && has_avx512()) return log_float::avx512(x, y, n);
    if (has_avx2()) return log_float::avx2(x, y, n);
  } else if constexpr (std::is_same_v<T, double>) {
    if (n >= 8 && has_avx512()) return sleef_avx512::log(x, y, n);
    if (has_avx2()) return sleef_avx2::log(x, y, n);
  }
  for (int64_t i = 0; i < n; ++i) y[i] = log_op(x[i]);
}
IPT_VML_ROW(sin)
IPT_VML_ROW(cos)
IPT_VML_ROW_WIDE(asin, true)
IPT_VML_ROW_WIDE(acos, true)
IPT_VML_ROW_WIDE(atan, true)
IPT_VML_ROW_WIDE(log2, true)
IPT_VML_ROW_WIDE(log10, true)
IPT_VML_ROW_WIDE(log1p, true)
IPT_VML_ROW_WIDE(expm1, true)
IPT_VML_ROW_WIDE(erf, true)
IPT_VML_ROW_WIDE(tan, false)
IPT_VML_ROW_WIDE(tanh, true)
#undef IPT_VML_ROW
#undef IPT_VML_ROW_WIDE

// Note [cpu_kernel_vec's tail]
// PyTorch 2.15's kernels written with cpu_kernel_vec (atanh, sinh, cosh) run a contiguous run's
// whole chunks of two vectors (16 floats, 8 doubles, 32 float16 / bfloat16 through float) through
// the vector function, SLEEF's, and the rest of the run, and every element of a strided one,
// through the scalar function, glibc's. Its float sinh and cosh have no vector function: glibc's
// for every element. name##_op is the scalar function; name##_vec_row a contiguous run.
#define IPT_VEC_KERNEL(name, float_vector)                                                                  \
  template <typename T>                                                                                     \
  T name##_op(T x) {                                                                                        \
    return through_float([](auto v) { return std::name(v); }, x);                                           \
  }                                                                                                         \
  template <typename T>                                                                                     \
  void name##_vec_row(const T* x, T* y, int64_t n) {                                                        \
    int64_t full = 0;                                                                                       \
    if constexpr (std::is_same_v<T, double> || float_vector) full = vector_part<T>(n);                      \
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {                                  \
      if (full) sleef_avx2::name(x, y, full);                                                               \
    } else {                                                                                                \
      for (int64_t i = 0; i < full; ++i) y[i] = static_cast<T>(sleef_avx2::name(static_cast<float>(x[i]))); \
    }                                                                                                       \
    for (int64_t i = full; i < n; ++i) y[i] = name##_op(x[i]);                                              \
  }
IPT_VEC_KERNEL(atanh, true)
IPT_VEC_KERNEL(sinh, false)
IPT_VEC_KERNEL(cosh, false)
#undef IPT_VEC_KERNEL
}  // namespace vml

}  // namespace ipt::cpu
