// Composite kernels of torch.nn.functional and torch.optim's helpers, written as PyTorch 2.15
// writes them (aten/src/ATen/native/Linear.cpp, SoftMax.cpp, LossNLL.cpp): each calls back into
// the dispatcher, so the trace and the autograd graph show the operators they are made of.
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// Tensor.to(dtype) for the dtype= arguments: the same tensor when it already has that dtype.
Tensor to_dtype(const Tensor& self, ScalarType dtype) {
  if (self.dtype() == dtype) return self;
  Tensor out = ops::empty_like(self, dtype);
  return ops::copy_(out, self);
}

}  // namespace

// Note [linear]
// A 2-D input with a bias is one fused addmm (bias + input @ weight.t()). So, in PyTorch 2.15, is
// a contiguous input of any other rank with a 1-D bias: viewed as rows, addmm, and the result
// given its shape back with _unsafe_view. Everything else is matmul, then the bias added in
// place. So nn.Linear's grad_fn is AddmmBackward0 for a batch of vectors, UnsafeViewBackward0
// for a single vector or a batch of sequences, and AddBackward0 (or matmul's node without a
// bias) otherwise.
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  const bool has_bias = bias && bias->defined();
  if (input.dim() == 2 && has_bias) return ops::addmm(*bias, input, ops::t(weight));
  if (has_bias && input.is_contiguous() && (input.dim() == 3 || bias->dim() == 1)) {
    const auto& s = input.sizes();
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < s.size(); ++i) rows *= s[i];
    Tensor r = ops::addmm(*bias, ops::reshape(input, std::vector<int64_t>{rows, s.back()}), ops::t(weight));
    std::vector<int64_t> out_size(s.begin(), s.end() - 1);
    out_size.push_back(r.sizes()[1]);
    return ops::_unsafe_view(r, out_size);
  }
  Tensor output = ops::matmul(input, ops::t(weight));
  if (has_bias) ops::add__Tensor(output, *bias);
  return output;
}

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::_softmax(dtype ? to_dtype(self, *dtype) : self, dim, false);
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::_log_softmax(dtype ? to_dtype(self, *dtype) : self, dim, false);
}

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                int64_t ignore_index) {
  return std::get<0>(ops::nll_loss_forward(self, target, weight, reduction, ignore_index));
}

Tensor nll_loss2d(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                  int64_t ignore_index) {
  return std::get<0>(ops::nll_loss2d_forward(self, target, weight, reduction, ignore_index));
}

// What F.nll_loss calls: 1-D / 2-D inputs go to nll_loss, 4-D to nll_loss2d, and 3-D or > 4-D
// inputs [N, C, d1, ...] are viewed as [N, C, 1, d1 * ...] for nll_loss2d.
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                   int64_t ignore_index) {
  IPT_CHECK(self.dim() >= 1, ValueError, "Expected 1 or more dimensions (got ", self.dim(), ")");
  IPT_CHECK(self.dim() == 1 || (target.dim() >= 1 && self.sizes()[0] == target.sizes()[0]), ValueError,
            "Expected input batch_size (", self.sizes()[0], ") to match target batch_size (",
            target.dim() >= 1 ? target.sizes()[0] : 1, ").");
  if (self.dim() == 1 || self.dim() == 2) return ops::nll_loss(self, target, weight, reduction, ignore_index);
  if (self.dim() == 4) return ops::nll_loss2d(self, target, weight, reduction, ignore_index);
  const int64_t n = self.sizes()[0], c = self.sizes()[1];
  std::vector<int64_t> out_size(self.sizes().begin() + 2, self.sizes().end());
  out_size.insert(out_size.begin(), n);
  std::vector<int64_t> target_rest(target.sizes().begin() + 1, target.sizes().end());
  IPT_CHECK(target_rest == std::vector<int64_t>(self.sizes().begin() + 2, self.sizes().end()), RuntimeError,
            "Expected target size ", int_list_str(out_size), ", got ", int_list_str(target.sizes()));
  Tensor input = ops::contiguous(self), tgt = ops::contiguous(target);
  input = input.numel() > 0 ? ops::view(input, std::vector<int64_t>{n, c, 1, -1})
                            : ops::view(input, std::vector<int64_t>{n, c, 0, 0});
  tgt =
      tgt.numel() > 0 ? ops::view(tgt, std::vector<int64_t>{n, 1, -1}) : ops::view(tgt, std::vector<int64_t>{n, 0, 0});
  Tensor out = ops::nll_loss2d(input, tgt, weight, reduction, ignore_index);
  return reduction == 0 ? ops::view(out, out_size) : out;
}

