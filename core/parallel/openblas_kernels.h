#pragma once
// Note [OpenBLAS's kernels on an unknown CPU]
// Debian's OpenBLAS (0.3.21, built with DYNAMIC_ARCH) picks its kernels for the CPU model it
// recognises when the library loads. On a model newer than its tables (a virtual "Intel Xeon
// Processor" of family 6, model 207, with AVX-512, say) it falls back to "Prescott", SSE3
// kernels, and a 1024x1024 sgemm runs 2.5 times slower than PyTorch's. OpenBLAS reads
// OPENBLAS_CORETYPE only while it loads, which is before main(). So main() asks this first: where
// OPENBLAS_CORETYPE is unset and OpenBLAS chose kernels older than the CPU's (AVX-512: SkylakeX;
// AVX2 with FMA: Haswell), it sets OPENBLAS_CORETYPE and the program starts itself again (once:
// the second start finds the variable set). A user's OPENBLAS_CORETYPE always wins.

namespace ipt {

// True when OPENBLAS_CORETYPE was just set and the process should exec itself again.
bool choose_openblas_kernels();

}  // namespace ipt
