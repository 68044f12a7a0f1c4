// Passes over a contiguous row with AVX2 vectors: its max or min (for max / min and softmax), and
// the lane-wise sum of exp(x - max) as PyTorch 2.15's vec_softmax_lastdim /
// vec_log_softmax_lastdim add it (Note [Softmax's order of operations] in softmax_kernels.cpp). Compiled with -mavx2, so it holds only these and includes no project
// header (see sleef_avx2.cpp); call it only after vml.h's has_avx2() said yes.
#include <immintrin.h>
#include <sleef.h>

#include <cmath>
#include <cstdint>

namespace ipt::cpu::rows_avx2 {

namespace {
__m256 load(const float* p) { return _mm256_loadu_ps(p); }
__m256d load(const double* p) { return _mm256_loadu_pd(p); }
void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
__m256 splat(float v) { return _mm256_set1_ps(v); }
__m256d splat(double v) { return _mm256_set1_pd(v); }
__m256 vmax(__m256 a, __m256 b) { return _mm256_max_ps(a, b); }
__m256d vmax(__m256d a, __m256d b) { return _mm256_max_pd(a, b); }
__m256 vmin(__m256 a, __m256 b) { return _mm256_min_ps(a, b); }
__m256d vmin(__m256d a, __m256d b) { return _mm256_min_pd(a, b); }
__m256 unordered(__m256 a) { return _mm256_cmp_ps(a, a, _CMP_UNORD_Q); }
__m256d unordered(__m256d a) { return _mm256_cmp_pd(a, a, _CMP_UNORD_Q); }
int any(__m256 m) { return _mm256_movemask_ps(m); }
int any(__m256d m) { return _mm256_movemask_pd(m); }
__m256 vor(__m256 a, __m256 b) { return _mm256_or_ps(a, b); }
__m256d vor(__m256d a, __m256d b) { return _mm256_or_pd(a, b); }
__m256 vsub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
__m256d vsub(__m256d a, __m256d b) { return _mm256_sub_pd(a, b); }
__m256 vadd(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
__m256d vadd(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
__m256 vexp(__m256 v) { return Sleef_expf8_u10avx2(v); }
__m256d vexp(__m256d v) { return Sleef_expd4_u10avx2(v); }
__m256 vdiv(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
__m256d vdiv(__m256d a, __m256d b) { return _mm256_div_pd(a, b); }
// vec::maximum: max(a, b), or all ones (a NaN) where either is NaN.
__m256 vec_maximum(__m256 a, __m256 b) { return _mm256_or_ps(_mm256_max_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q)); }
__m256d vec_maximum(__m256d a, __m256d b) {
  return _mm256_or_pd(_mm256_max_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q));
}
// a if a is NaN or a > b, else b
__m256 nan_max(__m256 a, __m256 b) {
  return _mm256_blendv_ps(b, a, _mm256_or_ps(unordered(a), _mm256_cmp_ps(a, b, _CMP_GT_OQ)));
}
__m256d nan_max(__m256d a, __m256d b) {
  return _mm256_blendv_pd(b, a, _mm256_or_pd(unordered(a), _mm256_cmp_pd(a, b, _CMP_GT_OQ)));
}

// The row's max (Max) or min; a NaN anywhere wins (the first one). Four vector accumulators
// while four vectors remain (as PyTorch's vectorized reductions unroll), so that the compares
// do not wait on one another; they meet before the rest of the row.
template <bool Max, typename T>
T extreme_run(const T* x, int64_t n) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T));
  const auto pick = [](auto v, auto acc) { return Max ? vmax(v, acc) : vmin(v, acc); };
  auto acc = load(x);
  auto nan = unordered(acc);
  int64_t k = W;
  if (n >= 4 * W) {
    auto acc1 = load(x + W), acc2 = load(x + 2 * W), acc3 = load(x + 3 * W);
    auto nan1 = unordered(acc1), nan2 = unordered(acc2), nan3 = unordered(acc3);
    for (k = 4 * W; k + 4 * W <= n; k += 4 * W) {
      const auto v0 = load(x + k), v1 = load(x + k + W), v2 = load(x + k + 2 * W), v3 = load(x + k + 3 * W);
      acc = pick(v0, acc), acc1 = pick(v1, acc1), acc2 = pick(v2, acc2), acc3 = pick(v3, acc3);
      nan = vor(nan, unordered(v0)), nan1 = vor(nan1, unordered(v1));
      nan2 = vor(nan2, unordered(v2)), nan3 = vor(nan3, unordered(v3));
    }
    acc = pick(pick(acc3, acc2), pick(acc1, acc));
    nan = vor(vor(nan, nan1), vor(nan2, nan3));
  }
  for (; k + W <= n; k += W) {
    const auto v = load(x + k);
    acc = pick(v, acc);
    nan = vor(nan, unordered(v));
  }
  alignas(32) T lanes[W];
  store(lanes, acc);
  T mx = lanes[0];
  for (int64_t l = 1; l < W; ++l) mx = (Max ? lanes[l] > mx : lanes[l] < mx) ? lanes[l] : mx;
  for (; k < n; ++k) {
    if (std::isnan(x[k])) return x[k];
    mx = (Max ? x[k] > mx : x[k] < mx) ? x[k] : mx;
  }
  if (any(nan))
    for (int64_t i = 0; i < n; ++i)
      if (std::isnan(x[i])) return x[i];
  return mx;
}