// Note [cross_entropy with label smoothing]
// With class indices and label_smoothing = e the loss is (1 - e) * nll_loss + e / C * smooth,
// where smooth is -sum over classes of log_softmax (weighted by the class weights), 0 at ignored
// targets, and reduced like nll_loss (mean divides by the summed weights of the kept targets).
static Tensor cross_entropy_label_smoothing(const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction,
                                            int64_t ignore_index, double label_smoothing, int64_t class_dim) {
  Tensor input = ops::log_softmax_int(self, class_dim, self.dtype());
  Tensor nll = ops::nll_loss_nd(input, target, weight, reduction, ignore_index);
  const int64_t n_classes = input.sizes()[static_cast<size_t>(class_dim)];
  Tensor smooth;
  if (weight) {
    std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
    shape[static_cast<size_t>(class_dim)] = weight->sizes()[0];
    smooth = ops::neg(
        ops::sum_dim_IntList(ops::mul_Tensor(input, ops::view(*weight, shape)), std::vector<int64_t>{class_dim}));
  } else {
    smooth = ops::neg(ops::sum_dim_IntList(input, std::vector<int64_t>{class_dim}));
  }
  Tensor ignore_mask = ops::eq_Scalar(target, ignore_index);
  ops::masked_fill__Scalar(smooth, ignore_mask, 0.0);
  Tensor ret;
  switch (reduction) {
    case 1:
      if (weight) {
        // target.masked_select(~ignore_mask), flattened first so a 0-dim target works too
        std::vector<std::optional<Tensor>> keep{ops::flatten_using_ints(ops::logical_not(ignore_mask))};
        Tensor kept = ops::index_Tensor(ops::flatten_using_ints(target), keep);
        ret = ops::div_Tensor(ops::sum(smooth), ops::sum(ops::index_select(*weight, 0, kept)));
      } else {
        ret = ops::div_Tensor(ops::sum(smooth), ops::sum(ops::logical_not(ignore_mask)));
      }
      break;
    case 2: ret = ops::sum(smooth); break;
    case 0: ret = smooth; break;
    default: IPT_FAIL(RuntimeError, "Invalid reduction type encountered in cross_entropy: ", reduction);
  }
  return ops::add_Tensor(ops::mul_Tensor(nll, wrapped_scalar_tensor(1 - label_smoothing)),
                         ops::mul_Tensor(ret, wrapped_scalar_tensor(label_smoothing / static_cast<double>(n_classes))));
}

