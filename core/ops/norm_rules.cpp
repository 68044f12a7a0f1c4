#include "core/ops/norm_rules.h"

#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt {

LayerNormGeometry check_layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                                   const std::optional<Tensor>& weight, const std::optional<Tensor>& bias) {
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  IPT_CHECK(k >= 1, RuntimeError,
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got "
            "normalized_shape = ",
            int_list_str(normalized_shape));
  const bool has_w = weight && weight->defined(), has_b = bias && bias->defined();
  auto same = [&](const Tensor& t) {
    return t.sizes().size() == normalized_shape.size() &&
           std::equal(t.sizes().begin(), t.sizes().end(), normalized_shape.begin());
  };
  IPT_CHECK(!has_w || same(*weight), RuntimeError,
            "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
            int_list_str(weight->sizes()), " and normalized_shape = ", int_list_str(normalized_shape));
  IPT_CHECK(!has_b || same(*bias), RuntimeError,
            "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
            int_list_str(bias->sizes()), " and normalized_shape = ", int_list_str(normalized_shape));
  const int64_t nd = input.dim(), axis = nd - k;
  bool ok = nd >= k;
  for (int64_t i = 0; ok && i < k; ++i) ok = input.sizes()[axis + i] == normalized_shape[static_cast<size_t>(i)];
  if (!ok) {
    std::string expected = "[*";
    for (int64_t v : normalized_shape) expected += ", " + std::to_string(v);
    IPT_CHECK(false, RuntimeError, "Given normalized_shape=", int_list_str(normalized_shape),
              ", expected input with shape ", expected, "], but got input of size", int_list_str(input.sizes()));
  }
  LayerNormGeometry g;
  for (int64_t i = 0; i < nd; ++i) {
    if (i < axis) {
      g.M *= input.sizes()[i];
      g.stat_sizes.push_back(input.sizes()[i]);
    } else {
      g.N *= input.sizes()[i];
      g.stat_sizes.push_back(1);
    }
  }
  return g;
}

void check_group_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                      int64_t N, int64_t C, int64_t HxW, int64_t group) {
  IPT_CHECK(group > 0 && C % group == 0, RuntimeError,
            "Expected number of channels in input to be divisible by num_groups, but got input of shape ",
            int_list_str(input.sizes()), " and num_groups=", group);
  IPT_CHECK(input.numel() == N * C * HxW, RuntimeError, "Expected input to have ", N * C * HxW, " elements, but got ",
            input.numel());
  const bool has_w = weight && weight->defined(), has_b = bias && bias->defined();
  IPT_CHECK(!has_w || (weight->dim() == 1 && weight->numel() == C), RuntimeError,
            "Expected weight to be a vector of size equal to the number of channels in input, but got weight of "
            "shape ",
            int_list_str(weight->sizes()), " and input of shape ", int_list_str(input.sizes()));
  IPT_CHECK(!has_b || (bias->dim() == 1 && bias->numel() == C), RuntimeError,
            "Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape ",
            int_list_str(bias->sizes()), " and input of shape ", int_list_str(input.sizes()));
}

}  // namespace ipt