// Lane l adds exp(x[k] - mx) for k = l, l + W, ...; the last partial vector adds into its first
// lanes; then the lanes meet: float in a tree (i + (i ^ 4), then ^ 2, then ^ 1), double left to
// right.
template <typename T>
T exp_sum_run(const T* x, T mx, T* e, int64_t n) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T));
  const auto m = splat(mx);
  auto acc = vexp(vsub(load(x), m));
  if (e) store(e, acc);
  int64_t k = W;
  for (; k + W <= n; k += W) {
    const auto v = vexp(vsub(load(x + k), m));
    if (e) store(e + k, v);
    acc = vadd(acc, v);
  }
  alignas(32) T lanes[W];
  store(lanes, acc);
  if (k < n) {
    alignas(32) T buf[W] = {};
    for (int64_t l = 0; k + l < n; ++l) buf[l] = x[k + l];
    store(buf, vexp(vsub(load(buf), m)));
    for (int64_t l = 0; k + l < n; ++l) {
      if (e) e[k + l] = buf[l];
      lanes[l] += buf[l];
    }
  }
  if constexpr (sizeof(T) == 8) {
    T s = lanes[0];
    for (int64_t l = 1; l < W; ++l) s += lanes[l];
    return s;
  }
  for (int64_t half = W / 2; half >= 1; half /= 2) {
    T next[W];
    for (int64_t l = 0; l < W; ++l) next[l] = lanes[l] + lanes[l ^ half];
    for (int64_t l = 0; l < W; ++l) lanes[l] = next[l];
  }
  return lanes[0];
}

