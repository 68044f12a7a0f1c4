#pragma once
// The checks and shapes of layer norm and group norm, shared by their CPU, simulated-GPU and
// Meta kernels (PyTorch's _check_layer_norm_inputs and native_group_norm's checks).
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt {

struct LayerNormGeometry {
  int64_t M = 1;                    // rows: the product of the dims before normalized_shape
  int64_t N = 1;                    // each row's elements: the product of normalized_shape
  std::vector<int64_t> stat_sizes;  // mean and rstd: the leading dims, then a 1 per normalized dim
};

LayerNormGeometry check_layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                                   const std::optional<Tensor>& weight, const std::optional<Tensor>& bias);

// native_group_norm's checks: C divisible by group, weight and bias of C elements.
void check_group_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                      int64_t N, int64_t C, int64_t HxW, int64_t group);

}  // namespace ipt
