// conv_taps_tile.h's kernel on AVX2 registers: 6 rows by 2 vectors of 8 floats, 12 of the 16
// registers (compiled with -mavx2 -mfma; called only where the CPU has them).
#include <immintrin.h>

#include "backends/cpu/conv_taps_tile.h"

namespace ipt::cpu::avx2 {

namespace {
struct Isa {
  using V = __m256;
  static constexpr int kWidth = 8, kRows = static_cast<int>(kTapRows), kVecs = static_cast<int>(kTapColumns) / 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static V broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
};
}  // namespace

void tap_product(const TapProduct& p) { tap_product_blocks<Isa>(p); }

}  // namespace ipt::cpu::avx2
