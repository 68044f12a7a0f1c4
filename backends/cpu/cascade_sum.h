#pragma once
// PyTorch's summation order (1.13 and 2.15 alike) for float and double sums on the CPU (its "cascade sum"), so
// that float32 results match bit for bit. Sums accumulate in the element type (float for
// float), in up to four levels: every 2^p additions (p = max(4, ceil(log2(n)) / 4)) a level's
// partial sum moves into the next level, which bounds the rounding error like a pairwise sum.
// A contiguous row of at least one vector (8 floats, 4 doubles with AVX2) is summed lane by
// lane; each lane's partials are kept four at a time ("ILP") and combined at the end.
//
// The vector lanes are independent, so a lane's sum is computed here as a scalar sum over the
// lane's elements (x[l], x[l + L], x[l + 2L], ...), which gives the same value.

#include <array>
#include <cstdint>
#include <type_traits>

#include "backends/cpu/vml.h"
#include "core/util/interrupt.h"

namespace ipt::cpu::cascade {

inline int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  return 64 - __builtin_clzll(static_cast<unsigned long long>(x - 1));
}

// NR interleaved sums over `size` steps: sum k adds load(i, k) for every step i.
template <typename A, int NR, typename Load>
[[gnu::always_inline]] inline std::array<A, NR> multi_row_sum(int64_t size, const Load& load) {
  constexpr int kLevels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(size) / kLevels);
  const int64_t level_step = int64_t(1) << level_power;
  const int64_t level_mask = level_step - 1;
  if (size < level_step) {
    // No partial sum moves up a level: the higher levels stay +0 and adding them changes nothing
    // (a sum that starts at +0 is never -0), so the first level alone is the sum.
    std::array<A, NR> out{};
    for (int64_t i = 0; i < size; ++i)
      for (int k = 0; k < NR; ++k) out[k] += load(i, k);
    return out;
  }
  if (size < level_step * level_step) {
    // Only the first two levels are ever used (no partial sum reaches the third before the end),
    // and the unused ones would add +0 at the end, which changes nothing. Keeping two levels
    // keeps the accumulators in registers: a row of 1024 floats is summed in 32 vector steps,
    // and four levels' worth of accumulators (16 vectors) spilled to the stack on every row.
    A lo[NR] = {};
    A hi[NR] = {};
    int64_t i = 0;
    for (; i + level_step <= size;) {
      for (int64_t j = 0; j < level_step; ++j, ++i)
        for (int k = 0; k < NR; ++k) lo[k] += load(i, k);
      for (int k = 0; k < NR; ++k) {
        hi[k] += lo[k];
        lo[k] = A(0);
      }
    }
    for (; i < size; ++i)
      for (int k = 0; k < NR; ++k) lo[k] += load(i, k);
    std::array<A, NR> out;
    for (int k = 0; k < NR; ++k) out[k] = lo[k] + hi[k];
    return out;
  }
  A acc[kLevels][NR] = {};
  int64_t i = 0;
  while (i + level_step <= size) {
    if ((i & 0xffff) == 0) check_interrupt();  // a Stop reaches into a long sum
    for (int64_t j = 0; j < level_step; ++j, ++i)
      for (int k = 0; k < NR; ++k) acc[0][k] += load(i, k);
    for (int j = 1; j < kLevels; ++j) {
      for (int k = 0; k < NR; ++k) {
        acc[j][k] += acc[j - 1][k];
        acc[j - 1][k] = A(0);
      }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; ++i)
    for (int k = 0; k < NR; ++k) acc[0][k] += load(i, k);
  for (int j = 1; j < kLevels; ++j)
    for (int k = 0; k < NR; ++k) acc[0][k] += acc[j][k];
  std::array<A, NR> out;
  for (int k = 0; k < NR; ++k) out[k] = acc[0][k];
  return out;
}

// One row of `size` elements (load(i)): four interleaved cascades, the leftovers added to the
// first, then the four combined in order.
template <typename A, typename Load>
[[gnu::always_inline]] inline A row_sum(int64_t size, const Load& load) {
  constexpr int kIlp = 4;
  const int64_t size_ilp = size / kIlp;
  auto p = multi_row_sum<A, kIlp>(size_ilp, [&](int64_t i, int k) { return load(i * kIlp + k); });
  for (int64_t i = size_ilp * kIlp; i < size; ++i) p[0] += load(i);
  for (int k = 1; k < kIlp; ++k) p[0] += p[k];
  return p[0];
}

// Lanes of one AVX2 vector of T.
template <typename T>
constexpr int64_t kLanes = 32 / static_cast<int64_t>(sizeof(T));

