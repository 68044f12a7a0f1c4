#pragma once
// Box-Muller for 16 float32 values in place, computed the way PyTorch 2.15's AVX2 kernel for
// normal_ computes it (torch.randn of 16 or more contiguous float32 elements on a CPU with AVX2):
// log, sine and cosine are the Cephes single-precision polynomials of the AVX "mathfun"
// routines, evaluated with the same operations in the same order and with the multiply-adds the
// compiler fuses there, so the results match PyTorch's to the last bit. Where the CPU has AVX2
// and FMA this runs as vectors (box_muller_avx2.cpp), else as scalar code with the same values.

#include <cstdint>

namespace ipt::random {

// data[0..8) hold u1 draws and data[8..16) u2 draws in [0, 1); they become N(mean, std) values.
void box_muller_16_avx2(float* data, float mean, float std);
// The same on `blocks` consecutive blocks of 16.
void box_muller_blocks_avx2(float* data, int64_t blocks, float mean, float std);
// The scalar code on its own (exposed for tests, which compare it with the vectors).
void box_muller_16_scalar(float* data, float mean, float std);

// The two routines on their own (exposed for tests).
float cephes_logf_avx(float x);
void cephes_sincosf_avx(float x, float* sin_out, float* cos_out);

}  // namespace ipt::random
