// conv_taps_tile.h's kernel on AVX-512 registers: 8 rows by 2 vectors of 16 floats (compiled
// with -mavx512f -mfma; called only where the CPU has them).
#include <immintrin.h>

#include "backends/cpu/conv_taps_tile.h"

namespace ipt::cpu::avx512 {

namespace {
struct Isa {
  using V = __m512;
  static constexpr int kWidth = 16, kRows = static_cast<int>(kTapRows), kVecs = static_cast<int>(kTapColumns) / 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static V broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
};
}  // namespace

void tap_product(const TapProduct& p) { tap_product_blocks<Isa>(p); }

}  // namespace ipt::cpu::avx512
