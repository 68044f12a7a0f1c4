// The composite kernels of normalization, as PyTorch 2.15 writes them (aten/src/ATen/native/
// layer_norm.cpp, group_norm.cpp, Normalization.cpp): each calls the native operator that
// computes the statistics with the output.
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool) {
  return std::get<0>(ops::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

}  // namespace ipt::native

namespace ipt::native {

namespace {
void check_features(const char* name, int64_t expected, const Tensor& t) {
  IPT_CHECK(t.numel() == expected, RuntimeError, name, " should contain ", expected, " elements not ", t.numel());
}
bool defined(const std::optional<Tensor>& t) { return t && t->defined(); }
}  // namespace

// PyTorch's _batch_norm_impl_index (Normalization.cpp): the running statistics, weight and bias
// must have one element per channel, and the statistics must exist in evaluation mode; then
// native_batch_norm (the CPU's backend; no cuDNN or MIOpen here), with an empty reserve.
std::tuple<Tensor, Tensor, Tensor, Tensor, int64_t> _batch_norm_impl_index(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var, bool training, double momentum,
    double eps, bool) {
  IPT_CHECK(input.dim() >= 2, RuntimeError, "batch_norm: expected an input with at least 2 dims, got ", input.dim());
  const int64_t features = input.sizes()[1];
  if (defined(running_mean)) check_features("running_mean", features, *running_mean);
  else IPT_CHECK(training, RuntimeError, "running_mean must be defined in evaluation mode");
  if (defined(running_var)) check_features("running_var", features, *running_var);
  else IPT_CHECK(training, RuntimeError, "running_var must be defined in evaluation mode");
  if (defined(weight)) check_features("weight", features, *weight);
  if (defined(bias)) check_features("bias", features, *bias);
  Tensor reserve = ops::empty_memory_format(std::vector<int64_t>{0}, ScalarType::Byte, std::nullopt, input.device(),
                                            std::nullopt, std::nullopt);
  auto [out, save_mean, save_invstd] =
      ops::native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps);
  return {out, save_mean, save_invstd, reserve, 0};
}

Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var, bool training,
                  double momentum, double eps, bool cudnn_enabled) {
  return std::get<0>(ops::_batch_norm_impl_index(input, weight, bias, running_mean, running_var, training, momentum,
                                                 eps, cudnn_enabled));
}

std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, const Tensor& running_mean,
                                                     const Tensor& running_var, bool training, double momentum,
                                                     double eps) {
  return ops::native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps);
}

std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit_no_stats(const Tensor& input, const std::optional<Tensor>& weight,
                                                              const std::optional<Tensor>& bias, bool training,
                                                              double momentum, double eps) {
  return ops::native_batch_norm(input, weight, bias, std::nullopt, std::nullopt, training, momentum, eps);
}

std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit_no_training(const Tensor& input,
                                                                 const std::optional<Tensor>& weight,
                                                                 const std::optional<Tensor>& bias,
                                                                 const Tensor& running_mean, const Tensor& running_var,
                                                                 double momentum, double eps) {
  return ops::_native_batch_norm_legit(input, weight, bias, running_mean, running_var, false, momentum, eps);
}

}  // namespace ipt::native

namespace ipt::native {

// PyTorch's group_norm (group_norm.cpp): the checks, then native_group_norm over (N, C, HxW).
Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool) {
  IPT_CHECK(input.dim() >= 2, RuntimeError, "Expected at least 2 dimensions for input tensor but received ",
            input.dim());
  IPT_CHECK(num_groups > 0, RuntimeError, "Expected num_groups to be greater than 0, got ", num_groups);
  const int64_t N = input.sizes()[0], C = input.sizes()[1];
  int64_t HxW = 1;
  for (int64_t d = 2; d < input.dim(); ++d) HxW *= input.sizes()[d];
  const Tensor x = ops::contiguous(input, MemoryFormat::Contiguous);
  return std::get<0>(ops::native_group_norm(x, weight, bias, N, C, HxW, num_groups, eps));
}

}  // namespace ipt::native
