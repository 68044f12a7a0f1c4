#pragma once
// Helpers the derivative formulas in core/ops/derivatives.yaml are written with (the only
// hand-written part of autograd's per-operator code; the rest is generated).

#include <array>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/dispatch/local_dispatch_key_set.h"  // grad_mode_enabled, which formulas read
#include "generated/ops.h"

namespace ipt::autograd {

using Sizes = std::vector<int64_t>;

// Sums `grad` down to `sizes` (undoes broadcasting).
Tensor sum_to(const Tensor& grad, const Sizes& sizes);
Tensor mul_scalar(const Tensor& t, const Scalar& s);
// d/dself of self ** exponent for a scalar exponent.
Tensor pow_backward(const Tensor& grad, const Tensor& self, const Scalar& exponent);
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent);
// cumprod's gradient: the reversed running sum of grad * result over self where no element is
// zero (as 2.15); otherwise, for each k, sum over j >= k of grad_j times the product of
// self_0..self_j without self_k.
Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result);
// d/dself sinc(self) = (pi x cos(pi x) - sin(pi x)) / (pi x^2), and 0 where pi x^2 is 0.
Tensor sinc_backward(const Tensor& grad, const Tensor& self);
// scatter_reduce (2.15's scatter_reduce_backward): self's and src's gradients for each reduction.
std::tuple<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                   const Tensor& index, const Tensor& src, std::string_view reduce,
                                                   bool include_self, const Tensor& result,
                                                   const std::array<bool, 2>& grad_input_mask);
// _euclidean_dist (2.15's _euclidean_dist_backward): grad / result (0 where the distance is 0)
// contracted with each operand.
std::tuple<Tensor, Tensor> euclidean_dist_backward(const Tensor& grad, const Tensor& x1, const Tensor& x2,
                                                   const Tensor& result, const std::array<bool, 2>& grad_input_mask);
// max_pool2d_with_indices_backward's gradient: grad's elements at the indices of each plane
// (the last `dim` dims flattened), in the indices' shape.
Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim);
// embedding_dense_backward's gradient: grad's rows at the indices (zeros for padding_idx), in the
// indices' shape plus the embedding dim.
Tensor embedding_dense_double_backward(const Tensor& grad, const Tensor& indices, int64_t padding_idx);
// index_fill with a tensor value: the gradient at the filled slices (each index once), summed.
Tensor index_fill_value_backward(const Tensor& grad, int64_t dim, const Tensor& index);
// take: each gradient element added at the element it read, in a zero tensor of self's shape.
Tensor take_backward(const Tensor& grad, const Sizes& self_sizes, const Tensor& index);
// native_layer_norm_backward's gradients (2.15's layer_norm_double_backward): input's, weight's
// and grad_out's, for the gradients ggI, ggG, ggB of its three outputs (any may be undefined).
std::tuple<Tensor, Tensor, Tensor> layer_norm_double_backward(const Tensor& input, const std::optional<Tensor>& gamma,
                                                              const Tensor& ggI, const Tensor& ggG, const Tensor& ggB,
                                                              const Tensor& gO, const Tensor& mean, const Tensor& rstd,
                                                              IntArrayRef normalized_shape,
                                                              const std::array<bool, 3>& output_mask);
// convolution_backward's gradients (2.15's _convolution_double_backward): grad_output's,
// input's and weight's, for the gradients of grad_input, grad_weight and grad_bias.
std::tuple<Tensor, Tensor, Tensor> convolution_double_backward(const Tensor& ggI, const Tensor& ggW, const Tensor& ggb,
                                                               const Tensor& gO, const Tensor& weight,
                                                               const Tensor& input, IntArrayRef stride,
                                                               IntArrayRef padding, IntArrayRef dilation,
                                                               bool transposed, IntArrayRef output_padding,
                                                               int64_t groups, const std::array<bool, 3>& output_mask);
// native_group_norm's backward for the gradients of its output, mean and rstd: with grad mode
// on (create_graph=True) in differentiable operators, otherwise the fused kernel; the mean's
// and rstd's gradients are added as var_mean's backward.
std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward_dispatcher(const std::vector<Tensor>& grads,
                                                                         const Tensor& input, const Tensor& mean,
                                                                         const Tensor& rstd,
                                                                         const std::optional<Tensor>& weight, int64_t N,
                                                                         int64_t C, int64_t HxW, int64_t group,
                                                                         const std::array<bool, 3>& output_mask);
Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result);
// grad of relu: grad where result > 0, else 0.
Tensor threshold_backward(const Tensor& grad, const Tensor& result);
// sum / mean over dims: expand the gradient back to the input's shape.
Tensor sum_backward(const Tensor& grad, const Sizes& sizes, const std::optional<Sizes>& dims, bool keepdim);
Tensor mean_backward(const Tensor& grad, const Sizes& sizes, const std::optional<Sizes>& dims, bool keepdim);
Tensor select_backward(const Tensor& grad, const Sizes& sizes, int64_t dim, int64_t index);
Tensor slice_backward(const Tensor& grad, const Sizes& sizes, int64_t dim, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step);
Tensor diagonal_backward(const Tensor& grad, const Sizes& sizes, int64_t offset, int64_t dim1, int64_t dim2);
Tensor permute_backward(const Tensor& grad, const Sizes& dims);
// Each element negated (constant_pad_nd's backward pads by -pad, which crops).
Sizes negated(const Sizes& v);
// native_dropout's scale for its backward: 1 when not training, 1 / (1 - p) otherwise (0 for p = 1).
double dropout_scale(double p, std::optional<bool> train);
// as_strided: the view's gradient scatter-added into a zero buffer in storage coordinates (the
// view may overlap itself), then read at the input's own positions.
Tensor as_strided_backward(const Tensor& grad, const Sizes& in_sizes, const Sizes& in_strides, int64_t in_offset,
                           const Sizes& sizes, const Sizes& strides, std::optional<int64_t> offset);
