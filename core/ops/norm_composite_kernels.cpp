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
