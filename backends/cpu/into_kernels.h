#pragma once
// CPU kernels that compute straight into an output their caller made: `out` already has the
// shape and dtype the operator's Meta kernel gives (and for mm, a contiguous layout). The
// functional CPU kernels make their result and then call these; the simulated GPU's kernels
// call them on CPU views of device memory, so a simulated kernel adds no copy
// (Note [A simulated kernel] in backends/sim/sim_kernels.cpp). They check what the
// functional kernels check (dtypes, alpha, bool restrictions), with the same messages.
#include <array>
#include <optional>
#include <string_view>
#include <tuple>

#include "core/ops/conv_rules.h"
#include "core/ops/pool_rules.h"
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
void bitwise_left_shift_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void bitwise_right_shift_into_cpu(const Tensor& out, const Tensor& self, const Tensor& other);
void mm_into_cpu(const Tensor& out, const Tensor& self, const Tensor& mat2);
void gelu_into_cpu(const Tensor& out, const Tensor& self, std::string_view approximate);
void gelu_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Tensor& self,
                            std::string_view approximate);
void elu_into_cpu(const Tensor& out, const Tensor& self, const Scalar& alpha, const Scalar& scale,
                  const Scalar& input_scale);
void elu_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                           const Scalar& input_scale, bool is_result, const Tensor& self_or_result);
void leaky_relu_into_cpu(const Tensor& out, const Tensor& self, const Scalar& negative_slope);
void leaky_relu_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Tensor& self,
                                  const Scalar& negative_slope);
void hardtanh_backward_into_cpu(const Tensor& out, const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                                const Scalar& max_val);
// A convolution (plain or transposed, any groups) and its gradients (backends/cpu/conv_kernels.cpp);
// `name` is the kernel's name in its dtype error.
Tensor conv_forward_cpu(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        const ConvParams& p, const char* name);
std::tuple<Tensor, Tensor, Tensor> conv_backward_cpu(const Tensor& grad_output, const Tensor& input,
                                                     const Tensor& weight, const ConvParams& p,
                                                     std::array<bool, 3> output_mask);
// Pooling over the geometry the checks gave (backends/cpu/pool_kernels.cpp).
std::tuple<Tensor, Tensor> max_pool_with_indices_cpu(const Tensor& self, const PoolGeometry& g);
Tensor max_pool_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& indices,
                             const PoolGeometry& g);
Tensor avg_pool_cpu(const Tensor& self, const PoolGeometry& g, bool count_include_pad,
                    std::optional<int64_t> divisor_override);
Tensor avg_pool_backward_cpu(const Tensor& grad_output, const Tensor& self, const PoolGeometry& g,
                             bool count_include_pad, std::optional<int64_t> divisor_override);
Tensor adaptive_avg_pool_cpu(const Tensor& self, const PoolGeometry& g);
Tensor adaptive_avg_pool_backward_cpu(const Tensor& grad_output, const Tensor& self, const PoolGeometry& g);
// out = beta * out + alpha * (a @ b) for a contiguous 2-D out (BLAS's C; beta 0 ignores its
// contents); a and b any 2-D strides. Split over the team when large and not already on it.
void gemm_into_cpu(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, const Scalar& beta);

}  // namespace ipt::native
