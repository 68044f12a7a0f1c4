// The activations' backward formulas that are composites of operators (PyTorch 2.15's
// FunctionsManual.cpp forms), so that create_graph can differentiate them again.
#include "core/autograd/formulas.h"
#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"

namespace ipt::autograd {

// grad * sigmoid(self) * (1 + self * (1 - sigmoid(self)))
Tensor infinitely_differentiable_silu_backward(const Tensor& grad, const Tensor& self) {
  const Tensor sigmoid = ops::sigmoid(self);
  const Tensor inner = ops::add_Scalar(ops::mul_Tensor(self, ops::rsub_Scalar(sigmoid, 1.0)), 1.0);
  return ops::mul_Tensor(ops::mul_Tensor(grad, sigmoid), inner);
}

// grad * (t + self * sigmoid(self) * (1 - t * t)) with t = tanh(log1p(exp(self)))
Tensor infinitely_differentiable_mish_backward(const Tensor& grad, const Tensor& self) {
  const Tensor sigmoid = ops::sigmoid(self);
  const Tensor tanh_softplus = ops::tanh(ops::log1p(ops::exp(self)));
  const Tensor slope = ops::rsub_Scalar(ops::mul_Tensor(tanh_softplus, tanh_softplus), 1.0);
  const Tensor inner = ops::add_Tensor(tanh_softplus, ops::mul_Tensor(ops::mul_Tensor(self, sigmoid), slope));
  return ops::mul_Tensor(grad, inner);
}

// sigmoid_backward(grad, sigmoid(self * beta)) * (self * beta < threshold) * beta
Tensor softplus_double_backward(const Tensor& grad, const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  const Tensor x = ops::mul_Scalar(self, beta);
  const Tensor below = ops::lt_Scalar(x, threshold);
  return ops::mul_Scalar(ops::mul_Tensor(sigmoid_backward(grad, ops::sigmoid(x)), below), beta);
}

// where(-3 < self < 3, grad * grad_output / 3, 0)
Tensor hardswish_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self) {
  const Tensor inside = ops::logical_and(ops::gt_Scalar(self, Scalar(-3.0)), ops::lt_Scalar(self, Scalar(3.0)));
  const Tensor value = ops::div_Scalar(ops::mul_Tensor(grad, grad_output), Scalar(3.0));
  return ops::where_self(inside, value, native::wrapped_scalar_tensor(0.0));
}

std::tuple<Tensor, Tensor> prelu_kernel_backward(const Tensor& grad, const Tensor& self, const Tensor& weight) {
  auto [grad_self, grad_weight] = ops::_prelu_kernel_backward(grad, self, weight);
  return {sum_to(grad_self, self.sizes()), sum_to(grad_weight, weight.sizes())};
}

std::tuple<Tensor, Tensor, Tensor> prelu_kernel_double_backward(const Tensor& gg_self, const Tensor& gg_weight,
                                                                const Tensor& grad_output, const Tensor& self,
                                                                const Tensor& weight) {
  const Tensor positive = ops::ge_Scalar(self, Scalar(0.0));
  const Tensor zero = native::wrapped_scalar_tensor(0.0);
  Tensor d_grad_output;
  if (gg_self.defined()) {
    const Tensor negative_part =
        gg_weight.defined() ? ops::add_Tensor(ops::mul_Tensor(gg_self, weight), ops::mul_Tensor(gg_weight, self))
                            : ops::mul_Tensor(gg_self, weight);
    d_grad_output = ops::where_self(positive, gg_self, negative_part);
  } else {
    d_grad_output = ops::where_self(positive, zero, ops::mul_Tensor(gg_weight, self));
  }
  const Tensor d_self = gg_weight.defined() ? ops::where_self(positive, zero, ops::mul_Tensor(grad_output, gg_weight))
                                            : ops::zeros_like(self);
  const Tensor d_weight = gg_self.defined() ? ops::where_self(positive, zero, ops::mul_Tensor(grad_output, gg_self))
                                            : ops::zeros_like(self);
  return {d_grad_output, d_self, sum_to(d_weight, weight.sizes())};
}

Tensor glu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self, int64_t dim) {
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t half = self.sizes()[d] / 2;
  const Tensor first = ops::narrow(self, d, 0, half);
  const Tensor sig = ops::sigmoid(ops::narrow(self, d, half, half));
  const Tensor one_sub_sig = ops::rsub_Scalar(sig, 1.0);
  const Tensor sig_one_sub_sig = ops::mul_Tensor(sig, one_sub_sig);
  const Tensor gg_first = ops::narrow(grad, d, 0, half);
  const Tensor gg_second = ops::narrow(grad, d, half, half);
  const Tensor gg_second_times_first = ops::mul_Tensor(gg_second, first);
  const Tensor gi_first = ops::mul_Tensor(ops::mul_Tensor(gg_second, grad_output), sig_one_sub_sig);
  const Tensor second_order =
      ops::sub_Tensor(ops::mul_Tensor(sig_one_sub_sig, one_sub_sig), ops::mul_Tensor(sig, sig_one_sub_sig));
  const Tensor gi_second =
      ops::add_Tensor(ops::mul_Tensor(ops::mul_Tensor(gg_second_times_first, grad_output), second_order),
                      ops::mul_Tensor(ops::mul_Tensor(gg_first, grad_output), sig_one_sub_sig));
  const std::vector<Tensor> halves = {gi_first, gi_second};
  return ops::cat(halves, d);
}

Tensor glu_double_backward_grad_output(const Tensor& grad, const Tensor& self, int64_t dim) {
  const int64_t d = wrap_dim(dim, self.dim());
  std::vector<int64_t> sizes = self.sizes();
  sizes[static_cast<size_t>(d)] /= 2;
  const Tensor ones = ops::ones_like(ops::narrow(self, d, 0, sizes[static_cast<size_t>(d)]));
  const Tensor tmp = ops::mul_Tensor(grad, ops::glu_backward(ones, self, d));
  return ops::add_Tensor(ops::narrow(tmp, d, 0, sizes[static_cast<size_t>(d)]),
                         ops::narrow(tmp, d, sizes[static_cast<size_t>(d)], sizes[static_cast<size_t>(d)]));
}

// grad * grad_output * input_scale where self_or_result < 0 (is_result), else elu_backward of
// that product, there.
Tensor elu_double_backward(const Tensor& grad, const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                           const Scalar& input_scale, bool is_result, const Tensor& self_or_result) {
  const Tensor negative = to_dtype(ops::lt_Scalar(self_or_result, Scalar(0.0)), grad.dtype());
  const Tensor scaled = ops::mul_Scalar(ops::mul_Tensor(grad, grad_output), input_scale);
  if (is_result) return ops::mul_Tensor(scaled, negative);
  return ops::mul_Tensor(ops::elu_backward(scaled, alpha, scale, input_scale, is_result, self_or_result), negative);
}

}  // namespace ipt::autograd