// F.cross_entropy: log_softmax over the class dim, then nll_loss_nd (see Note [cross_entropy
// with label smoothing]). A target of the input's shape holds class probabilities instead:
// -(log_softmax(input) * target) summed over classes.
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                          int64_t reduction, int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  if (self.sizes() == target.sizes()) {
    IPT_CHECK(is_floating(target.dtype()), RuntimeError,
              "Expected floating point type for target with class probabilities, got ", dtype_cpp_name(target.dtype()));
    IPT_CHECK(ignore_index < 0, RuntimeError, "ignore_index is not supported for floating point target");
    const int64_t n_classes = self.sizes()[static_cast<size_t>(class_dim)];
    IPT_CHECK(!weight || (weight->dim() == 1 && weight->numel() == n_classes), RuntimeError,
              "cross_entropy: weight tensor should be defined either for all ", n_classes,
              " classes or no classes but got weight tensor of shape: ",
              int_list_str(weight ? weight->sizes() : std::vector<int64_t>{}));
    Tensor input = ops::log_softmax_int(self, class_dim, self.dtype());
    Tensor t = target;
    if (label_smoothing > 0.0) {
      IPT_CHECK(label_smoothing <= 1.0, RuntimeError,
                "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
      t = ops::add_Tensor(ops::mul_Tensor(target, wrapped_scalar_tensor(1 - label_smoothing)),
                          wrapped_scalar_tensor(label_smoothing / static_cast<double>(n_classes)));
    }
    Tensor prod = ops::mul_Tensor(input, t);
    if (weight) {
      Tensor w = *weight;
      if (input.dim() > 1) {
        std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
        shape[1] = weight->sizes()[0];
        w = ops::view(*weight, shape);
      }
      prod = ops::mul_Tensor(prod, w);
    }
    switch (reduction) {
      case 1:
        if (input.numel() == 0) return ops::fill__Scalar(ops::neg(ops::sum(prod)), NAN);
        return ops::div_Scalar(ops::neg(ops::sum(prod)), input.numel() / n_classes);
      case 2: return ops::neg(ops::sum(prod));
      case 0: return ops::neg(ops::sum_dim_IntList(prod, std::vector<int64_t>{class_dim}));
      default: IPT_FAIL(RuntimeError, "Invalid reduction type encountered in cross_entropy: ", reduction);
    }
  }
  if (label_smoothing > 0.0) {
    IPT_CHECK(label_smoothing <= 1.0, RuntimeError,
              "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    return cross_entropy_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing, class_dim);
  }
  return ops::nll_loss_nd(ops::log_softmax_int(self, class_dim, self.dtype()), target, weight, reduction, ignore_index);
}

// x / number (PyTorch's div.Scalar: the number as a wrapped 0-dim tensor).
Tensor div(const Tensor& self, const Scalar& other) { return ops::div_Tensor(self, wrapped_scalar_tensor(other)); }
Tensor div_(const Tensor& self, const Scalar& other) { return ops::div__Tensor(self, wrapped_scalar_tensor(other)); }
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return ops::div_Tensor_mode(self, wrapped_scalar_tensor(other), rounding_mode);
}
Tensor div_(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return ops::div__Tensor_mode(self, wrapped_scalar_tensor(other), rounding_mode);
}
// number ** tensor (PyTorch 2.15's pow.Scalar_out): 1 ** anything is 1; otherwise the number
// as a wrapped 0-dim tensor, on the exponent's device.
Tensor pow(const Scalar& self, const Tensor& exponent) {
  Tensor base = wrapped_scalar_tensor(self);
  if (self.to_double() == 1.0 && !self.is_bool()) {
    const ScalarType dt = ipt::result_type({&base, &exponent});
    return ops::fill__Scalar(ops::empty_like(exponent, dt), Scalar(int64_t(1)));
  }
  return ops::pow_Tensor_Tensor(base, exponent);
}

// F.one_hot: int64 [..., num_classes] with a 1 at each index (num_classes=-1: max + 1).
Tensor one_hot(const Tensor& self, int64_t num_classes) {
  IPT_CHECK(self.dtype() == ScalarType::Long, RuntimeError,
            "one_hot is only applicable to index tensor of type LongTensor.");
  if (self.numel() == 0) {
    IPT_CHECK(num_classes > 0, RuntimeError, "Can not infer total number of classes from empty tensor.");
  } else {
    IPT_CHECK(ops::item(ops::min(self)).to_long() >= 0, RuntimeError, "Class values must be non-negative.");
    const int64_t max = ops::item(ops::max(self)).to_long();
    if (num_classes == -1) num_classes = max + 1;
    else IPT_CHECK(max < num_classes, RuntimeError, "Class values must be smaller than num_classes.");
  }
  std::vector<int64_t> sizes = self.sizes();
  sizes.push_back(num_classes);
  Tensor hit = ops::eq_Tensor(ops::unsqueeze(self, -1), ops::arange(Scalar(num_classes)));
  return ops::copy_(ops::empty_memory_format(sizes, ScalarType::Long, std::nullopt, self.device()), hit);
}

