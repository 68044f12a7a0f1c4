// The cases of ops_expected_test.cpp (see ops_expected_cases.h).
#include "tests/runtime/ops_expected_cases.h"

#include <cmath>
#include <limits>

#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"
#include "generated/ops.h"

namespace ipt::ops_expected {

namespace {

using V = std::vector<int64_t>;

std::optional<Tensor> opt(const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; }
constexpr int64_t kNone = 0, kMean = 1, kSum = 2;
// An index list for index / index_put_ (undefined tensors are the `:` entries).
std::vector<std::optional<Tensor>> idx(std::initializer_list<Tensor> ts) {
  std::vector<std::optional<Tensor>> v;
  for (const Tensor& t : ts) v.push_back(opt(t));
  return v;
}

// clang-format off
const std::map<std::string, Fn>& all_cases() {
  static const std::map<std::string, Fn> cases = {
  // ---- group 1: torch.nn and torch.optim ---------------------------------------------------
  {"addmm/basic", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/beta_alpha", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2], 0.5, 2); }},
  {"addmm/broadcast_bias", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/row_bias", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2], 1, -1); }},
  {"addmm/beta0_ignores_nan", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2], 0); }},
  {"addmm/transposed", [](const In& x) -> Out { return ops::addmm(x[0], ops::t(x[1]), ops::t(x[2])); }},
  {"addmm/float64", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2], 2, 0.5); }},
  {"addmm/k0", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2], 3); }},
  {"addmm/int", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2], 2, 3); }},
  {"addmm/int_float_alpha", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2], 1, 0.5); }},
  {"addmm/err_shapes", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/err_mat1_1d", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/err_mat2_3d", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/err_self_dtype", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/err_mat2_dtype", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/err_mat1_dtype", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},
  {"addmm/err_bias", [](const In& x) -> Out { return ops::addmm(x[0], x[1], x[2]); }},

  {"linear/2d_bias", [](const In& x) -> Out { return ops::linear(x[0], x[1], x[2]); }},
  {"linear/2d_no_bias", [](const In& x) -> Out { return ops::linear(x[0], x[1]); }},
  {"linear/3d_bias", [](const In& x) -> Out { return ops::linear(x[0], x[1], x[2]); }},
  {"linear/3d_noncontiguous", [](const In& x) -> Out { return ops::linear(ops::transpose_int(x[0], 0, 1), x[1], x[2]); }},
  {"linear/1d_bias", [](const In& x) -> Out { return ops::linear(x[0], x[1], x[2]); }},
  {"linear/1d_no_bias", [](const In& x) -> Out { return ops::linear(x[0], x[1]); }},
  {"linear/4d_bias", [](const In& x) -> Out { return ops::linear(x[0], x[1], x[2]); }},
  {"linear/float64", [](const In& x) -> Out { return ops::linear(x[0], x[1], x[2]); }},
  {"linear/err_weight", [](const In& x) -> Out { return ops::linear(x[0], x[1]); }},
  {"linear/err_bias", [](const In& x) -> Out { return ops::linear(x[0], x[1], x[2]); }},

  {"softmax/dim0", [](const In& x) -> Out { return ops::softmax_int(x[0], 0); }},
  {"softmax/dim1", [](const In& x) -> Out { return ops::softmax_int(x[0], 1); }},
  {"softmax/dim-1", [](const In& x) -> Out { return ops::softmax_int(x[0], -1); }},
  {"log_softmax/dim0", [](const In& x) -> Out { return ops::log_softmax_int(x[0], 0); }},
  {"log_softmax/dim1", [](const In& x) -> Out { return ops::log_softmax_int(x[0], 1); }},
  {"log_softmax/dim-1", [](const In& x) -> Out { return ops::log_softmax_int(x[0], -1); }},
  {"softmax/3d_dim1", [](const In& x) -> Out { return ops::softmax_int(x[0], 1); }},
  {"log_softmax/3d_dim1", [](const In& x) -> Out { return ops::log_softmax_int(x[0], 1); }},
  {"softmax/0d", [](const In& x) -> Out { return ops::softmax_int(x[0], 0); }},
  {"log_softmax/0d", [](const In& x) -> Out { return ops::log_softmax_int(x[0], -1); }},
  {"softmax/transposed", [](const In& x) -> Out { return ops::softmax_int(ops::t(x[0]), 1); }},
  {"softmax/large_values", [](const In& x) -> Out { return ops::softmax_int(x[0], 0); }},
  {"log_softmax/large_values", [](const In& x) -> Out { return ops::log_softmax_int(x[0], 0); }},
  {"softmax/dtype_float64", [](const In& x) -> Out { return ops::softmax_int(x[0], 1, ScalarType::Double); }},
  {"log_softmax/dtype_float64", [](const In& x) -> Out { return ops::log_softmax_int(x[0], 1, ScalarType::Double); }},
  {"softmax/int_with_dtype", [](const In& x) -> Out { return ops::softmax_int(x[0], 0, ScalarType::Float); }},
  {"softmax/float64", [](const In& x) -> Out { return ops::softmax_int(x[0], 1); }},
  {"_softmax/direct", [](const In& x) -> Out { return ops::_softmax(x[0], 1, false); }},
  {"_log_softmax/direct", [](const In& x) -> Out { return ops::_log_softmax(x[0], 0, false); }},
  {"softmax/err_int", [](const In& x) -> Out { return ops::softmax_int(x[0], 0); }},
  {"softmax/err_int_dim0_of_2d", [](const In& x) -> Out { return ops::softmax_int(x[0], 0); }},
  {"log_softmax/err_int", [](const In& x) -> Out { return ops::log_softmax_int(x[0], 1); }},
  {"softmax/err_dim", [](const In& x) -> Out { return ops::softmax_int(x[0], 2); }},

  {"nll_loss/mean", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kMean); }},
  {"nll_loss/sum", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kSum); }},
  {"nll_loss/none", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kNone); }},
  {"nll_loss/weight_mean", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], x[2], kMean); }},
  {"nll_loss/weight_sum", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], x[2], kSum); }},
  {"nll_loss/weight_none", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], x[2], kNone); }},
  {"nll_loss/ignore_mean", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kMean, 0); }},
  {"nll_loss/ignore_sum", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kSum, 0); }},
  {"nll_loss/ignore_none", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kNone, 0); }},
  {"nll_loss/default_ignore_index", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/all_ignored", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/1d_input", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/1d_input_none", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kNone); }},
  {"nll_loss/float64", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/3d_input", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/3d_input_none", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], std::nullopt, kNone); }},
  {"nll_loss/4d_input_weight", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], x[2]); }},
  {"nll_loss/err_weight_requires_grad", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], x[2]); }},
  {"nll_loss_forward/mean", [](const In& x) -> Out { return ops::nll_loss_forward(x[0], x[1], std::nullopt, kMean, -100); }},
  {"nll_loss_forward/none", [](const In& x) -> Out { return ops::nll_loss_forward(x[0], x[1], std::nullopt, kNone, -100); }},
  {"nll_loss_forward/sum_weight", [](const In& x) -> Out { return ops::nll_loss_forward(x[0], x[1], x[2], kSum, 2); }},
  {"nll_loss/err_batch", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/err_target_bounds", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/err_target_negative", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/err_target_float", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/err_weight", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1], x[2]); }},
  {"nll_loss/err_0d_input", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss/err_3d_target", [](const In& x) -> Out { return ops::nll_loss_nd(x[0], x[1]); }},
  {"nll_loss_forward/err_2d_target", [](const In& x) -> Out { return ops::nll_loss_forward(x[0], x[1], std::nullopt, kMean, -100); }},

  {"cross_entropy/mean", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean); }},
  {"cross_entropy/sum", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kSum); }},
  {"cross_entropy/none", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kNone); }},
  {"cross_entropy/probs_mean", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean); }},
  {"cross_entropy/probs_sum", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kSum); }},
  {"cross_entropy/probs_none", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kNone); }},
  {"cross_entropy/weight", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], x[2]); }},
  {"cross_entropy/ignore_index", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean, 1); }},
  {"cross_entropy/1d", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1]); }},
  {"cross_entropy/3d", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1]); }},
  {"cross_entropy/float64", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1]); }},
  {"cross_entropy/probs_weight", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], x[2]); }},
  {"cross_entropy/probs_label_smoothing", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean, -100, 0.2); }},
  {"cross_entropy/label_smoothing_mean", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean, -100, 0.1); }},
  {"cross_entropy/label_smoothing_sum", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kSum, -100, 0.1); }},
  {"cross_entropy/label_smoothing_none", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kNone, -100, 0.1); }},
  {"cross_entropy/label_smoothing_weight_mean", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], x[2], kMean, 0, 0.3); }},
  {"cross_entropy/label_smoothing_weight_sum", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], x[2], kSum, 0, 0.3); }},
  {"cross_entropy/label_smoothing_weight_none", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], x[2], kNone, 0, 0.3); }},
  {"cross_entropy/label_smoothing_ignore", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean, 4, 0.2); }},
  {"cross_entropy/label_smoothing_1d", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean, -100, 0.5); }},
  {"cross_entropy/label_smoothing_3d", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean, -100, 0.25); }},
  {"cross_entropy/label_smoothing_1d_weight_ignored", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], x[2], kMean, 2, 0.5); }},
  {"cross_entropy/err_label_smoothing", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1], std::nullopt, kMean, -100, 1.5); }},
  {"cross_entropy/err_batch", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1]); }},
  {"cross_entropy/err_probs_int", [](const In& x) -> Out { return ops::cross_entropy_loss(x[0], x[1]); }},

  {"mse_loss/mean", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1], kMean); }},
  {"mse_loss/sum", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1], kSum); }},
  {"mse_loss/none", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1], kNone); }},
  {"mse_loss/broadcast", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1]); }},
  {"mse_loss/broadcast_none", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1], kNone); }},
  {"mse_loss/float64", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1]); }},
  {"mse_loss/mixed_dtypes", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1]); }},
  {"mse_loss/err_int", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1]); }},
  {"mse_loss/err_shapes", [](const In& x) -> Out { return ops::mse_loss(x[0], x[1]); }},

