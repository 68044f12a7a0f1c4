// Composite kernels of the losses and similarities PyTorch 2.15 writes with operators
// (binary_cross_entropy_with_logits, l1_loss, kl_div, cosine_similarity, log_sigmoid), each
// calling what 2.15's calls, so the Dispatch view shows its chain.
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {
// at::Reduction: 0 none, 1 mean, 2 sum.
Tensor apply_loss_reduction(const Tensor& loss, int64_t reduction) {
  if (reduction == 1) return ops::mean(loss);
  if (reduction == 2) return ops::sum(loss);
  return loss;
}
}  // namespace

Tensor log_sigmoid(const Tensor& self) { return std::get<0>(ops::log_sigmoid_forward(self)); }

// (1 - y) x - log_sigmoid(x), log_sigmoid(x) weighted by (pos_weight - 1) y + 1.
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight, int64_t reduction) {
  Tensor log_sigmoid_input = ops::log_sigmoid(self);
  if (pos_weight && pos_weight->defined()) {
    Tensor log_weight = ops::add__Scalar(ops::mul_Tensor(ops::sub_Scalar(*pos_weight, Scalar(int64_t(1)), 1), target),
                                         Scalar(int64_t(1)), 1);
    log_sigmoid_input = ops::mul__Tensor(log_sigmoid_input, log_weight);
  }
  Tensor loss =
      ops::sub__Tensor(ops::mul__Tensor(ops::rsub_Scalar(target, Scalar(int64_t(1)), 1), self), log_sigmoid_input, 1);
  if (weight && weight->defined()) loss = ops::mul__Tensor(loss, *weight);
  return apply_loss_reduction(loss, reduction);
}

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return apply_loss_reduction(ops::abs(ops::sub_Tensor(self, target, 1)), reduction);
}

Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction, bool log_target) {
  IPT_CHECK(is_floating(self.dtype()) && is_floating(target.dtype()), RuntimeError,
            "kl_div: Integral inputs not supported.");
  Tensor output = log_target ? ops::mul_Tensor(ops::exp(target), ops::sub_Tensor(target, self, 1))
                             : ops::sub_Tensor(ops::xlogy_Tensor(target, target), ops::mul_Tensor(target, self), 1);
  return apply_loss_reduction(output, reduction);
}

// <x1, x2> / (|x1| |x2|), each divided by its norm (clamped at eps) first.
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps) {
  const ScalarType common = result_type({&x1, &x2});
  IPT_CHECK(is_floating(common), RuntimeError, "expected common dtype to be floating point, yet common dtype is ",
            dtype_element_name(common));
  const std::vector<int64_t> shape = broadcast_shapes(x1.sizes(), x2.sizes());
  Tensor a = ops::expand(x1.dtype() == common ? x1 : ops::_to_copy(x1, common), shape);
  Tensor b = ops::expand(x2.dtype() == common ? x2 : ops::_to_copy(x2, common), shape);
  const std::vector<int64_t> d = {dim};
  Tensor n1 = ops::clone(ops::linalg_vector_norm(a, Scalar(2), d, true, std::nullopt), std::nullopt);
  Tensor n2 = ops::clone(ops::linalg_vector_norm(b, Scalar(2), d, true, std::nullopt), std::nullopt);
  {
    NoGradGuard no_grad;
    ops::clamp_min_(n1, Scalar(eps));
    ops::clamp_min_(n2, Scalar(eps));
  }
  return ops::sum_dim_IntList(ops::mul_Tensor(ops::div_Tensor(a, n1), ops::div_Tensor(b, n2)), d, false, std::nullopt);
}

}  // namespace ipt::native