// A contiguous row's sum in PyTorch's cascade order (cascade_sum.h's inner_sum, whose comments
// give the order), for rows of 8 floats (4 doubles) up to 1024 vectors: there the cascade's
// steps of four vectors number under 256, so at most two of its four levels are used, and the
// eight vector accumulators stay in registers.
template <typename T>
T short_row_sum_run(const T* x, int64_t n) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T));
  using V = decltype(load(x));
  const int64_t vec_size = n / W;
  const int64_t steps = vec_size / 4;
  constexpr int64_t kStep = 16;  // 2^max(4, ceil(log2(steps)) / 4) for steps < 256
  const auto block = [&](V* a, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      for (int k = 0; k < 4; ++k) a[k] = vadd(a[k], load(x + (i * 4 + k) * W));
  };
  V lo[4] = {splat(T(0)), splat(T(0)), splat(T(0)), splat(T(0))};
  V hi[4] = {lo[0], lo[0], lo[0], lo[0]};
  int64_t i = 0;
  if (steps >= kStep) {
    for (; i + kStep <= steps; i += kStep) {
      block(lo, i, i + kStep);
      for (int k = 0; k < 4; ++k) {
        hi[k] = vadd(hi[k], lo[k]);
        lo[k] = splat(T(0));
      }
    }
    block(lo, i, steps);
    for (int k = 0; k < 4; ++k) lo[k] = vadd(lo[k], hi[k]);
  } else {
    block(lo, 0, steps);
  }
  for (int64_t v = steps * 4; v < vec_size; ++v) lo[0] = vadd(lo[0], load(x + v * W));
  T total = 0;
  for (int64_t k = vec_size * W; k < n; ++k) total += x[k];
  alignas(32) T lanes[W];
  store(lanes, vadd(vadd(vadd(lo[0], lo[1]), lo[2]), lo[3]));
  for (int64_t l = 0; l < W; ++l) total += lanes[l];
  return total;
}
// softmax_lanes (softmax_kernels.cpp) for nvec vectors of adjacent positions along a dim of len
// elements `stride` apart: per lane the max over the dim (vec::maximum's, or NaN-first), then
// e = exp(x - max) stored to y and summed in dim order; with divide, y = e / sum after.
template <typename T>
void dim_exp_sum_run(const T* x, T* y, int64_t len, int64_t stride, int64_t nvec, T* mx_out, T* sum_out, bool divide,
                     bool vec_max) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T));
  using V = decltype(load(x));
  V mx[2], sum[2];
  for (int64_t v = 0; v < nvec; ++v) {
    mx[v] = load(x + v * W);
    for (int64_t k = 1; k < len; ++k) {
      const V xk = load(x + k * stride + v * W);
      mx[v] = vec_max ? vec_maximum(mx[v], xk) : nan_max(mx[v], xk);
    }
    sum[v] = splat(T(0));
    for (int64_t k = 0; k < len; ++k) {
      const V e = vexp(vsub(load(x + k * stride + v * W), mx[v]));
      store(y + k * stride + v * W, e);
      sum[v] = vadd(sum[v], e);
    }
    if (divide)
      for (int64_t k = 0; k < len; ++k) store(y + k * stride + v * W, vdiv(load(y + k * stride + v * W), sum[v]));
    store(mx_out + v * W, mx[v]);
    store(sum_out + v * W, sum[v]);
  }
}

}  // namespace

float row_max(const float* x, int64_t n) { return extreme_run<true>(x, n); }
double row_max(const double* x, int64_t n) { return extreme_run<true>(x, n); }
float row_min(const float* x, int64_t n) { return extreme_run<false>(x, n); }
double row_min(const double* x, int64_t n) { return extreme_run<false>(x, n); }
float exp_sum(const float* x, float mx, float* e, int64_t n) { return exp_sum_run(x, mx, e, n); }
double exp_sum(const double* x, double mx, double* e, int64_t n) { return exp_sum_run(x, mx, e, n); }
float short_row_sum(const float* x, int64_t n) { return short_row_sum_run(x, n); }
double short_row_sum(const double* x, int64_t n) { return short_row_sum_run(x, n); }
void dim_exp_sum(const float* x, float* y, int64_t len, int64_t stride, int64_t nvec, float* mx, float* sum,
                 bool divide, bool vec_max) {
  dim_exp_sum_run(x, y, len, stride, nvec, mx, sum, divide, vec_max);
}
void dim_exp_sum(const double* x, double* y, int64_t len, int64_t stride, int64_t nvec, double* mx, double* sum,
                 bool divide, bool vec_max) {
  dim_exp_sum_run(x, y, len, stride, nvec, mx, sum, divide, vec_max);
}

}  // namespace ipt::cpu::rows_avx2