#define IPT_UNARY_CASES(f)                                                                          \
  {#f "/float", [](const In& x) -> Out { return ops::f(x[0]); }},                                   \
  {#f "/float64", [](const In& x) -> Out { return ops::f(x[0]); }},                                 \
  {#f "/transposed", [](const In& x) -> Out { return ops::f(ops::t(x[0])); }},                      \
  {#f "/inplace", [](const In& x) -> Out { return ops::f##_(ops::clone(x[0])); }},                  \
  {#f "/int", [](const In& x) -> Out { return ops::f(x[0]); }},                                     \
  {#f "/bool", [](const In& x) -> Out { return ops::f(x[0]); }},                                    \
  {#f "/err_inplace_int", [](const In& x) -> Out { return ops::f##_(x[0]); }},
  IPT_UNARY_CASES(sigmoid)
  IPT_UNARY_CASES(tanh)
  IPT_UNARY_CASES(sqrt)
  {"sqrt/negative_and_special", [](const In& x) -> Out { return ops::sqrt(x[0]); }},
  {"sigmoid/special", [](const In& x) -> Out { return ops::sigmoid(x[0]); }},
  {"tanh/special", [](const In& x) -> Out { return ops::tanh(x[0]); }},

  {"addcmul/basic", [](const In& x) -> Out { return ops::addcmul(x[0], x[1], x[2], 0.5); }},
  {"addcmul/broadcast", [](const In& x) -> Out { return ops::addcmul(x[0], x[1], x[2], -2); }},
  {"addcmul/default_value", [](const In& x) -> Out { return ops::addcmul(x[0], x[1], x[2]); }},
  {"addcmul/inplace", [](const In& x) -> Out { return ops::addcmul_(ops::clone(x[0]), x[1], x[2], 0.25); }},
  {"addcmul/int", [](const In& x) -> Out { return ops::addcmul(x[0], x[1], x[2], 2); }},
  {"addcmul/int_float_value", [](const In& x) -> Out { return ops::addcmul(x[0], x[1], x[2], 0.5); }},
  {"addcmul/promote", [](const In& x) -> Out { return ops::addcmul(x[0], x[1], x[2]); }},
  {"addcmul/err_inplace_shape", [](const In& x) -> Out { return ops::addcmul_(x[0], x[1], x[2]); }},
  {"addcmul/err_inplace_dtype", [](const In& x) -> Out { return ops::addcmul_(x[0], x[1], x[2]); }},
  {"addcdiv/basic", [](const In& x) -> Out { return ops::addcdiv(x[0], x[1], x[2], 0.5); }},
  {"addcdiv/broadcast", [](const In& x) -> Out { return ops::addcdiv(x[0], x[1], x[2], -2); }},
  {"addcdiv/inplace", [](const In& x) -> Out { return ops::addcdiv_(ops::clone(x[0]), x[1], x[2], -0.1); }},
  {"addcdiv/float64", [](const In& x) -> Out { return ops::addcdiv(x[0], x[1], x[2]); }},
  {"addcdiv/int_self", [](const In& x) -> Out { return ops::addcdiv(x[0], x[1], x[2]); }},
  {"addcdiv/err_int", [](const In& x) -> Out { return ops::addcdiv(x[0], x[1], x[2]); }},
  {"addcdiv/err_int_float_self", [](const In& x) -> Out { return ops::addcdiv(x[0], x[1], x[2]); }},

  {"div_Scalar/float", [](const In& x) -> Out { return ops::div_Scalar(x[0], 4); }},
  {"div_Scalar/int_by_int", [](const In& x) -> Out { return ops::div_Scalar(x[0], 2); }},
  {"zero_/float", [](const In& x) -> Out { return ops::zero_(ops::clone(x[0])); }},
  {"zero_/int", [](const In& x) -> Out { return ops::zero_(x[0]); }},
  {"zeros_like/transposed", [](const In& x) -> Out { return ops::zeros_like(ops::t(x[0])); }},
  {"zeros_like/sliced", [](const In& x) -> Out { return ops::zeros_like(ops::slice_Tensor(x[0], 1, std::nullopt, std::nullopt, 2)); }},
  {"zeros_like/dtype", [](const In& x) -> Out { return ops::zeros_like(x[0], ScalarType::Long); }},
  {"ones_like/float", [](const In& x) -> Out { return ops::ones_like(x[0]); }},
  {"ones_like/bool", [](const In& x) -> Out { return ops::ones_like(x[0], ScalarType::Bool); }},
  {"full_like/int", [](const In& x) -> Out { return ops::full_like(x[0], 7); }},
  {"full_like/float_into_int", [](const In& x) -> Out { return ops::full_like(x[0], 2.5); }},
  {"full_like/float", [](const In& x) -> Out { return ops::full_like(x[0], -1.5); }},
  {"conj/float", [](const In& x) -> Out { return ops::conj(x[0]); }},

  // ---- group 2: elementwise math -----------------------------------------------------------
#define IPT_MATH_CASES(f)                                                                           \
  {#f "/float", [](const In& x) -> Out { return ops::f(x[0]); }},                                   \
  {#f "/float64", [](const In& x) -> Out { return ops::f(x[0]); }},                                 \
  {#f "/transposed", [](const In& x) -> Out { return ops::f(ops::t(x[0])); }},                      \
  {#f "/inplace", [](const In& x) -> Out { return ops::f##_(ops::clone(x[0])); }},                  \
  {#f "/int", [](const In& x) -> Out { return ops::f(x[0]); }},                                     \
  {#f "/bool", [](const In& x) -> Out { return ops::f(x[0]); }},                                    \
  {#f "/inplace_int", [](const In& x) -> Out { return ops::f##_(x[0]); }},                          \
  {#f "/special", [](const In& x) -> Out { return ops::f(x[0]); }},
  IPT_MATH_CASES(sin)
  IPT_MATH_CASES(cos)
  IPT_MATH_CASES(tan)
  IPT_MATH_CASES(log)
  IPT_MATH_CASES(rsqrt)
  IPT_MATH_CASES(abs)
  IPT_MATH_CASES(floor)
  IPT_MATH_CASES(ceil)
  IPT_MATH_CASES(sign)
  {"clamp/both", [](const In& x) -> Out { return ops::clamp(x[0], -0.5, 1.0); }},
  {"clamp/min", [](const In& x) -> Out { return ops::clamp(x[0], 0.0); }},
  {"clamp/max", [](const In& x) -> Out { return ops::clamp(x[0], std::nullopt, 0.5); }},
  {"clamp/min_above_max", [](const In& x) -> Out { return ops::clamp(x[0], 1, -1); }},
  {"clamp/grad", [](const In& x) -> Out { return ops::clamp(x[0], -0.5, 1.0); }},
  {"clamp/grad_at_bounds", [](const In& x) -> Out { return ops::clamp(x[0], -0.5, 1.0); }},
  {"clamp/grad_min_only", [](const In& x) -> Out { return ops::clamp(x[0], 0.1); }},
  {"clamp/inplace", [](const In& x) -> Out { return ops::clamp_(ops::clone(x[0]), -1, 1); }},
  {"clamp/int", [](const In& x) -> Out { return ops::clamp(x[0], -1, 1); }},
  {"clamp/int_float_min", [](const In& x) -> Out { return ops::clamp(x[0], 0.5); }},
  {"clamp/bool", [](const In& x) -> Out { return ops::clamp(x[0], 0, 1); }},
  {"clamp/float64", [](const In& x) -> Out { return ops::clamp(x[0], -0.25, 0.25); }},
  {"clamp/transposed", [](const In& x) -> Out { return ops::clamp(ops::t(x[0]), -0.25, 0.25); }},
  {"clamp/err_no_bounds", [](const In& x) -> Out { return ops::clamp(x[0]); }},
  {"clamp/err_inplace_int_float", [](const In& x) -> Out { return ops::clamp_(x[0], 0.5); }},
  {"where/basic", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/broadcast", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/broadcast_condition", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/promote", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/int", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/float64", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/method", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/err_condition", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},
  {"where/err_shapes", [](const In& x) -> Out { return ops::where_self(x[0], x[1], x[2]); }},

  // ---- group 3: comparisons, masks and indexing ---------------------------------------------
#define IPT_COMPARE_CASES(f)                                                                        \
  {#f "/tensor", [](const In& x) -> Out { return ops::f##_Tensor(x[0], x[1]); }},                   \
  {#f "/scalar", [](const In& x) -> Out { return ops::f##_Scalar(x[0], 3.0); }},                    \
  {#f "/int_float_scalar", [](const In& x) -> Out { return ops::f##_Scalar(x[0], 1.5); }},          \
  {#f "/int_vs_float", [](const In& x) -> Out { return ops::f##_Tensor(x[0], x[1]); }},             \
  {#f "/bool", [](const In& x) -> Out { return ops::f##_Tensor(x[0], x[1]); }},                     \
  {#f "/transposed", [](const In& x) -> Out { return ops::f##_Tensor(ops::t(x[0]), x[1]); }},       \
  {#f "/err_shapes", [](const In& x) -> Out { return ops::f##_Tensor(x[0], x[1]); }},
  IPT_COMPARE_CASES(eq)
  IPT_COMPARE_CASES(ne)
  IPT_COMPARE_CASES(lt)
  IPT_COMPARE_CASES(le)
  IPT_COMPARE_CASES(gt)
  IPT_COMPARE_CASES(ge)
  {"eq/grad_input_gives_no_grad_fn", [](const In& x) -> Out { return ops::eq_Tensor(x[0], x[1]); }},
  {"equal/same", [](const In& x) -> Out { return ops::equal(x[0], x[1]); }},
  {"equal/different", [](const In& x) -> Out { return ops::equal(x[0], x[1]); }},
  {"equal/shapes", [](const In& x) -> Out { return ops::equal(x[0], x[1]); }},
  {"equal/nan", [](const In& x) -> Out { return ops::equal(x[0], x[0]); }},
  {"equal/dtypes", [](const In& x) -> Out { return ops::equal(x[0], x[1]); }},
  {"equal/transposed", [](const In& x) -> Out { return ops::equal(ops::t(x[0]), ops::contiguous(ops::t(x[0]))); }},
  {"isclose/default", [](const In& x) -> Out { return ops::isclose(x[0], x[1]); }},
  {"isclose/equal_nan", [](const In& x) -> Out { return ops::isclose(x[0], x[1], 1e-05, 1e-08, true); }},
  {"isclose/tolerances", [](const In& x) -> Out { return ops::isclose(x[0], x[1], 0.1, 0.01); }},
  {"isclose/zero_tolerances", [](const In& x) -> Out { return ops::isclose(x[0], x[1], 0, 0); }},
  {"isclose/int", [](const In& x) -> Out { return ops::isclose(x[0], x[1], 1e-05, 1); }},
  {"isclose/broadcast", [](const In& x) -> Out { return ops::isclose(x[0], x[1]); }},
  {"isclose/err_dtypes", [](const In& x) -> Out { return ops::isclose(x[0], x[1]); }},
  {"isclose/err_rtol", [](const In& x) -> Out { return ops::isclose(x[0], x[1], -1); }},
  {"allclose/true", [](const In& x) -> Out { return ops::allclose(x[0], x[1]); }},
  {"allclose/false", [](const In& x) -> Out { return ops::allclose(x[0], x[1]); }},
  {"allclose/nan", [](const In& x) -> Out { return ops::allclose(x[0], x[1]); }},
  {"allclose/equal_nan", [](const In& x) -> Out { return ops::allclose(x[0], x[1], 1e-05, 1e-08, true); }},
  {"allclose/atol", [](const In& x) -> Out { return ops::allclose(x[0], x[1], 1e-05, 0.2); }},
  {"isfinite/float", [](const In& x) -> Out { return ops::isfinite(x[0]); }},
  {"isfinite/int", [](const In& x) -> Out { return ops::isfinite(x[0]); }},
  {"isnan/float", [](const In& x) -> Out { return ops::isnan(x[0]); }},
  {"isnan/int", [](const In& x) -> Out { return ops::isnan(x[0]); }},
  {"logical_not/float", [](const In& x) -> Out { return ops::logical_not(x[0]); }},
  {"logical_not/int", [](const In& x) -> Out { return ops::logical_not(x[0]); }},
  {"logical_not/bool", [](const In& x) -> Out { return ops::logical_not(x[0]); }},
  {"logical_not/inplace_float", [](const In& x) -> Out { return ops::logical_not_(x[0]); }},
  {"logical_not/inplace_bool", [](const In& x) -> Out { return ops::logical_not_(x[0]); }},
  {"logical_and/basic", [](const In& x) -> Out { return ops::logical_and(x[0], x[1]); }},
  {"logical_or/basic", [](const In& x) -> Out { return ops::logical_or(x[0], x[1]); }},
  {"all/true", [](const In& x) -> Out { return ops::all(x[0]); }},
  {"all/false", [](const In& x) -> Out { return ops::all(x[0]); }},
  {"all/empty", [](const In& x) -> Out { return ops::all(x[0]); }},
  {"any/false", [](const In& x) -> Out { return ops::any(x[0]); }},
  {"any/true", [](const In& x) -> Out { return ops::any(x[0]); }},
  {"any/empty", [](const In& x) -> Out { return ops::any(x[0]); }},
  {"nonzero/2d", [](const In& x) -> Out { return ops::nonzero(x[0]); }},
  {"nonzero/bool_1d", [](const In& x) -> Out { return ops::nonzero(x[0]); }},
  {"nonzero/none", [](const In& x) -> Out { return ops::nonzero(x[0]); }},
  {"nonzero/0d", [](const In& x) -> Out { return ops::nonzero(x[0]); }},
  {"masked_fill_/basic", [](const In& x) -> Out { return ops::masked_fill__Scalar(ops::clone(x[0]), x[1], -1.5); }},
  {"masked_fill_/broadcast_mask", [](const In& x) -> Out { return ops::masked_fill__Scalar(ops::clone(x[0]), x[1], 0); }},
  {"masked_fill_/int_float_value", [](const In& x) -> Out { return ops::masked_fill__Scalar(x[0], x[1], 2.5); }},
  {"masked_fill_/0d_mask", [](const In& x) -> Out { return ops::masked_fill__Scalar(x[0], x[1], 9); }},
  {"masked_fill_/err_shape", [](const In& x) -> Out { return ops::masked_fill__Scalar(x[0], x[1], 0); }},
  {"masked_fill_/err_mask_shape", [](const In& x) -> Out { return ops::masked_fill__Scalar(x[0], x[1], 0); }},
  {"masked_fill/basic", [](const In& x) -> Out { return ops::masked_fill_Scalar(x[0], x[1], 3.0); }},
  {"masked_fill/broadcast_self", [](const In& x) -> Out { return ops::masked_fill_Scalar(x[0], x[1], 0.5); }},
  {"masked_fill/transposed", [](const In& x) -> Out { return ops::masked_fill_Scalar(ops::t(x[0]), x[1], 0.5); }},
  {"index/long_dim0", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/long_repeat", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/long_2d_index", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/two_adjacent", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1], x[2]})); }},
  {"index/broadcast", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1], x[2]})); }},
  {"index/slice_then_index", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({Tensor(), x[1]})); }},
  {"index/non_adjacent", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1], Tensor(), x[2]})); }},
  {"index/mask", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/mask_2d", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/mask_after_slice", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({Tensor(), x[1]})); }},
  {"index/mask_all_false", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/int", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/transposed", [](const In& x) -> Out { return ops::index_Tensor(ops::t(x[0]), idx({x[1]})); }},
  {"index/float64", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/err_bounds", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/err_bounds_second", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({Tensor(), x[1]})); }},
  {"index/err_negative_bounds", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/err_dtype", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/err_too_many", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1], x[2], x[3]})); }},
  {"index/err_mask_shape", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1]})); }},
  {"index/err_broadcast", [](const In& x) -> Out { return ops::index_Tensor(x[0], idx({x[1], x[2]})); }},
  {"index_put_/mask_scalar_value", [](const In& x) -> Out { return ops::index_put_(ops::clone(x[0]), idx({x[1]}), x[2]); }},
  {"index_put_/mask_values", [](const In& x) -> Out { return ops::index_put_(ops::clone(x[0]), idx({x[1]}), x[2]); }},
  {"index_put_/long_rows", [](const In& x) -> Out { return ops::index_put_(ops::clone(x[0]), idx({x[1]}), x[2]); }},
  {"index_put_/broadcast_values", [](const In& x) -> Out { return ops::index_put_(ops::clone(x[0]), idx({x[1]}), x[2]); }},
  {"index_put_/accumulate_duplicates", [](const In& x) -> Out { return ops::index_put_(ops::clone(x[0]), idx({x[1]}), x[2], true); }},
  {"index_put_/two_indices", [](const In& x) -> Out { return ops::index_put_(ops::clone(x[0]), idx({x[1], x[2]}), x[3]); }},
  {"index_put_/slice_then_index", [](const In& x) -> Out { return ops::index_put_(ops::clone(x[0]), idx({Tensor(), x[1]}), x[2]); }},
  {"index_put_/int", [](const In& x) -> Out { return ops::index_put_(x[0], idx({x[1]}), x[2]); }},
  {"index_put/functional", [](const In& x) -> Out { return ops::index_put(x[0], idx({x[1]}), x[2]); }},
  {"index_put/accumulate", [](const In& x) -> Out { return ops::index_put(x[0], idx({x[1]}), x[2], true); }},
  {"index_put_/err_dtype", [](const In& x) -> Out { return ops::index_put_(x[0], idx({x[1]}), x[2]); }},
  {"index_put_/err_values_shape", [](const In& x) -> Out { return ops::index_put_(x[0], idx({x[1]}), x[2]); }},
  {"index_put_/err_bounds", [](const In& x) -> Out { return ops::index_put_(x[0], idx({x[1]}), x[2]); }},
  {"_index_put_impl_/direct", [](const In& x) -> Out { return ops::_index_put_impl_(ops::clone(x[0]), idx({x[1]}), x[2]); }},
  {"index_select/dim0", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/dim1", [](const In& x) -> Out { return ops::index_select(x[0], 1, x[1]); }},
  {"index_select/dim_neg", [](const In& x) -> Out { return ops::index_select(x[0], -1, x[1]); }},
  {"index_select/0d_index", [](const In& x) -> Out { return ops::index_select(x[0], 1, x[1]); }},
  {"index_select/empty_index", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/scalar_self", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/transposed", [](const In& x) -> Out { return ops::index_select(ops::t(x[0]), 0, x[1]); }},
  {"index_select/int", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/err_bounds", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/err_negative", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/err_dim1_bounds", [](const In& x) -> Out { return ops::index_select(x[0], 1, x[1]); }},
  {"index_select/err_dim1_3d", [](const In& x) -> Out { return ops::index_select(x[0], 1, x[1]); }},
  {"index_select/err_last_dim_3d", [](const In& x) -> Out { return ops::index_select(x[0], 2, x[1]); }},
  {"index_select/err_dtype", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/err_2d_index", [](const In& x) -> Out { return ops::index_select(x[0], 0, x[1]); }},
  {"index_select/err_dim", [](const In& x) -> Out { return ops::index_select(x[0], 2, x[1]); }},
  {"index_add_/dim0", [](const In& x) -> Out { return ops::index_add_(ops::clone(x[0]), 0, x[1], x[2]); }},
  {"index_add_/dim1_alpha", [](const In& x) -> Out { return ops::index_add_(ops::clone(x[0]), 1, x[1], x[2], -2); }},
  {"index_add_/0d", [](const In& x) -> Out { return ops::index_add_(ops::clone(x[0]), 0, x[1], x[2]); }},
  {"index_add_/int", [](const In& x) -> Out { return ops::index_add_(x[0], 0, x[1], x[2]); }},
  {"index_add/functional", [](const In& x) -> Out { return ops::index_add(x[0], 0, x[1], x[2]); }},
  {"index_add_/err_bounds", [](const In& x) -> Out { return ops::index_add_(x[0], 0, x[1], x[2]); }},
  {"index_add_/err_negative", [](const In& x) -> Out { return ops::index_add_(x[0], 0, x[1], x[2]); }},
  {"index_add_/err_count", [](const In& x) -> Out { return ops::index_add_(x[0], 0, x[1], x[2]); }},
  {"index_add_/err_dtype", [](const In& x) -> Out { return ops::index_add_(x[0], 0, x[1], x[2]); }},
  {"index_add_/err_shape", [](const In& x) -> Out { return ops::index_add_(x[0], 0, x[1], x[2]); }},

  // ---- group 4: reductions ------------------------------------------------------------------
#define IPT_MINMAX_CASES(f)                                                                           \
  {#f "/all", [](const In& x) -> Out { return ops::f(x[0]); }},                                         \
  {#f "/all_ties", [](const In& x) -> Out { return ops::f(x[0]); }},                                    \
  {#f "/all_nan", [](const In& x) -> Out { return ops::f(x[0]); }},                                     \
  {#f "/all_int", [](const In& x) -> Out { return ops::f(x[0]); }},                                     \
  {#f "/all_bool", [](const In& x) -> Out { return ops::f(x[0]); }},                                    \
  {#f "/all_0d", [](const In& x) -> Out { return ops::f(x[0]); }},                                      \
  {#f "/dim1", [](const In& x) -> Out { return ops::f##_dim(x[0], 1); }},                               \
  {#f "/dim0_keepdim", [](const In& x) -> Out { return ops::f##_dim(x[0], 0, true); }},                 \
  {#f "/dim_ties", [](const In& x) -> Out { return ops::f##_dim(x[0], 1); }},                           \
  {#f "/dim_nan", [](const In& x) -> Out { return ops::f##_dim(x[0], 1); }},                            \
  {#f "/dim_neg_3d", [](const In& x) -> Out { return ops::f##_dim(x[0], -2); }},                        \
  {#f "/dim_int", [](const In& x) -> Out { return ops::f##_dim(x[0], 0); }},                            \
  {#f "/dim_0d", [](const In& x) -> Out { return ops::f##_dim(x[0], 0); }},                             \
  {#f "/dim_transposed", [](const In& x) -> Out { return ops::f##_dim(ops::t(x[0]), 1); }},             \
  {#f "/dim_empty_other_dim", [](const In& x) -> Out { return ops::f##_dim(x[0], 1); }},                \
  {#f "/err_all_empty", [](const In& x) -> Out { return ops::f(x[0]); }},                               \
  {#f "/err_dim_empty", [](const In& x) -> Out { return ops::f##_dim(x[0], 0); }},                      \
  {#f "/err_dim", [](const In& x) -> Out { return ops::f##_dim(x[0], 2); }},
  IPT_MINMAX_CASES(max)
  IPT_MINMAX_CASES(min)
#define IPT_ARG_CASES(f)                                                                              \
  {#f "/all", [](const In& x) -> Out { return ops::f(x[0]); }},                                         \
  {#f "/ties", [](const In& x) -> Out { return ops::f(x[0]); }},                                        \
  {#f "/nan", [](const In& x) -> Out { return ops::f(x[0], 1); }},                                      \
  {#f "/dim1", [](const In& x) -> Out { return ops::f(x[0], 1); }},                                     \
  {#f "/dim0_keepdim", [](const In& x) -> Out { return ops::f(x[0], 0, true); }},                       \
  {#f "/int", [](const In& x) -> Out { return ops::f(x[0]); }},                                         \
  {#f "/err_empty", [](const In& x) -> Out { return ops::f(x[0]); }},
  IPT_ARG_CASES(argmax)
  IPT_ARG_CASES(argmin)
  {"prod/all", [](const In& x) -> Out { return ops::prod(x[0]); }},
  {"prod/one_zero", [](const In& x) -> Out { return ops::prod(x[0]); }},
  {"prod/two_zeros", [](const In& x) -> Out { return ops::prod(x[0]); }},
  {"prod/int", [](const In& x) -> Out { return ops::prod(x[0]); }},
  {"prod/bool", [](const In& x) -> Out { return ops::prod(x[0]); }},
  {"prod/dtype", [](const In& x) -> Out { return ops::prod(x[0], ScalarType::Double); }},
  {"prod/0d", [](const In& x) -> Out { return ops::prod(x[0]); }},
  {"prod/dim1", [](const In& x) -> Out { return ops::prod_dim_int(x[0], 1); }},
  {"prod/dim0_keepdim", [](const In& x) -> Out { return ops::prod_dim_int(x[0], 0, true); }},
  {"prod/dim_zeros", [](const In& x) -> Out { return ops::prod_dim_int(x[0], 1); }},
  {"prod/dim_int", [](const In& x) -> Out { return ops::prod_dim_int(x[0], 0); }},
  {"prod/dim_transposed", [](const In& x) -> Out { return ops::prod_dim_int(ops::t(x[0]), 0); }},
  {"prod/err_dim", [](const In& x) -> Out { return ops::prod_dim_int(x[0], 3); }},
#define IPT_VAR_CASES(f)                                                                              \
  {#f "/all", [](const In& x) -> Out { return ops::f(x[0]); }},                                         \
  {#f "/all_biased", [](const In& x) -> Out { return ops::f(x[0], false); }},                           \
  {#f "/dim1", [](const In& x) -> Out { return ops::f##_dim(x[0], V{1}); }},                            \
  {#f "/dim0_keepdim", [](const In& x) -> Out { return ops::f##_dim(x[0], V{0}, true, true); }},        \
  {#f "/dims", [](const In& x) -> Out { return ops::f##_dim(x[0], V{0, 2}); }},                         \
  {#f "/correction0", [](const In& x) -> Out { return ops::f##_correction(x[0], V{1}, 0); }},           \
  {#f "/correction2", [](const In& x) -> Out { return ops::f##_correction(x[0], std::nullopt, 2); }},   \
  {#f "/one_element", [](const In& x) -> Out { return ops::f(x[0]); }},                                 \
  {#f "/float64", [](const In& x) -> Out { return ops::f##_dim(x[0], V{0}); }},                         \
  {#f "/transposed", [](const In& x) -> Out { return ops::f##_dim(ops::t(x[0]), V{1}); }},              \
  {#f "/err_int", [](const In& x) -> Out { return ops::f(x[0]); }},                                     \
  {#f "/err_dim", [](const In& x) -> Out { return ops::f##_dim(x[0], V{2}); }},
  IPT_VAR_CASES(var)
  IPT_VAR_CASES(std)
  {"std/constant", [](const In& x) -> Out { return ops::std(x[0]); }},
  {"norm/default", [](const In& x) -> Out { return ops::linalg_vector_norm(x[0], 2); }},  // torch.norm is linalg_vector_norm in 2.15
  {"norm/Scalar_p2", [](const In& x) -> Out { return ops::norm_Scalar(x[0]); }},
  {"norm/Scalar_p1", [](const In& x) -> Out { return ops::norm_Scalar(x[0], 1); }},
  {"norm/Scalar_p3", [](const In& x) -> Out { return ops::norm_Scalar(x[0], 3); }},
  {"norm/Scalar_inf", [](const In& x) -> Out { return ops::norm_Scalar(x[0], INFINITY); }},
  {"norm/Scalar_0", [](const In& x) -> Out { return ops::norm_Scalar(x[0], 0); }},
  {"norm/Scalar_half", [](const In& x) -> Out { return ops::norm_Scalar(x[0], 0.5); }},
  {"norm/Scalar_zero_vector", [](const In& x) -> Out { return ops::norm_Scalar(x[0]); }},
  {"norm/dim1", [](const In& x) -> Out { return ops::linalg_vector_norm(x[0], 2, V{1}); }},
  {"norm/dim0_p1_keepdim", [](const In& x) -> Out { return ops::linalg_vector_norm(x[0], 1, V{0}, true); }},
  {"norm/dims_p3", [](const In& x) -> Out { return ops::norm_ScalarOpt_dim(x[0], 3, V{0, 1}); }},
  {"norm/dim_p_none", [](const In& x) -> Out { return ops::norm_ScalarOpt_dim(x[0], std::nullopt, V{1}); }},
  {"norm/dim_inf", [](const In& x) -> Out { return ops::norm_ScalarOpt_dim(x[0], -INFINITY, V{1}); }},
  {"norm/float64", [](const In& x) -> Out { return ops::linalg_vector_norm(x[0], 2, V{0}); }},
  {"norm/err_int", [](const In& x) -> Out { return ops::norm_Scalar(x[0]); }},
  {"cumsum/dim0", [](const In& x) -> Out { return ops::cumsum(x[0], 0); }},
  {"cumsum/dim1", [](const In& x) -> Out { return ops::cumsum(x[0], 1); }},
  {"cumsum/dim_neg_3d", [](const In& x) -> Out { return ops::cumsum(x[0], -2); }},
  {"cumsum/int", [](const In& x) -> Out { return ops::cumsum(x[0], 0); }},
  {"cumsum/bool", [](const In& x) -> Out { return ops::cumsum(x[0], 0); }},
  {"cumsum/dtype", [](const In& x) -> Out { return ops::cumsum(x[0], 0, ScalarType::Float); }},
  {"cumsum/dtype_float64", [](const In& x) -> Out { return ops::cumsum(x[0], 0, ScalarType::Double); }},
  {"cumsum/0d", [](const In& x) -> Out { return ops::cumsum(x[0], 0); }},
  {"cumsum/transposed", [](const In& x) -> Out { return ops::cumsum(ops::t(x[0]), 1); }},
  {"cumsum/err_dim", [](const In& x) -> Out { return ops::cumsum(x[0], 2); }},

  // ---- group 5: joining, splitting and repeating --------------------------------------------
  {"cat/dim0", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/dim1", [](const In& x) -> Out { return ops::cat(In{x[0], x[1], x[2]}, 1); }},
  {"cat/dim_neg", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}, -1); }},
  {"cat/single", [](const In& x) -> Out { return ops::cat(In{x[0]}); }},
  {"cat/legacy_empty", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/promote", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/int", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/transposed", [](const In& x) -> Out { return ops::cat(In{ops::t(x[0]), ops::t(x[1])}); }},
  {"cat/only_grad_second", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/err_empty_list", [](const In&) -> Out { return ops::cat(In{}); }},
  {"cat/err_sizes", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/err_ndim", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/err_0d", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}); }},
  {"cat/err_dim", [](const In& x) -> Out { return ops::cat(In{x[0], x[1]}, 2); }},
  {"stack/dim0", [](const In& x) -> Out { return ops::stack(In{x[0], x[1]}); }},
  {"stack/dim_last", [](const In& x) -> Out { return ops::stack(In{x[0], x[1], x[2]}, 2); }},
  {"stack/dim_neg", [](const In& x) -> Out { return ops::stack(In{x[0], x[1]}, -2); }},
  {"stack/0d", [](const In& x) -> Out { return ops::stack(In{x[0], x[1]}); }},
  {"stack/promote", [](const In& x) -> Out { return ops::stack(In{x[0], x[1]}); }},
  {"stack/err_empty_list", [](const In&) -> Out { return ops::stack(In{}); }},
  {"stack/err_sizes", [](const In& x) -> Out { return ops::stack(In{x[0], x[1]}); }},
  {"stack/err_dim", [](const In& x) -> Out { return ops::stack(In{x[0], x[1]}, 3); }},
  {"split/dim0", [](const In& x) -> Out { return ops::split_Tensor(x[0], 2); }},
  {"split/dim1", [](const In& x) -> Out { return ops::split_Tensor(x[0], 2, 1); }},
  {"split/exact", [](const In& x) -> Out { return ops::split_Tensor(x[0], 1, 1); }},
  {"split/larger_than_dim", [](const In& x) -> Out { return ops::split_Tensor(x[0], 10); }},
  {"split/one_piece_used", [](const In& x) -> Out { return ops::split_Tensor(x[0], 2)[1]; }},
  {"split/empty_dim", [](const In& x) -> Out { return ops::split_Tensor(x[0], 0); }},
  {"split/err_0d", [](const In& x) -> Out { return ops::split_Tensor(x[0], 1); }},
  {"split/err_zero_size", [](const In& x) -> Out { return ops::split_Tensor(x[0], 0, 1); }},
  {"split_with_sizes/dim0", [](const In& x) -> Out { return ops::split_with_sizes(x[0], V{1, 4}); }},
  {"split_with_sizes/dim1_zero_piece", [](const In& x) -> Out { return ops::split_with_sizes(x[0], V{2, 0, 1}, 1); }},
  {"split_with_sizes/err_sum", [](const In& x) -> Out { return ops::split_with_sizes(x[0], V{1, 1}, 1); }},
  {"chunk/dim0", [](const In& x) -> Out { return ops::chunk(x[0], 2); }},
  {"chunk/dim1", [](const In& x) -> Out { return ops::chunk(x[0], 3, 1); }},
  {"chunk/more_than_size", [](const In& x) -> Out { return ops::chunk(x[0], 4, 1); }},
  {"chunk/uneven", [](const In& x) -> Out { return ops::chunk(x[0], 4); }},
  {"chunk/empty", [](const In& x) -> Out { return ops::chunk(x[0], 3); }},
  {"chunk/err_0d", [](const In& x) -> Out { return ops::chunk(x[0], 2); }},
  {"chunk/err_chunks", [](const In& x) -> Out { return ops::chunk(x[0], 0); }},
  {"unbind/dim0", [](const In& x) -> Out { return ops::unbind_int(x[0]); }},
  {"unbind/dim1", [](const In& x) -> Out { return ops::unbind_int(x[0], 1); }},
  {"unbind/err_0d", [](const In& x) -> Out { return ops::unbind_int(x[0]); }},
  {"repeat/same_rank", [](const In& x) -> Out { return ops::repeat(x[0], V{2, 1}); }},
  {"repeat/both", [](const In& x) -> Out { return ops::repeat(x[0], V{3, 2}); }},
  {"repeat/new_dims", [](const In& x) -> Out { return ops::repeat(x[0], V{2, 1, 2}); }},
  {"repeat/zero", [](const In& x) -> Out { return ops::repeat(x[0], V{0, 2}); }},
  {"repeat/0d", [](const In& x) -> Out { return ops::repeat(x[0], V{3}); }},
  {"repeat/transposed", [](const In& x) -> Out { return ops::repeat(ops::t(x[0]), V{1, 2}); }},
  {"repeat/int", [](const In& x) -> Out { return ops::repeat(x[0], V{2}); }},
  {"repeat/err_rank", [](const In& x) -> Out { return ops::repeat(x[0], V{2}); }},
  {"movedim/basic", [](const In& x) -> Out { return ops::movedim_int(x[0], 0, 2); }},
  {"movedim/neg", [](const In& x) -> Out { return ops::movedim_int(x[0], -1, 0); }},
  {"movedim/same", [](const In& x) -> Out { return ops::movedim_int(x[0], 1, 1); }},
  {"movedim/0d", [](const In& x) -> Out { return ops::movedim_int(x[0], 0, -1); }},
  {"movedim/err_dim", [](const In& x) -> Out { return ops::movedim_int(x[0], 0, 2); }},
  {"unsqueeze_/dim0", [](const In& x) -> Out { return ops::unsqueeze_(ops::clone(x[0]), 0); }},
  {"unsqueeze_/dim_last", [](const In& x) -> Out { return ops::unsqueeze_(ops::clone(x[0]), -1); }},
  {"unsqueeze_/transposed", [](const In& x) -> Out { return ops::unsqueeze_(ops::clone(ops::t(x[0])), 1); }},
  {"unsqueeze_/err_dim", [](const In& x) -> Out { return ops::unsqueeze_(x[0], 5); }},
  {"index_copy_/dim0", [](const In& x) -> Out { return ops::index_copy_(ops::clone(x[0]), 0, x[1], x[2]); }},
  {"index_copy_/dim1", [](const In& x) -> Out { return ops::index_copy_(ops::clone(x[0]), 1, x[1], x[2]); }},
  {"index_copy_/0d_source", [](const In& x) -> Out { return ops::index_copy_(ops::clone(x[0]), 0, x[1], x[2]); }},
  {"index_copy_/int", [](const In& x) -> Out { return ops::index_copy_(x[0], 0, x[1], x[2]); }},
  {"index_copy/functional", [](const In& x) -> Out { return ops::index_copy(x[0], 0, x[1], x[2]); }},
  {"index_copy_/err_bounds", [](const In& x) -> Out { return ops::index_copy_(x[0], 0, x[1], x[2]); }},
  {"index_copy_/err_negative", [](const In& x) -> Out { return ops::index_copy_(x[0], 0, x[1], x[2]); }},
  {"index_copy_/err_slices", [](const In& x) -> Out { return ops::index_copy_(x[0], 0, x[1], x[2]); }},
  {"index_copy_/err_count", [](const In& x) -> Out { return ops::index_copy_(x[0], 0, x[1], x[2]); }},
  {"index_copy_/err_dtype", [](const In& x) -> Out { return ops::index_copy_(x[0], 0, x[1], x[2]); }},

  // ---- group 6: factories -------------------------------------------------------------------
  {"linspace/basic", [](const In&) -> Out { return ops::linspace(0, 1, 5); }},
  {"linspace/symmetric", [](const In&) -> Out { return ops::linspace(-1, 1, 7); }},
  {"linspace/float64", [](const In&) -> Out { return ops::linspace(0.1, 0.7, 4, ScalarType::Double); }},
  {"linspace/decreasing", [](const In&) -> Out { return ops::linspace(2, 1, 4); }},
  {"linspace/one_step", [](const In&) -> Out { return ops::linspace(3, 5, 1); }},
  {"linspace/zero_steps", [](const In&) -> Out { return ops::linspace(0, 1, 0); }},
  {"linspace/int", [](const In&) -> Out { return ops::linspace(0, 10, 5, ScalarType::Long); }},
  {"linspace/int_negative", [](const In&) -> Out { return ops::linspace(-7, 3, 4, ScalarType::Long); }},
  {"linspace/err_steps", [](const In&) -> Out { return ops::linspace(0, 1, -1); }},
  {"linspace/err_bool", [](const In&) -> Out { return ops::linspace(0, 1, 3, ScalarType::Bool); }},
  {"logspace/basic", [](const In&) -> Out { return ops::logspace(0, 2, 3); }},
  {"logspace/base2", [](const In&) -> Out { return ops::logspace(-1, 1, 5, 2.0); }},
  {"logspace/float64", [](const In&) -> Out { return ops::logspace(0, 1, 4, 10.0, ScalarType::Double); }},
  {"logspace/int", [](const In&) -> Out { return ops::logspace(0, 3, 4, 10.0, ScalarType::Long); }},
  {"logspace/one_step", [](const In&) -> Out { return ops::logspace(2, 5, 1); }},
  {"logspace/err_steps", [](const In&) -> Out { return ops::logspace(0, 1, -2); }},
  {"eye/square", [](const In&) -> Out { return ops::eye(3); }},
  {"eye/rect", [](const In&) -> Out { return ops::eye_m(2, 4); }},
  {"eye/tall_int", [](const In&) -> Out { return ops::eye_m(3, 2, ScalarType::Long); }},
  {"eye/bool", [](const In&) -> Out { return ops::eye(2, ScalarType::Bool); }},
  {"eye/zero", [](const In&) -> Out { return ops::eye(0); }},
  {"eye/err_n", [](const In&) -> Out { return ops::eye(-1); }},
  {"eye/err_m", [](const In&) -> Out { return ops::eye_m(2, -1); }},
  {"scalar_tensor/int", [](const In&) -> Out { return ops::scalar_tensor(3); }},
  {"scalar_tensor/bool", [](const In&) -> Out { return ops::scalar_tensor(true); }},
  {"scalar_tensor/dtype", [](const In&) -> Out { return ops::scalar_tensor(2.5, ScalarType::Double); }},
  {"scalar_tensor/int_dtype", [](const In&) -> Out { return ops::scalar_tensor(7, ScalarType::Long); }},
  {"rand_like/float", [](const In& x) -> Out { return ops::rand_like(x[0]); }},
  {"rand_like/transposed", [](const In& x) -> Out { return ops::rand_like(ops::t(x[0])); }},
  {"rand_like/dtype", [](const In& x) -> Out { return ops::rand_like(x[0], ScalarType::Double); }},
  {"rand_like/err_int", [](const In& x) -> Out { return ops::rand_like(x[0]); }},
  {"randn_like/float", [](const In& x) -> Out { return ops::randn_like(x[0]); }},
  {"randn_like/err_int", [](const In& x) -> Out { return ops::randn_like(x[0]); }},
  {"randint/high", [](const In&) -> Out { return ops::randint(5, V{2, 3}); }},
  {"randint/low_high", [](const In&) -> Out { return ops::randint_low(-3, 3, V{4}); }},
  {"randint/float_dtype", [](const In&) -> Out { return ops::randint(5, V{2}, ScalarType::Float); }},
  {"randint/err_range", [](const In&) -> Out { return ops::randint_low(5, 5, V{2}); }},
  {"randint/err_negative_high", [](const In&) -> Out { return ops::randint(-3, V{2}); }},
  {"random_/from_to", [](const In& x) -> Out { return ops::random__from(ops::clone(x[0]), 0, 5); }},
  {"random_/err_range", [](const In& x) -> Out { return ops::random__from(x[0], 3, 2); }},
  {"normal/Tensor_float", [](const In& x) -> Out { return ops::normal_Tensor_float(x[0], 2.0); }},
  {"normal/float_Tensor", [](const In& x) -> Out { return ops::normal_float_Tensor(1.0, x[0]); }},
  {"normal/Tensor_Tensor", [](const In& x) -> Out { return ops::normal_Tensor_Tensor(x[0], x[1]); }},
  {"normal/float_float", [](const In&) -> Out { return ops::normal_float_float(0.0, 1.0, V{2, 3}); }},
  {"normal/float_float_dtype", [](const In&) -> Out { return ops::normal_float_float(0.0, 1.0, V{4}, std::nullopt, ScalarType::Double); }},
  {"normal/zero_std", [](const In& x) -> Out { return ops::normal_Tensor_float(x[0], 0.0); }},
  {"normal/err_std", [](const In& x) -> Out { return ops::normal_Tensor_float(x[0], -1.0); }},
  {"normal/err_std_tensor", [](const In& x) -> Out { return ops::normal_float_Tensor(0.0, x[0]); }},
  {"normal/err_int_mean", [](const In& x) -> Out { return ops::normal_Tensor_float(x[0], 1.0); }},
  {"normal/err_shapes", [](const In& x) -> Out { return ops::normal_Tensor_Tensor(x[0], x[1]); }},
  {"new_zeros/basic", [](const In& x) -> Out { return ops::new_zeros(x[0], V{2, 2}); }},
  {"new_zeros/int_self", [](const In& x) -> Out { return ops::new_zeros(x[0], V{3}); }},
  {"new_ones/dtype", [](const In& x) -> Out { return ops::new_ones(x[0], V{2}, ScalarType::Long); }},
  {"new_ones/bool_self", [](const In& x) -> Out { return ops::new_ones(x[0], V{1, 2}); }},
  {"new_full/basic", [](const In& x) -> Out { return ops::new_full(x[0], V{2}, 3); }},
  {"new_full/float_into_int", [](const In& x) -> Out { return ops::new_full(x[0], V{2}, 2.5); }},
  {"new_empty/basic", [](const In& x) -> Out { return ops::new_empty(x[0], V{3, 2}); }},
  {"new_empty/from_transposed", [](const In& x) -> Out { return ops::new_empty(ops::t(x[0]), V{3, 2}); }},

  // ---- remainder and one_hot ----------------------------------------------------------------
  {"remainder/scalar_int", [](const In& x) -> Out { return ops::remainder_Scalar(x[0], 3); }},
  {"remainder/scalar_float", [](const In& x) -> Out { return ops::remainder_Scalar(x[0], 3); }},
  {"remainder/negative_divisor", [](const In& x) -> Out { return ops::remainder_Scalar(x[0], -3); }},
  {"remainder/int_by_float", [](const In& x) -> Out { return ops::remainder_Scalar(x[0], 2.5); }},
  {"remainder/tensor", [](const In& x) -> Out { return ops::remainder_Tensor(x[0], x[1]); }},
  {"remainder/tensor_negative", [](const In& x) -> Out { return ops::remainder_Tensor(x[0], x[1]); }},
  {"remainder/float_by_zero", [](const In& x) -> Out { return ops::remainder_Scalar(x[0], 0); }},
  {"remainder/bool", [](const In& x) -> Out { return ops::remainder_Scalar(x[0], 2); }},
  {"remainder/inplace_scalar", [](const In& x) -> Out { return ops::remainder__Scalar(ops::clone(x[0]), 2); }},
  {"remainder/inplace_tensor", [](const In& x) -> Out { return ops::remainder__Tensor(ops::clone(x[0]), x[1]); }},
  {"remainder/err_int_by_zero", [](const In& x) -> Out { return ops::remainder_Scalar(x[0], 0); }},
  {"one_hot/infer", [](const In& x) -> Out { return ops::one_hot(x[0]); }},
  {"one_hot/classes", [](const In& x) -> Out { return ops::one_hot(x[0], 4); }},
  {"one_hot/0d", [](const In& x) -> Out { return ops::one_hot(x[0], 3); }},
  {"one_hot/empty", [](const In& x) -> Out { return ops::one_hot(x[0], 3); }},
  {"one_hot/err_float", [](const In& x) -> Out { return ops::one_hot(x[0]); }},
  {"one_hot/err_negative", [](const In& x) -> Out { return ops::one_hot(x[0]); }},
  {"one_hot/err_too_large", [](const In& x) -> Out { return ops::one_hot(x[0], 3); }},
  {"one_hot/err_empty", [](const In& x) -> Out { return ops::one_hot(x[0]); }},
};
  return cases;
}
// clang-format on

}  // namespace

const std::map<std::string, Fn>& cases() { return all_cases(); }

}  // namespace ipt::ops_expected
