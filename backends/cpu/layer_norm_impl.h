#pragma once
// The arithmetic of PyTorch 2.15's CPU layer norm and group norm statistics (layer_norm_kernel.cpp,
// group_norm_kernel.cpp, moments_utils.h), operation for operation: Note [Layer norm's bits].
// Included by layer_norm_avx2.cpp (compiled for AVX2 and FMA, where std::fma is one instruction)
// and norm_kernels.cpp (any x86-64, the fallback, where it is a call); both compile with
// -ffp-contract=off, so every std::fma here is one fused multiply-add and every other operation
// rounds on its own, on either.
//
// Note [Layer norm's bits]
// PyTorch's wheel is built with the compiler free to fuse a * b + c, and it fused some of them:
// which ones were read off its AVX2 machine code. L is the vector's lanes (8 floats, 4 doubles).
//   Moments (RowwiseMoments): Welford over whole L-lane vectors in chunks of 16, each chunk's
//     moments merged into a binary cascade of partial moments; the elements after the last
//     whole vector by a plain Welford; then the L lanes folded into that one by one.
//   Forward: rstd = 1 / sqrt(var + eps) (no clamp at 0); y = fma((x - mean) * rstd, gamma, beta),
//     with the other three forms when weight or bias is absent.
//   Backward: per row, ds = sum dy * x * gamma and db = sum dy * gamma as vec::map_reduce_all sums
//     them (lane-wise, then the lanes in the order of AVX2's horizontal add); then dx from two
//     coefficients. dgamma and dbeta are summed per thread, and the threads' partial sums added
//     in thread order, so their bits depend on the thread count, as PyTorch's do.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

