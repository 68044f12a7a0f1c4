#pragma once
// CPU kernels that compute straight into an output their caller made: `out` already has the
// shape and dtype the operator's Meta kernel gives (and for mm, a contiguous layout). The
// functional CPU kernels make their result and then call these; the simulated GPU's kernels
// call them on CPU views of device memory, so a simulated kernel adds no copy
// (Note [A simulated kernel] in backends/sim/sim_kernels.cpp). They check what the
// functional kernels check (dtypes, alpha, bool restrictions), with the same messages.
#include "core/tensor/scalar.h"
#include "core/tensor/tensor.h"

namespace ipt::native {

void add_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void sub_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void mul_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void div_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void relu_into_cpu(const Tensor& out, const Tensor& self);
void neg_into_cpu(const Tensor& out, const Tensor& self);
void exp_into_cpu(const Tensor& out, const Tensor& self);
void log_into_cpu(const Tensor& out, const Tensor& self);
void sqrt_into_cpu(const Tensor& out, const Tensor& self);
void sin_into_cpu(const Tensor& out, const Tensor& self);
void cos_into_cpu(const Tensor& out, const Tensor& self);
void tan_into_cpu(const Tensor& out, const Tensor& self);
void rsqrt_into_cpu(const Tensor& out, const Tensor& self);
void tanh_into_cpu(const Tensor& out, const Tensor& self);
void sigmoid_into_cpu(const Tensor& out, const Tensor& self);
void asin_into_cpu(const Tensor& out, const Tensor& self);
void acos_into_cpu(const Tensor& out, const Tensor& self);
void atan_into_cpu(const Tensor& out, const Tensor& self);
void sinh_into_cpu(const Tensor& out, const Tensor& self);
void cosh_into_cpu(const Tensor& out, const Tensor& self);
void asinh_into_cpu(const Tensor& out, const Tensor& self);
void acosh_into_cpu(const Tensor& out, const Tensor& self);
void atanh_into_cpu(const Tensor& out, const Tensor& self);
void log2_into_cpu(const Tensor& out, const Tensor& self);
void log10_into_cpu(const Tensor& out, const Tensor& self);
void log1p_into_cpu(const Tensor& out, const Tensor& self);
void expm1_into_cpu(const Tensor& out, const Tensor& self);
void erf_into_cpu(const Tensor& out, const Tensor& self);
void round_into_cpu(const Tensor& out, const Tensor& self);
void trunc_into_cpu(const Tensor& out, const Tensor& self);
void bitwise_not_into_cpu(const Tensor& out, const Tensor& self);
void signbit_into_cpu(const Tensor& out, const Tensor& self);
void maximum_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void minimum_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void atan2_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void fmod_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void bitwise_and_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void bitwise_or_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void bitwise_xor_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void mm_into_cpu(const Tensor& out, const Tensor& self, const Tensor& mat2);

}  // namespace ipt::native
