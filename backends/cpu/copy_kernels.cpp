// CPU copies: copy_ (with broadcasting and dtype conversion), fill_, reading one element.
//
// Note [Blocked transpose copy]
// contiguous() of a transposed matrix reads the source column by column: each read touches
// a different cache line, so a naive copy moves one useful element per 64-byte line. Copying
// in 16x16 tiles keeps the tile's source lines in L1 (16 lines, 16 KiB apart, still fit the
// cache's associativity) while the destination rows are written sequentially, so every loaded
// line is used fully. For float32 a 4x4 block is transposed in SSE registers. Large outputs
// come from huge pages (backends/cpu/cpu_backend.cpp), so first touch is cheap too.
#include <cstring>
#include <type_traits>

#include <cpuid.h>
#include <immintrin.h>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/cpu_kernel.h"
#include "backends/cpu/cpu_loops.h"
#include "core/parallel/parallel.h"
#include "core/ops/shape_rules.h"
#include "core/ops/tensor_iterator.h"
#include "core/tensor/index_math.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

constexpr int64_t kTile = 16;

void note_copy(const char* how) {
  if (!trace::tracing_enabled()) return;
  trace::KernelDetail d;
  d.fields.emplace_back("copy", how);
  trace::Recorder::current().instant(trace::Category::Kernel, "copy_ strategy", std::move(d));
}

// dst (rows x cols, row stride ld_dst, unit column stride) = src with strides (s0, s1).
template <typename T>
void scalar_tile(T* dst, int64_t ld_dst, const T* src, int64_t s0, int64_t s1, int64_t i0, int64_t i1, int64_t j0,
                 int64_t j1) {
  for (int64_t i = i0; i < i1; ++i) {
    T* d = dst + i * ld_dst;
    const T* s = src + i * s0;
    for (int64_t j = j0; j < j1; ++j) d[j] = s[j * s1];
  }
}

template <typename T>
void blocked_copy_2d(T* dst, int64_t ld_dst, const T* src, int64_t s0, int64_t s1, int64_t rows, int64_t cols) {
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(i0 + kTile, rows);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(j0 + kTile, cols);
#if defined(__SSE__)
      if constexpr (std::is_same_v<T, float>) {
        if (s0 == 1) {  // a pure transpose: 4x4 register transposes (SSE, x86-64 baseline)
          const int64_t i4 = i0 + (i1 - i0) / 4 * 4, j4 = j0 + (j1 - j0) / 4 * 4;
          for (int64_t i = i0; i < i4; i += 4)
            for (int64_t j = j0; j < j4; j += 4) {
              __m128 r0 = _mm_loadu_ps(src + i + (j + 0) * s1);
              __m128 r1 = _mm_loadu_ps(src + i + (j + 1) * s1);
              __m128 r2 = _mm_loadu_ps(src + i + (j + 2) * s1);
              __m128 r3 = _mm_loadu_ps(src + i + (j + 3) * s1);
              _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
              _mm_storeu_ps(dst + (i + 0) * ld_dst + j, r0);
              _mm_storeu_ps(dst + (i + 1) * ld_dst + j, r1);
              _mm_storeu_ps(dst + (i + 2) * ld_dst + j, r2);
              _mm_storeu_ps(dst + (i + 3) * ld_dst + j, r3);
            }
          scalar_tile(dst, ld_dst, src, s0, s1, i0, i4, j4, j1);  // right edge
          scalar_tile(dst, ld_dst, src, s0, s1, i4, i1, j0, j1);  // bottom edge
          continue;
        }
      }
#endif
      for (int64_t i = i0; i < i1; ++i) {
        T* d = dst + i * ld_dst;
        const T* s = src + i * s0;
        for (int64_t j = j0; j < j1; ++j) d[j] = s[j * s1];
      }
    }
  }
}

// Same dtype, same shape, contiguous destination, source with transposed inner dims.
bool try_blocked_copy(const Tensor& self, const Tensor& src) {
  const int64_t nd = self.dim();
  if (nd < 2 || self.dtype() != src.dtype() || self.sizes() != src.sizes() || !self.is_contiguous()) return false;
  const int64_t s0 = src.strides()[nd - 2], s1 = src.strides()[nd - 1];
  if (s1 == 1 || s1 <= s0) return false;  // inner dim already unit-stride or not a transpose pattern
  const int64_t rows = self.sizes()[nd - 2], cols = self.sizes()[nd - 1];
  std::vector<int64_t> batch(self.sizes().begin(), self.sizes().end() - 2);
  std::vector<int64_t> src_batch_strides(src.strides().begin(), src.strides().end() - 2);
  std::vector<int64_t> dst_batch_strides(self.strides().begin(), self.strides().end() - 2);
  note_copy("blocked transpose (16x16 tiles)");
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* dst = self.data_ptr<T>();
    const T* s = src.data_ptr<T>();
    std::array<std::vector<int64_t>, 2> st{dst_batch_strides, src_batch_strides};
    cpu::for_each_offsets<2>(
        batch, st, [&](int64_t od, int64_t os) { blocked_copy_2d(dst + od, cols, s + os, s0, s1, rows, cols); });
  });
  return true;
}