// Sum of a row whose elements are x[i * stride], reduced innermost (PyTorch's inner sum: the
// vectorized form when the row is contiguous and holds at least one vector). In the vectorized
// form each lane l sums x[l], x[l + L], ... in four interleaved cascades (row_sum over vectors);
// the lanes are kept side by side, 4 * L accumulators read from contiguous memory, which is the
// same arithmetic lane by lane and lets the compiler use vector registers for it.
template <typename T>
[[gnu::always_inline]] inline T inner_sum_body(const T* x, int64_t n, int64_t stride) {
  constexpr int64_t L = kLanes<T>;
  constexpr int kIlp = 4;
  if (stride != 1 || n < L) return row_sum<T>(n, [&](int64_t i) { return x[i * stride]; });
  const int64_t vec_size = n / L;
  const int64_t size_ilp = vec_size / kIlp;
  // acc[k * L + l]: lane l of interleaved cascade k.
  auto acc = multi_row_sum<T, kIlp * L>(size_ilp, [&](int64_t i, int k) { return x[i * kIlp * L + k]; });
  for (int64_t v = size_ilp * kIlp; v < vec_size; ++v)
    for (int64_t l = 0; l < L; ++l) acc[static_cast<size_t>(l)] += x[v * L + l];
  T total = 0;
  for (int64_t i = vec_size * L; i < n; ++i) total += x[i];
  for (int64_t l = 0; l < L; ++l) {
    T lane = acc[static_cast<size_t>(l)];
    for (int k = 1; k < kIlp; ++k) lane += acc[static_cast<size_t>(k * L + l)];
    total += lane;
  }
  return total;
}

// The same sum compiled for AVX2 (no FMA: the same additions in the same order, so the same
// value), as PyTorch compiles its reduction kernels per CPU capability.
template <typename T>
[[gnu::target("avx2")]] T inner_sum_avx2(const T* x, int64_t n, int64_t stride) {
  return inner_sum_body(x, n, stride);
}

template <typename T>
T inner_sum(const T* x, int64_t n, int64_t stride) {
  if (stride == 1 && n >= kLanes<T> && has_avx2()) {
    if constexpr (std::is_floating_point_v<T>)
      if (n < 1024 * kLanes<T>) return rows_avx2::short_row_sum(x, n);
    return inner_sum_avx2(x, n, stride);
  }
  return inner_sum_body(x, n, stride);
}

// Column sums of a (rows x cols) block, rows reduced (PyTorch's outer sum), added into
// out[j * out_stride]: columns in the full groups of 4 vectors (contiguous columns) or of 4
// scalars take one cascade each; the rest a row_sum over the rows.
template <typename T>
[[gnu::always_inline]] inline void outer_sum_body(const T* x, int64_t rows, int64_t row_stride, int64_t cols,
                                                  int64_t col_stride, T* out, int64_t out_stride, int64_t j_begin,
                                                  int64_t j_end) {
  constexpr int64_t kGroup = 4 * kLanes<T>;
  const int64_t group = (col_stride == 1 && cols >= kLanes<T>) ? kGroup : 4;
  const int64_t grouped = cols / group * group;
  if (j_end < 0) j_end = cols;
  int64_t j = j_begin;
  // Contiguous columns in whole groups: one cascade per column, as below, but a group's columns
  // are summed side by side, so each row of the group is read once, in order (and vectorized).
  for (; j < j_end; ++j) {
    if ((j & 0xffff) == 0) check_interrupt();
    if (group == kGroup && j % kGroup == 0 && j + kGroup <= grouped && j + kGroup <= j_end) {
      const T* base = x + j;
      auto sums =
          multi_row_sum<T, static_cast<int>(kGroup)>(rows, [&](int64_t i, int k) { return base[i * row_stride + k]; });
      for (int64_t k = 0; k < kGroup; ++k) out[(j + k) * out_stride] += sums[static_cast<size_t>(k)];
      j += kGroup - 1;
      continue;
    }
    const T* col = x + j * col_stride;
    auto load = [&](int64_t i) { return col[i * row_stride]; };
    out[j * out_stride] +=
        j < grouped ? multi_row_sum<T, 1>(rows, [&](int64_t i, int) { return load(i); })[0] : row_sum<T>(rows, load);
  }
}

// The column sums compiled for AVX2 as well (the same additions in the same order), picked by
// CPU capability.
template <typename T>
[[gnu::target("avx2")]] void outer_sum_avx2(const T* x, int64_t rows, int64_t row_stride, int64_t cols,
                                            int64_t col_stride, T* out, int64_t out_stride, int64_t j_begin,
                                            int64_t j_end) {
  outer_sum_body(x, rows, row_stride, cols, col_stride, out, out_stride, j_begin, j_end);
}

template <typename T>
void outer_sum(const T* x, int64_t rows, int64_t row_stride, int64_t cols, int64_t col_stride, T* out,
               int64_t out_stride, int64_t j_begin = 0, int64_t j_end = -1) {
  if (has_avx2()) return outer_sum_avx2(x, rows, row_stride, cols, col_stride, out, out_stride, j_begin, j_end);
  outer_sum_body(x, rows, row_stride, cols, col_stride, out, out_stride, j_begin, j_end);
}

}  // namespace ipt::cpu::cascade