// x % number: the number as a wrapped 0-dim tensor.
Tensor floor_divide(const Tensor& self, const Scalar& other) {
  return ops::floor_divide(self, wrapped_scalar_tensor(other));
}
Tensor floor_divide_(const Tensor& self, const Scalar& other) {
  return ops::floor_divide__Tensor(self, wrapped_scalar_tensor(other));
}
// The Scalar overloads of fmod, the bitwise ops and the shifts: the Tensor op with a wrapped
// number (the shifts also take the number first).
#define IPT_SCALAR_OVERLOAD(name)                                   \
  Tensor name(const Tensor& self, const Scalar& other) {            \
    return ops::name##_Tensor(self, wrapped_scalar_tensor(other));  \
  }                                                                 \
  Tensor name##_(const Tensor& self, const Scalar& other) {         \
    return ops::name##__Tensor(self, wrapped_scalar_tensor(other)); \
  }
IPT_SCALAR_OVERLOAD(fmod)
Tensor copysign(const Tensor& self, const Scalar& other) {
  return ops::copysign_Tensor(self, wrapped_scalar_tensor(other));
}
IPT_SCALAR_OVERLOAD(bitwise_and)
IPT_SCALAR_OVERLOAD(bitwise_or)
IPT_SCALAR_OVERLOAD(bitwise_xor)
IPT_SCALAR_OVERLOAD(bitwise_left_shift)
IPT_SCALAR_OVERLOAD(bitwise_right_shift)
#undef IPT_SCALAR_OVERLOAD
Tensor bitwise_left_shift(const Scalar& self, const Tensor& other) {
  return ops::bitwise_left_shift_Tensor(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_right_shift(const Scalar& self, const Tensor& other) {
  return ops::bitwise_right_shift_Tensor(wrapped_scalar_tensor(self), other);
}

Tensor remainder(const Tensor& self, const Scalar& other) {
  return ops::remainder_Tensor(self, wrapped_scalar_tensor(other));
}
Tensor remainder_(const Tensor& self, const Scalar& other) {
  return ops::remainder__Tensor(self, wrapped_scalar_tensor(other));
}

// The conjugate of a real tensor is the tensor itself (no complex dtypes here).
Tensor conj(const Tensor& self) { return self; }

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  return ops::zero_(ops::empty_like(self, dtype, layout, device, pin_memory, memory_format));
}

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return ops::fill__Scalar(ops::empty_like(self, dtype, layout, device, pin_memory, memory_format), 1);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return ops::fill__Scalar(ops::empty_like(self, dtype, layout, device, pin_memory, memory_format), fill_value);
}

}  // namespace ipt::native

namespace ipt::native {

// relu6 is hardtanh(0, 6) (PyTorch's Activation.cpp).
Tensor relu6(const Tensor& self) { return ops::hardtanh(self, 0, 6); }
Tensor relu6_(const Tensor& self) { return ops::hardtanh_(self, 0, 6); }

}  // namespace ipt::native

namespace ipt::native {

// selu is elu with SELU's alpha and scale (PyTorch's Activation.cpp).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
Tensor selu(const Tensor& self) { return ops::elu(self, kSeluAlpha, kSeluScale, 1); }
Tensor selu_(const Tensor& self) { return ops::elu_(self, kSeluAlpha, kSeluScale, 1); }

}  // namespace ipt::native

namespace ipt::native {

// embedding: rows of weight picked by indices (PyTorch's Embedding.cpp: index_select, then a
// view with the indices' shape in front).
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t, bool, bool) {
  IPT_CHECK(weight.dim() == 2, RuntimeError, "'weight' must be 2-D");
  IPT_CHECK(indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int, RuntimeError,
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
            tensor_type_name(indices), " instead (while checking arguments for embedding)");
  if (indices.dim() == 1) return ops::index_select(weight, 0, indices);
  std::vector<int64_t> size(indices.sizes().begin(), indices.sizes().end());
  size.push_back(weight.sizes()[1]);
  return ops::view(ops::index_select(weight, 0, ops::reshape(indices, std::vector<int64_t>{-1})), size);
}