// float <-> float16 on contiguous runs with the CPU's conversion instructions (F16C), as
// PyTorch's vectorized copy converts: rounding to nearest even, the same values as
// half_bits_from_float / float_from_half_bits (a NaN keeps its sign and the top of its payload).
bool has_f16c() {
  static const bool yes = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __builtin_cpu_supports("avx2") && __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
  }();
  return yes;
}
[[gnu::target("avx2,f16c")]] void floats_to_halves(const float* x, uint16_t* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  for (; i < n; ++i) y[i] = half_bits_from_float(x[i]);
}
[[gnu::target("avx2,f16c")]] void halves_to_floats(const uint16_t* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))));
  for (; i < n; ++i) y[i] = float_from_half_bits(x[i]);
}

// A contiguous float <-> float16 copy of the same shape, split over the threads; false if it is
// not one.
bool try_half_copy(const Tensor& self, const Tensor& src) {
  const bool to_half = self.dtype() == ScalarType::Half && src.dtype() == ScalarType::Float;
  const bool from_half = self.dtype() == ScalarType::Float && src.dtype() == ScalarType::Half;
  if (!(to_half || from_half) || !has_f16c() || self.sizes() != src.sizes() || !self.is_contiguous() ||
      !src.is_contiguous())
    return false;
  note_copy("float16 conversion (F16C)");
  void* d = self.impl()->raw_data();
  const void* s = src.impl()->raw_data();
  parallel_for(0, self.numel(), kGrainSize, [&](int64_t b, int64_t e) {
    if (to_half) floats_to_halves(static_cast<const float*>(s) + b, static_cast<uint16_t*>(d) + b, e - b);
    else halves_to_floats(static_cast<const uint16_t*>(s) + b, static_cast<float*>(d) + b, e - b);
  });
  return true;
}

}  // namespace

Tensor copy_cpu_(const Tensor& self, const Tensor& src, bool non_blocking) {
  IPT_CHECK(self.device().type == DeviceType::CPU && src.device().type == DeviceType::CPU, NotImplementedError,
            "copy_ between ", self.device().str(), " and ", src.device().str(), " is not supported");
  auto bsizes = broadcast_shapes(self.sizes(), src.sizes());
  IPT_CHECK(bsizes == self.sizes(), RuntimeError, "output with shape ", int_list_str(self.sizes()),
            " doesn't match the broadcast shape ", int_list_str(bsizes));
  if (self.numel() == 0) return self;
  if (self.is_same(src)) return self;
  if (self.dtype() == src.dtype() && self.sizes() == src.sizes() && self.is_contiguous() && src.is_contiguous()) {
    note_copy("memcpy (both contiguous)");
    // Split over threads as PyTorch's copy kernel splits its elements (one grain each at least).
    char* d = static_cast<char*>(self.impl()->raw_data());
    const char* s = static_cast<const char*>(src.impl()->raw_data());
    const int64_t item = static_cast<int64_t>(element_size(self.dtype()));
    parallel_for(0, self.numel(), kGrainSize, [&](int64_t b, int64_t e) {
      std::memcpy(d + b * item, s + b * item, static_cast<size_t>((e - b) * item));
    });
    return self;
  }
  if (try_blocked_copy(self, src) || try_half_copy(self, src)) return self;
  // Anything else on the pointwise engine (PyTorch's copy kernel on its TensorIterator): src
  // broadcast to self, the dims ordered by self's strides and coalesced, so that a permuted
  // tensor cloned with its layout (x.permute(1, 0).clone()) or a contiguous conversion
  // (x.to(torch.float16)) is one contiguous run, vectorized and split over the threads.
  note_copy("TensorIterator loop");
  const Tensor inputs[] = {src};
  TensorIterator iter(self, inputs);
  visit_dtype(self.dtype(), [&]<typename T>() {
    visit_dtype(src.dtype(), [&]<typename S>() {
      const auto convert = [](S v) { return convert_element<T>(v); };
      cpu::cpu_kernel<S, 1, decltype(convert), T>(iter, convert);
    });
  });
  return self;
}

namespace {
// A contiguous run set to one value, with 256-bit stores.
template <typename T>
[[gnu::target("avx2")]] void fill_run_avx2(T* p, int64_t n, T v) {
  for (int64_t i = 0; i < n; ++i) p[i] = v;
}
template <typename T>
void fill_run(T* p, int64_t n, T v) {
  for (int64_t i = 0; i < n; ++i) p[i] = v;
}
}  // namespace

Tensor fill_cpu_(const Tensor& self, const Scalar& value) {
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T v = value.to<T>();
    T* p = static_cast<T*>(self.impl()->raw_data());
    if (self.is_contiguous()) {  // split over threads, as PyTorch's fill kernel
      const bool avx2 = cpu::has_avx2();
      parallel_for(0, self.numel(), kGrainSize, [&](int64_t b, int64_t e) {
        if (avx2) fill_run_avx2(p + b, e - b, v);
        else fill_run(p + b, e - b, v);
      });
      return;
    }
    std::array<std::vector<int64_t>, 1> st{self.strides()};
    cpu::for_each_offsets<1>(self.sizes(), st, [&](int64_t o) { p[o] = v; });
  });
  return self;
}

Scalar _local_scalar_dense_cpu(const Tensor& self) {
  return visit_dtype(self.dtype(), [&]<typename T>() -> Scalar {
    T v = *self.data_ptr<T>();
    if constexpr (std::is_same_v<T, bool>) return Scalar(v);
    else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return Scalar(v);
    else return Scalar(static_cast<double>(v));
  });
}

}  // namespace ipt::native