// unfold(dim, size, step): each window's gradient added back where the window was read.
Tensor unfold_backward(const Tensor& grad, const Sizes& in_sizes, int64_t dim, int64_t size, int64_t step);
Tensor unsqueeze_to(const Tensor& grad, const Sizes& sizes);  // undo squeeze
Tensor zeros_like_grad(const Tensor& grad);
// Zeros of `sizes` with grad's dtype and device (gradients of random sampling's parameters).
Tensor zeros_with_sizes(const Tensor& grad, const Sizes& sizes);
Tensor to_dtype_of(const Tensor& grad, const Tensor& like);
Tensor to_dtype(const Tensor& grad, ScalarType dtype);
// ToCopyBackward0: the gradient back in the input's dtype and on its device.
Tensor to_copy_backward(const Tensor& grad, ScalarType dtype, Device device);

// ---- elementwise ---------------------------------------------------------------------------
// clamp: grad where min <= self <= max (bounds that are given), 0 elsewhere (and at NaN).
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max);
// A 0-dim zero of grad's dtype (a wrapped number, so it never changes the result dtype).
Tensor zero_of(const Tensor& grad);
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Tensor>& min,
                      const std::optional<Tensor>& max);
std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self,
                                                  const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                                                  const std::array<bool, 2>& grad_input_mask);
Tensor pow_backward_exponent(const Tensor& grad, const Scalar& base, const Tensor& exponent, const Tensor& result);
std::vector<int64_t> negated_reversed(const Sizes& v);
Tensor copysign_tensor_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result);
Tensor masked_scatter_backward(const Tensor& grad, const Tensor& mask, const Sizes& source_sizes);
std::vector<int64_t> reversed(const Sizes& v);
Tensor binary_cross_entropy_target_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction);
Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                                 const std::optional<Tensor>& weight,
                                                 const std::optional<Tensor>& pos_weight, int64_t reduction);
Tensor binary_cross_entropy_with_logits_target_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                                        const std::optional<Tensor>& weight,
                                                        const std::optional<Tensor>& pos_weight, int64_t reduction);
// The formula of an operator PyTorch has no derivative for: raises its error when run.
[[noreturn]] Tensor not_implemented(const char* op);
// A formula PyTorch's derivatives.yaml writes as not_implemented("..."): its FunctionsManual
// helper's NotImplementedError, "the derivative for '<what>' is not implemented.".
[[noreturn]] Tensor formula_not_implemented(const char* what);

// ---- reductions ------------------------------------------------------------------------------
// max() / min(): the gradient shared evenly by every element equal to the result (NaN: the NaNs).
Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& self, const Tensor& result);
// max.dim / min.dim: the gradient goes to the position of `indices` along dim, 0 elsewhere.
Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices, const Sizes& sizes,
                                          bool keepdim);
// prod over all elements (dim nullopt) or one dim: grad times the product of the other
// elements of each slice (right with zeros in the slice too).
// amax / amin: the gradient split evenly over the elements equal to the result (PyTorch's
// scale_grad_by_count over restore_reduced_dims).
Tensor amax_backward(const Tensor& grad, const Tensor& self, const Tensor& result, const Sizes& dim, bool keepdim);
// grad * exp(self - result), the reduced dims put back first.
Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, const Sizes& dim, bool keepdim);
Tensor prod_backward(const Tensor& grad, const Tensor& self, std::optional<int64_t> dim, bool keepdim);
// var: 2 / (N - correction) * grad * (self - mean); std: var's with grad / (2 * std) (0 where std is 0).
Tensor var_backward(const Tensor& grad, const Tensor& self, const std::optional<Sizes>& dim,
                    std::optional<int64_t> correction, bool keepdim);
Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self, const std::optional<Sizes>& dim,
                    std::optional<int64_t> correction, bool keepdim);
// The p-norm over dims (all when empty), as PyTorch's norm_backward (0 where the norm is 0).
Tensor norm_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& p, const Tensor& result,
                     const Sizes& dim, bool keepdim);
// cumsum: the reversed cumulative sum of grad along dim.
Tensor cumsum_backward(const Tensor& grad, int64_t dim);