Tensor embedding_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights, int64_t padding_idx,
                          bool scale_grad_by_freq, bool sparse) {
  IPT_CHECK(!sparse, NotImplementedError, "embedding with sparse=True (a sparse gradient) is not supported here");
  return ops::embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq);
}

// Dropout on the CPU (PyTorch's Dropout.cpp, _dropout_impl): noise = bernoulli(1 - p) / (1 - p),
// then input * noise; feature dropout draws one value per channel (the noise is broadcast over
// the other dims), alpha dropout keeps the mean and variance of SELU's outputs. A CUDA tensor
// takes the fused native_dropout, as in PyTorch.
namespace {
Tensor feature_noise(const Tensor& input) {
  std::vector<int64_t> sizes = {input.sizes()[0], input.sizes()[1]};
  for (int64_t d = 2; d < input.dim(); ++d) sizes.push_back(1);
  return ops::empty_memory_format(sizes, input.dtype(), std::nullopt, input.device(), std::nullopt, std::nullopt);
}

Tensor dropout_impl(const Tensor& input, double p, bool train, bool feature, bool alpha, bool inplace) {
  IPT_CHECK(p >= 0 && p <= 1, RuntimeError, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) {
    Tensor zero = ops::zeros({}, input.dtype(), std::nullopt, input.device(), std::nullopt);
    return inplace ? ops::mul__Tensor(input, zero) : ops::mul_Tensor(input, zero);
  }
  if (feature) IPT_CHECK(input.dim() >= 2, RuntimeError, "Feature dropout requires at least 2 dimensions in the input");
  Tensor noise = feature ? feature_noise(input)
                         : ops::empty_like(input, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  ops::bernoulli__float(noise, 1 - p, std::nullopt);
  if (alpha) {
    constexpr double alpha_ = 1.7580993408473766;
    const double a = 1. / std::sqrt((alpha_ * alpha_ * p + 1) * (1 - p));
    Tensor b = ops::mul_Scalar(ops::add_Scalar(noise, -1, 1), alpha_ * a);
    ops::add__Scalar(b, alpha_ * a * p, 1);
    ops::mul__Scalar(noise, a);
    if (inplace) return ops::add__Tensor(ops::mul__Tensor(input, noise), b, 1);
    return ops::add_Tensor(ops::mul_Tensor(input, noise), b, 1);
  }
  ops::div__Scalar(noise, 1 - p);
  return inplace ? ops::mul__Tensor(input, noise) : ops::mul_Tensor(input, noise);
}

bool fused_dropout_acceptable(const Tensor& input, double p) {
  return input.device().type == DeviceType::CUDA && p > 0 && p < 1 && input.numel() > 0;
}
}  // namespace

Tensor dropout(const Tensor& input, double p, bool train) {
  if (train && fused_dropout_acceptable(input, p)) return std::get<0>(ops::native_dropout(input, p, train));
  return dropout_impl(input, p, train, false, false, false);
}
Tensor dropout_(const Tensor& self, double p, bool train) { return dropout_impl(self, p, train, false, false, true); }
Tensor feature_dropout(const Tensor& input, double p, bool train) {
  return dropout_impl(input, p, train, true, false, false);
}
Tensor feature_dropout_(const Tensor& self, double p, bool train) {
  return dropout_impl(self, p, train, true, false, true);
}
Tensor alpha_dropout(const Tensor& input, double p, bool train) {
  return dropout_impl(input, p, train, false, true, false);
}
Tensor alpha_dropout_(const Tensor& self, double p, bool train) {
  return dropout_impl(self, p, train, false, true, true);
}
Tensor feature_alpha_dropout(const Tensor& input, double p, bool train) {
  return dropout_impl(input, p, train, true, true, false);
}
Tensor feature_alpha_dropout_(const Tensor& self, double p, bool train) {
  return dropout_impl(self, p, train, true, true, true);
}

}  // namespace ipt::native
