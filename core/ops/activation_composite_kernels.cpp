// The activations that are other operators (PyTorch 2.15's Activation.cpp): celu is elu with
// input_scale 1 / alpha; prelu checks its weight and reshapes it to broadcast over self's
// channels (dim 1) before _prelu_kernel; silu_backward and mish_backward have composite forms
// beside their kernels (for the dispatch keys without one: Meta for mish_backward).
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {
double celu_input_scale(const Scalar& alpha) {
  IPT_CHECK(alpha.to_double() != 0, RuntimeError, "ZeroDivisionError: alpha cannot be 0 for CELU");
  return 1.0 / alpha.to_double();
}
}  // namespace

Tensor celu(const Tensor& self, const Scalar& alpha) {
  return ops::elu(self, alpha, Scalar(1.0), Scalar(celu_input_scale(alpha)));
}
Tensor celu_(const Tensor& self, const Scalar& alpha) {
  return ops::elu_(self, alpha, Scalar(1.0), Scalar(celu_input_scale(alpha)));
}

Tensor prelu(const Tensor& self, const Tensor& weight) {
  const int64_t self_dim = self.dim();
  IPT_CHECK(self.dtype() == weight.dtype(), RuntimeError, "prelu: Type promoting not supported. Got ",
            dtype_cpp_name(self.dtype()), " and ", dtype_cpp_name(weight.dtype()));
  if (weight.numel() != 1) {
    IPT_CHECK(self_dim > 0, RuntimeError, "Not allow zero-dim input tensor.");
    const int64_t channel_size = self_dim > 1 ? self.sizes()[1] : 1;
    IPT_CHECK(channel_size == weight.numel(), RuntimeError,
              "Mismatch of parameter numbers and input channel size. Found parameter numbers = ", weight.numel(),
              " and channel size = ", channel_size, ".");
  }
  IPT_CHECK(weight.dim() <= 1, RuntimeError,
            "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = ", weight.dim());
  if (self_dim == weight.dim()) return ops::_prelu_kernel(self, weight);
  std::vector<int64_t> dims(static_cast<size_t>(self_dim), 1);
  if (self_dim > 1) dims[1] = weight.numel();
  return ops::_prelu_kernel(self, ops::reshape(weight, IntArrayRef(dims)));
}

// grad * (sigmoid(x) * (1 + x * (1 - sigmoid(x))))
Tensor math_silu_backward(const Tensor& grad_output, const Tensor& self) {
  const Tensor sigmoid = ops::sigmoid(self);
  const Tensor inner = ops::add_Scalar(ops::mul_Tensor(self, ops::rsub_Scalar(sigmoid, 1)), 1);
  return ops::mul_Tensor(grad_output, ops::mul_Tensor(sigmoid, inner));
}

// grad * (t + x * sigmoid(x) * (1 - t * t)) with t = tanh(softplus(x))
Tensor math_mish_backward(const Tensor& grad_output, const Tensor& self) {
  const Tensor t = ops::tanh(ops::softplus(self));
  const Tensor sigmoid = ops::sigmoid(self);
  const Tensor slope = ops::rsub_Scalar(ops::mul_Tensor(t, t), 1);
  return ops::mul_Tensor(grad_output, ops::add_Tensor(t, ops::mul_Tensor(ops::mul_Tensor(self, sigmoid), slope)));
}

}  // namespace ipt::native