// The namespace is the including file's choice (IPT_LAYER_NORM_MATH): layer_norm_avx2.cpp compiles
// these templates for AVX2 and FMA under a name of its own, so that the linker never takes its
// instantiation for the portable one, or the other way round.
#ifndef IPT_LAYER_NORM_MATH
#define IPT_LAYER_NORM_MATH layer_norm_math
#endif
namespace ipt::native::IPT_LAYER_NORM_MATH {

template <typename T>
constexpr int kLanes = sizeof(T) == 4 ? 8 : 4;

// One level of the cascade: a count and L lanes of mean and M2.
template <typename T>
struct Moments {  // trivial: Moments<T>() is all zeros, a plain declaration is left unset
  int64_t n;
  T m1[kLanes<T>];
  T m2[kLanes<T>];
};

// Welford's coefficients 1 / (j + 1) for a chunk's 16 vectors, worked out once (as PyTorch's
// static c_vecs), not per row: each is the correctly rounded quotient either way.
template <typename T>
struct ChunkCoefficients {
  T c[16];
  constexpr ChunkCoefficients() : c() {
    for (int j = 0; j < 16; ++j) c[j] = T(1) / T(j + 1);
  }
};
template <typename T>
inline constexpr ChunkCoefficients<T> kChunkCoefficients{};

// AddMomentsVec: (na, a) merged into m.
template <typename T>
inline void add_moments(int64_t na, const T* m1a, const T* m2a, Moments<T>& m) {
  const int64_t nn = m.n + na;
  const T c = nn == 0 ? T(0) : T(na) / T(nn);
  for (int l = 0; l < kLanes<T>; ++l) {
    const T d = m1a[l] - m.m1[l];
    const T t = m.m2[l] + m2a[l];
    const T cd = c * d;
    const T m0d = d * T(m.n);
    m.m1[l] = m.m1[l] + cd;
    m.m2[l] = std::fma(m0d, cd, t);
  }
  m.n = nn;
}

// Welford over `cnt` whole vectors from x, lane by lane, c[j] = 1 / (j + 1): the chunk's L lanes
// of mean and M2.
template <typename T>
inline void welford_chunk(const T* x, int64_t cnt, const T* c, T* m1, T* m2) {
  constexpr int L = kLanes<T>;
  for (int64_t j = 0; j < cnt; ++j) {
    const T* v = x + j * L;
    for (int l = 0; l < L; ++l) {
      const T d = v[l] - m1[l];
      m1[l] = std::fma(c[j], d, m1[l]);
      m2[l] = std::fma(d, v[l] - m1[l], m2[l]);
    }
  }
}

#if defined(__AVX2__) && defined(__FMA__)
// The cascade of whole vectors with every level in vector registers (the portable form below keeps
// them in memory, lane by lane): the same operations lane for lane, so the same bits.
template <typename T>
struct AvxLanes;
template <>
struct AvxLanes<float> {
  using V = __m256;
  static V zero() { return _mm256_setzero_ps(); }
  static V set1(float v) { return _mm256_set1_ps(v); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
};
template <>
struct AvxLanes<double> {
  using V = __m256d;
  static V zero() { return _mm256_setzero_pd(); }
  static V set1(double v) { return _mm256_set1_pd(v); }
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
};

// The cascade over the n whole vectors of x, merged into one level: `out`.
template <typename T>
inline void vector_cascade(const T* x, int64_t n, Moments<T>& out) {
  using A = AvxLanes<T>;
  using V = typename A::V;
  constexpr int L = kLanes<T>;
  constexpr int64_t kChunk = 16;
  const int64_t m = (n + kChunk - 1) / kChunk;
  const int depth = m <= 2 ? 1 : static_cast<int>(std::bit_width(static_cast<uint64_t>(m - 1)));
  int64_t sn[64];
  V s1[64], s2[64];
  for (int k = 0; k < depth; ++k) sn[k] = 0, s1[k] = A::zero(), s2[k] = A::zero();
  auto merge = [&](int64_t na, V a1, V a2, int k) {  // add_moments, a vector at a time
    const int64_t nn = sn[k] + na;
    const V c = A::set1(nn == 0 ? T(0) : T(na) / T(nn));
    const V d = A::sub(a1, s1[k]);
    const V t = A::add(s2[k], a2);
    const V cd = A::mul(c, d);
    const V m0d = A::mul(d, A::set1(T(sn[k])));
    s1[k] = A::add(s1[k], cd);
    s2[k] = A::fmadd(m0d, cd, t);
    sn[k] = nn;
  };
  // Chunk i's moments into the cascade: level 0, then each level that is full into the next.
  auto push = [&](int64_t i, int64_t cnt, V a, V b) {
    merge(cnt, a, b, 0);
    int64_t mask = i + 1;
    for (int j = 1; j < depth && (mask & 1) == 0; ++j) {
      merge(sn[j - 1], s1[j - 1], s2[j - 1], j);
      sn[j - 1] = 0, s1[j - 1] = A::zero(), s2[j - 1] = A::zero();
      mask >>= 1;
    }
  };
  const T* c = kChunkCoefficients<T>.c;
  int64_t i = 0;
  // Two whole chunks at a time: their Welford chains are independent, and interleaved they keep
  // the FMA units busy through each chain's latency.
  for (; i + 2 <= n / kChunk; i += 2) {
    const T* v = x + kChunk * i * L;
    V a0 = A::zero(), b0 = A::zero(), a1 = A::zero(), b1 = A::zero();
    for (int64_t j = 0; j < kChunk; ++j) {
      const V x0 = A::load(v + j * L), x1 = A::load(v + (kChunk + j) * L);
      const V cj = A::set1(c[j]);
      const V d0 = A::sub(x0, a0), d1 = A::sub(x1, a1);
      a0 = A::fmadd(cj, d0, a0);
      a1 = A::fmadd(cj, d1, a1);
      b0 = A::fmadd(d0, A::sub(x0, a0), b0);
      b1 = A::fmadd(d1, A::sub(x1, a1), b1);
    }
    push(i, kChunk, a0, b0);
    push(i + 1, kChunk, a1, b1);
  }
  for (; i < m; ++i) {
    const int64_t cnt = std::min(kChunk, n - kChunk * i);
    const T* v = x + kChunk * i * L;
    V a = A::zero(), b = A::zero();
    for (int64_t j = 0; j < cnt; ++j) {
      const V xv = A::load(v + j * L);
      const V d = A::sub(xv, a);
      a = A::fmadd(A::set1(c[j]), d, a);
      b = A::fmadd(d, A::sub(xv, a), b);
    }
    push(i, cnt, a, b);
  }
  for (int k = 1; k < depth; ++k) merge(sn[k], s1[k], s2[k], 0);
  out.n = sn[0];
  A::store(out.m1, s1[0]);
  A::store(out.m2, s2[0]);
}
#endif

// The cascade over the n whole vectors of x, merged into one level: `out`, lane by lane. GCC
// cannot see that only the first `depth` levels of the cascade, the ones zeroed, are ever read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
template <typename T>
inline void lane_cascade(const T* x, int64_t n, Moments<T>& out) {
  constexpr int L = kLanes<T>;
  constexpr int64_t kChunk = 16;
  const int64_t m = (n + kChunk - 1) / kChunk;
  const int depth = m <= 2 ? 1 : static_cast<int>(std::bit_width(static_cast<uint64_t>(m - 1)));
  // Only the cascade's `depth` levels are used: zeroing those, not all 64, saves a 4.5 KB
  // memset per row (a third of a 768-wide row's time).
  Moments<T> stack[64];
  for (int k = 0; k < depth; ++k) stack[k] = Moments<T>();
  const T* c = kChunkCoefficients<T>.c;
  for (int64_t i = 0; i < m; ++i) {
    const int64_t cnt = std::min(kChunk, n - kChunk * i);
    T m1[L] = {}, m2[L] = {};
    welford_chunk(x + kChunk * i * L, cnt, c, m1, m2);
    add_moments(cnt, m1, m2, stack[0]);
    int64_t mask = i + 1;
    for (int j = 1; j < depth && (mask & 1) == 0; ++j) {
      add_moments(stack[j - 1].n, stack[j - 1].m1, stack[j - 1].m2, stack[j]);
      stack[j - 1] = Moments<T>();
      mask >>= 1;
    }
  }
  for (int k = 1; k < depth; ++k) add_moments(stack[k].n, stack[k].m1, stack[k].m2, stack[0]);
  out = stack[0];
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// The mean and the biased variance of x[0..N).
template <typename T>
inline void rowwise_moments(const T* x, int64_t N, T& mean, T& var) {
  constexpr int L = kLanes<T>;
  const int64_t n = N / L;
  Moments<T> top;
#if defined(__AVX2__) && defined(__FMA__)
  vector_cascade(x, n, top);
#else
  lane_cascade(x, n, top);
#endif
  int64_t m0 = 0;
  T mu = 0, m2 = 0;
  for (int64_t i = n * L; i < N; ++i) {
    const T d = x[i] - mu;
    ++m0;
    mu = mu + d / T(m0);
    m2 = m2 + d * (x[i] - mu);
  }
  for (int l = 0; l < L; ++l) {
    const int64_t nn = m0 + top.n;
    const T cc = nn == 0 ? T(0) : T(top.n) / T(nn);
    const T d = top.m1[l] - mu;
    mu = std::fma(d, cc, mu);
    m2 = m2 + std::fma((d * d) * cc, T(m0), top.m2[l]);
    m0 = nn;
  }
  mean = mu;
  var = m2 / T(N);
}

// One row of the forward: y from x, its mean and rstd, and gamma / beta (either may be null).
template <typename T>
inline void layer_norm_row(const T* x, T* y, int64_t N, T mean, T rstd, const T* gamma, const T* beta) {
  if (gamma && beta) {
    for (int64_t j = 0; j < N; ++j) y[j] = std::fma((x[j] + (-mean)) * rstd, gamma[j], beta[j]);
  } else if (gamma) {
    for (int64_t j = 0; j < N; ++j) y[j] = std::fma((x[j] - mean) * rstd, gamma[j], T(0));
  } else if (beta) {
    for (int64_t j = 0; j < N; ++j) y[j] = std::fma(x[j] - mean, rstd, beta[j]);
  } else {
    for (int64_t j = 0; j < N; ++j) y[j] = std::fma(x[j] - mean, rstd, T(0));
  }
}

// AVX2's horizontal sum of a vector's lanes (vec::vec_reduce_all): float as
// ((v0 + v4) + (v2 + v6)) + ((v1 + v5) + (v3 + v7)), double left to right.
template <typename T>
inline T horizontal_sum(const T* v) {
  if constexpr (kLanes<T> == 8) return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
  else return ((v[0] + v[1]) + v[2]) + v[3];
}

// vec::map*_reduce_all with +: the sum over j of p(j) * q(j) (q null: of p(j)), where p(j) is
// a[j] * b[j] when b is given, else a[j]. Lane-wise over whole vectors (products rounded, then
// added), the last part-vector fused into its lanes, then the lanes summed.
template <typename T>
inline T map_reduce_sum(const T* a, const T* b, const T* q, int64_t N) {
  constexpr int L = kLanes<T>;
  auto p = [&](int64_t j) { return b ? a[j] * b[j] : a[j]; };
  auto term = [&](int64_t j) { return q ? p(j) * q[j] : p(j); };
  if (N < L) {
    T s = term(0);
    for (int64_t j = 1; j < N; ++j) s = s + term(j);
    return s;
  }
  T acc[L];
  for (int l = 0; l < L; ++l) acc[l] = term(l);
  const int64_t whole = N / L;
  for (int64_t v = 1; v < whole; ++v)
    for (int l = 0; l < L; ++l) acc[l] = acc[l] + term(v * L + l);
  for (int64_t j = whole * L; j < N; ++j) {
    const int l = static_cast<int>(j - whole * L);
    if (q) acc[l] = std::fma(p(j), q[j], acc[l]);
    else if (b) acc[l] = std::fma(a[j], b[j], acc[l]);
    else acc[l] = acc[l] + a[j];
  }
  return horizontal_sum(acc);
}

// One row of the backward: dx (if not null) from dy, x, the row's mean and rstd, and gamma; the
// row's terms of dgamma and dbeta added into this thread's partial sums (if not null).
template <typename T>
inline void layer_norm_backward_row(const T* dy, const T* x, T mean, T a, const T* gamma, T* dx, T* dgamma_part,
                                    T* dbeta_part, int64_t N) {
  if (dgamma_part) {
    const T b = (-a) * mean;
    for (int64_t j = 0; j < N; ++j) dgamma_part[j] = std::fma(dy[j], std::fma(a, x[j], b), dgamma_part[j]);
  }
  if (dbeta_part)
    for (int64_t j = 0; j < N; ++j) dbeta_part[j] = dbeta_part[j] + dy[j];
  if (!dx) return;
  const T ds = map_reduce_sum(dy, x, gamma, N);
  const T db = gamma ? map_reduce_sum(dy, gamma, static_cast<const T*>(nullptr), N)
                     : map_reduce_sum(dy, static_cast<const T*>(nullptr), static_cast<const T*>(nullptr), N);
  const T scale = T(1) / T(N);
  const T B = (((std::fma(mean, db, -ds) * a) * a) * a) * scale;
  const T C = std::fma(-B, mean, -((db * a) * scale));
  if (gamma)
    for (int64_t j = 0; j < N; ++j) dx[j] = std::fma(B, x[j], (a * dy[j]) * gamma[j]) + C;
  else
    for (int64_t j = 0; j < N; ++j) dx[j] = std::fma(B, x[j], a * dy[j]) + C;
}

}  // namespace ipt::native::IPT_LAYER_NORM_MATH
