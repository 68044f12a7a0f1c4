#pragma once
// Float gelu (oneDNN's erf form, onednn_gelu.h) on a contiguous run, compiled for AVX2 and FMA
// (gelu_avx2.cpp); call only when cpu::has_avx2(). The same operations as the portable loop, so
// the same bits.
#include <cstdint>

namespace ipt::native::gelu_avx2 {

void forward(const float* x, float* y, int64_t n);
void backward(const float* dy, const float* x, float* dx, int64_t n);

}  // namespace ipt::native::gelu_avx2