// ---- joining and splitting -------------------------------------------------------------------
// cat: each input's slice of grad along dim (legacy empty 1-D inputs get an empty gradient).
std::vector<Tensor> cat_tensors_backward(const Tensor& grad, const std::vector<Sizes>& sizes, int64_t dim);
// stack: grad unbound along dim.
std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim, const std::vector<Sizes>& sizes);
// split / split_with_sizes / unbind: the pieces' gradients (zeros for pieces that got none)
// joined back along dim.
Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, const Sizes& sizes);
Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, const Sizes& split_sizes, int64_t dim,
                                 const Sizes& sizes);
Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim, const Sizes& sizes);
// repeat: grad viewed as (r0, s0, r1, s1, ...) summed over the repeat dims.
Tensor repeat_backward(const Tensor& grad, const Sizes& repeats, const Sizes& sizes);
// index_copy: self's gradient is 0 at the overwritten slices; source's is those slices of grad.
Tensor index_copy_self_backward(const Tensor& grad, int64_t dim, const Tensor& index, const Sizes& source_sizes);
Tensor index_copy_source_backward(const Tensor& grad, int64_t dim, const Tensor& index, const Sizes& source_sizes);

// ---- indexing --------------------------------------------------------------------------------
// index.Tensor: grad added into zeros of self's shape at the indexed positions.
Tensor index_backward(const Tensor& grad, const Sizes& self_sizes, std::span<const std::optional<Tensor>> indices);
// index_put: with accumulate the gradient passes; otherwise it is 0 where values were written.
Tensor index_put_self_backward(const Tensor& grad, std::span<const std::optional<Tensor>> indices,
                               const Sizes& values_sizes, bool accumulate);
// gather: grad added into zeros of self's shape where it was gathered from (scatter_add_).
Tensor gather_backward(const Tensor& grad, const Sizes& self_sizes, int64_t dim, const Tensor& index);
// masked_select: grad written into zeros of the broadcast shape where mask is true, summed to self's.
Tensor masked_select_backward(const Tensor& grad, const Sizes& self_sizes, const Tensor& mask);
// index_select: grad added into zeros of self's shape at the selected slices.
Tensor index_select_backward(const Tensor& grad, const Sizes& self_sizes, int64_t dim, const Tensor& index);
// index_add: alpha * the slices of grad that source was added to.
Tensor index_add_source_backward(const Tensor& grad, int64_t dim, const Tensor& index, const Sizes& source_sizes,
                                 const Scalar& alpha);

// ---- torch.nn ----------------------------------------------------------------------------
// softmax: result * (grad - sum(grad * result, dim)); log_softmax: grad - exp(result) * sum(grad, dim).
Tensor softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim);
Tensor log_softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim);
// d/dinput of mse_loss(input, target): 2 * (input - target) * grad, divided by numel for Mean.
Tensor mse_loss_backward(const Tensor& grad, const Tensor& input, const Tensor& target, int64_t reduction);
Tensor sigmoid_backward(const Tensor& grad, const Tensor& result);  // grad * result * (1 - result)
Tensor tanh_backward(const Tensor& grad, const Tensor& result);     // grad * (1 - result^2)
// The activations' backward formulas as composites (activation_formulas.cpp), which create_graph
// differentiates again: silu's and mish's when grad mode is on (2.15's infinitely differentiable
// forms), softplus_backward's gradient for self, hardswish_backward's for self.
Tensor infinitely_differentiable_silu_backward(const Tensor& grad, const Tensor& self);
Tensor infinitely_differentiable_mish_backward(const Tensor& grad, const Tensor& self);
Tensor softplus_double_backward(const Tensor& grad, const Tensor& self, const Scalar& beta, const Scalar& threshold);
Tensor hardswish_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self);
// _prelu_kernel_backward's two gradients, the weight's summed to its (broadcast) shape, as the
// engine's validate_outputs sums a broadcast gradient in PyTorch.
std::tuple<Tensor, Tensor> prelu_kernel_backward(const Tensor& grad, const Tensor& self, const Tensor& weight);
// _prelu_kernel_backward's gradients for grad_output, self and weight, from the gradients of its
// two results (either may be undefined).
std::tuple<Tensor, Tensor, Tensor> prelu_kernel_double_backward(const Tensor& grad_grad_self,
                                                                const Tensor& grad_grad_weight,
                                                                const Tensor& grad_output, const Tensor& self,
                                                                const Tensor& weight);
// glu_backward's gradients for self and for grad_output.
Tensor glu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self, int64_t dim);
Tensor glu_double_backward_grad_output(const Tensor& grad, const Tensor& self, int64_t dim);
// elu_backward's gradient for self_or_result (celu's and selu's double backward go through it).
Tensor elu_double_backward(const Tensor& grad, const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                           const Scalar& input_scale, bool is_result, const Tensor& self_or_result);
// d/dtensor2 of self + value * tensor1 / tensor2: -grad * value * tensor1 / tensor2^2.
Tensor addcdiv_tensor2_backward(const Tensor& grad, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value);

}  // namespace ipt::autograd
