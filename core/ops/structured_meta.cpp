// The meta functions of the structured operators (Note [Structured kernels] in
// core/ops/structured.h): checks and result geometry, shared by every backend's kernels and
// by the Meta key's.
#include <limits>

#include "core/ops/shape_rules.h"
#include "core/ops/structured.h"
#include "core/util/error.h"
#include "core/tensor/index_math.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
// a op b, as TensorIterator builds it: broadcast shape, promoted dtype, laid out as the
// operand that has the result's shape (self first).
StructuredMeta binary_structured(const Tensor& self, const Tensor& other, PromoteInts promote) {
  StructuredMeta m;
  if (involves_meta({&self, &other})) {
    m.sizes = meta_broadcast_shapes({&self, &other});
    m.device = Device(DeviceType::Meta);
    m.meta_device_mismatch = meta_device_mismatch({&self, &other});
  } else {
    m.sizes = broadcast_shapes(self.sizes(), other.sizes());
    m.device = check_same_device({&self, &other});
  }
  m.compute_dtype = binary_dtype(self, other, promote);
  m.dtype = m.compute_dtype;
  m.layout_like = self.sizes() == m.sizes ? &self : (other.sizes() == m.sizes ? &other : nullptr);
  return m;
}
// A unary op: self's shape and layout; `promote` makes integer inputs float (exp, sin, ...).
StructuredMeta unary_structured(const Tensor& self, PromoteInts promote) {
  StructuredMeta m;
  m.sizes = self.sizes();
  m.device = self.device();
  m.compute_dtype = unary_dtype(self, promote);
  m.dtype = m.compute_dtype;
  m.layout_like = &self;
  return m;
}
}  // namespace

StructuredMeta meta_add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_alpha(self, other, alpha);
  return binary_structured(self, other, PromoteInts::No);
}
StructuredMeta meta_sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub_bool(self, other);  // before the shapes, as PyTorch's sub checks
  check_alpha(self, other, alpha);
  return binary_structured(self, other, PromoteInts::No);
}
StructuredMeta meta_mul(const Tensor& self, const Tensor& other) {
  return binary_structured(self, other, PromoteInts::No);
}
StructuredMeta meta_div(const Tensor& self, const Tensor& other) {
  return binary_structured(self, other, PromoteInts::ToFloat);
}
// div with rounding_mode: "trunc" and "floor" keep integers (the quotient is rounded), None is
// the true division.
StructuredMeta meta_div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return binary_structured(self, other, PromoteInts::ToFloat);
  IPT_CHECK(*rounding_mode == "trunc" || *rounding_mode == "floor", RuntimeError,
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *rounding_mode, "'");
  return binary_structured(self, other, PromoteInts::No);
}

// clamp with tensor bounds: TensorIterator over self and the bounds given, in their common dtype.
StructuredMeta meta_clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  const bool lo = min && min->defined(), hi = max && max->defined();
  IPT_CHECK(lo || hi, RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None");
  std::vector<const Tensor*> operands = {&self};
  if (lo) operands.push_back(&*min);
  if (hi) operands.push_back(&*max);
  StructuredMeta m;
  const std::initializer_list<const Tensor*> ops3 = {&self, lo ? &*min : &self, hi ? &*max : &self};
  if (involves_meta(ops3)) {
    m.sizes = meta_broadcast_shapes(ops3);
    m.device = Device(DeviceType::Meta);
    m.meta_device_mismatch = meta_device_mismatch(ops3);
  } else {
    m.sizes = self.sizes();
    for (const Tensor* t : operands) m.sizes = broadcast_shapes(m.sizes, t->sizes());
    m.device = check_same_device(ops3);
  }
  m.compute_dtype = lo && hi ? result_type({&self, &*min, &*max}) : result_type({&self, lo ? &*min : &*max});
  m.dtype = m.compute_dtype;
  for (const Tensor* t : operands)
    if (t->sizes() == m.sizes) {
      m.layout_like = t;
      break;
    }
  return m;
}

// maximum, minimum, fmod and the bitwise ops keep integers; atan2 makes them float.
#define IPT_BINARY_META(op, promote) \
  StructuredMeta meta_##op(const Tensor& self, const Tensor& other) { return binary_structured(self, other, promote); }
IPT_BINARY_META(maximum, PromoteInts::No)
IPT_BINARY_META(minimum, PromoteInts::No)
IPT_BINARY_META(atan2, PromoteInts::ToFloat)
IPT_BINARY_META(fmod, PromoteInts::No)
IPT_BINARY_META(bitwise_and, PromoteInts::No)
IPT_BINARY_META(bitwise_or, PromoteInts::No)
IPT_BINARY_META(bitwise_xor, PromoteInts::No)
IPT_BINARY_META(bitwise_left_shift, PromoteInts::No)
IPT_BINARY_META(bitwise_right_shift, PromoteInts::No)
#undef IPT_BINARY_META

StructuredMeta meta_neg(const Tensor& self) {
  check_neg_bool(self);
  StructuredMeta m = unary_structured(self, PromoteInts::No);
  m.out_dtype = StructuredMeta::OutDtype::Same;
  return m;
}
#define IPT_FLOAT_UNARY_META(op) \
  StructuredMeta meta_##op(const Tensor& self) { return unary_structured(self, PromoteInts::ToFloat); }
IPT_FLOAT_UNARY_META(exp)
IPT_FLOAT_UNARY_META(log)
IPT_FLOAT_UNARY_META(sqrt)
IPT_FLOAT_UNARY_META(sin)
IPT_FLOAT_UNARY_META(cos)
IPT_FLOAT_UNARY_META(tan)
IPT_FLOAT_UNARY_META(rsqrt)
IPT_FLOAT_UNARY_META(tanh)
IPT_FLOAT_UNARY_META(sigmoid)
IPT_FLOAT_UNARY_META(asin)
IPT_FLOAT_UNARY_META(acos)
IPT_FLOAT_UNARY_META(atan)
IPT_FLOAT_UNARY_META(sinh)
IPT_FLOAT_UNARY_META(cosh)
IPT_FLOAT_UNARY_META(asinh)
IPT_FLOAT_UNARY_META(acosh)
IPT_FLOAT_UNARY_META(atanh)
IPT_FLOAT_UNARY_META(log2)
IPT_FLOAT_UNARY_META(log10)
IPT_FLOAT_UNARY_META(log1p)
IPT_FLOAT_UNARY_META(expm1)
IPT_FLOAT_UNARY_META(erf)
#undef IPT_FLOAT_UNARY_META
// round, trunc and bitwise_not keep self's dtype (integers included).
#define IPT_SAME_DTYPE_UNARY_META(op) \
  StructuredMeta meta_##op(const Tensor& self) { return unary_structured(self, PromoteInts::No); }
IPT_SAME_DTYPE_UNARY_META(round)
IPT_SAME_DTYPE_UNARY_META(trunc)
IPT_SAME_DTYPE_UNARY_META(bitwise_not)
#undef IPT_SAME_DTYPE_UNARY_META
// signbit: a bool for each element, computed in self's dtype.
StructuredMeta meta_signbit(const Tensor& self) {
  StructuredMeta m = unary_structured(self, PromoteInts::No);
  m.dtype = ScalarType::Bool;
  return m;
}

// mm: a new contiguous [n, m] result of self's dtype; an out= result must have that dtype.
// The devices are the impl's to check, as in PyTorch (a meta mm takes a CPU mat2).
StructuredMeta meta_mm(const Tensor& self, const Tensor& mat2) {
  if (involves_meta({&self, &mat2})) check_meta_mm(self, mat2);
  else check_mm(self, mat2);
  StructuredMeta m;
  m.sizes = {self.sizes()[0], mat2.sizes()[1]};
  m.device = self.device();
  m.dtype = m.compute_dtype = self.dtype();
  m.out_dtype = StructuredMeta::OutDtype::Exact;
  return m;
}

// The activations keep self's dtype (TensorIterator's unary op; the kernel refuses integers),
// and their backward operators promote the gradient with self.
StructuredMeta meta_gelu(const Tensor& self, std::string_view approximate) {
  IPT_CHECK(approximate == "none" || approximate == "tanh", RuntimeError,
            "approximate argument must be either none or tanh.");
  return unary_structured(self, PromoteInts::No);
}
StructuredMeta meta_gelu_backward(const Tensor& grad_output, const Tensor& self, std::string_view approximate) {
  IPT_CHECK(approximate == "none" || approximate == "tanh", RuntimeError,
            "approximate argument must be either none or tanh.");
  return binary_structured(grad_output, self, PromoteInts::No);
}
StructuredMeta meta_elu(const Tensor& self, const Scalar&, const Scalar&, const Scalar&) {
  return unary_structured(self, PromoteInts::No);
}
StructuredMeta meta_elu_backward(const Tensor& grad_output, const Scalar& alpha, const Scalar&, const Scalar&,
                                 bool is_result, const Tensor& self_or_result) {
  IPT_CHECK(!is_result || alpha.to_double() >= 0.0, RuntimeError,
            "In-place elu backward calculation is triggered with a negative slope which is not supported. This is "
            "caused by calling in-place forward function with a negative slope, please call out-of-place version "
            "instead.");
  return binary_structured(grad_output, self_or_result, PromoteInts::No);
}
StructuredMeta meta_leaky_relu(const Tensor& self, const Scalar&) { return unary_structured(self, PromoteInts::No); }
StructuredMeta meta_leaky_relu_backward(const Tensor& grad_output, const Tensor& self, const Scalar& negative_slope,
                                        bool self_is_result) {
  IPT_CHECK(!self_is_result || negative_slope.to_double() >= 0.0, RuntimeError,
            "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. This "
            "is caused by calling in-place forward function with a negative slope, please call out-of-place version "
            "instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting in-place "
            "leakRelu backward calculation with negative slope");
  return binary_structured(grad_output, self, PromoteInts::No);
}

// tril / triu: self's shape (at least 2 dims) and dtype.
StructuredMeta meta_tril(const Tensor& self, int64_t) {
  IPT_CHECK(self.dim() >= 2, RuntimeError, "tril: input tensor must have at least 2 dimensions");
  StructuredMeta m = unary_structured(self, PromoteInts::No);
  m.out_dtype = StructuredMeta::OutDtype::Same;
  m.layout_like = nullptr;  // a new result is contiguous, whatever self's layout
  return m;
}
StructuredMeta meta_triu(const Tensor& self, int64_t) {
  IPT_CHECK(self.dim() >= 2, RuntimeError, "triu: input tensor must have at least 2 dimensions");
  StructuredMeta m = unary_structured(self, PromoteInts::No);
  m.out_dtype = StructuredMeta::OutDtype::Same;
  m.layout_like = nullptr;  // a new result is contiguous, whatever self's layout
  return m;
}
// frac keeps self's dtype (its kernel takes floating types only); copysign makes integers
// float; hypot keeps the common dtype (its kernel takes floating types only).
StructuredMeta meta_frac(const Tensor& self) { return unary_structured(self, PromoteInts::No); }
StructuredMeta meta_copysign(const Tensor& self, const Tensor& other) {
  return binary_structured(self, other, PromoteInts::ToFloat);
}
StructuredMeta meta_hypot(const Tensor& self, const Tensor& other) {
  return binary_structured(self, other, PromoteInts::No);
}
// nan_to_num keeps self's dtype (integers and bools are copied unchanged); sinc makes integers float.
StructuredMeta meta_nan_to_num(const Tensor& self, std::optional<double>, std::optional<double>,
                               std::optional<double>) {
  StructuredMeta m = unary_structured(self, PromoteInts::No);
  m.out_dtype = StructuredMeta::OutDtype::Same;
  return m;
}
StructuredMeta meta_sinc(const Tensor& self) { return unary_structured(self, PromoteInts::ToFloat); }
// xlogy: a float result, as div's.
StructuredMeta meta_xlogy(const Tensor& self, const Tensor& other) {
  return binary_structured(self, other, PromoteInts::ToFloat);
}

// The activations of activation_more: like gelu, self's dtype, and their backward operators the
// gradient promoted with self. softshrink refuses a negative lambda; glu halves one dim.
StructuredMeta meta_silu(const Tensor& self) { return unary_structured(self, PromoteInts::No); }
StructuredMeta meta_silu_backward(const Tensor& grad_output, const Tensor& self) {
  return binary_structured(grad_output, self, PromoteInts::No);
}
StructuredMeta meta_mish(const Tensor& self) { return unary_structured(self, PromoteInts::No); }
StructuredMeta meta_softplus(const Tensor& self, const Scalar&, const Scalar&) {
  return unary_structured(self, PromoteInts::No);
}
StructuredMeta meta_softplus_backward(const Tensor& grad_output, const Tensor& self, const Scalar&, const Scalar&) {
  return binary_structured(grad_output, self, PromoteInts::No);
}
StructuredMeta meta_hardsigmoid(const Tensor& self) { return unary_structured(self, PromoteInts::No); }
StructuredMeta meta_hardsigmoid_backward(const Tensor& grad_output, const Tensor& self) {
  return binary_structured(grad_output, self, PromoteInts::No);
}
StructuredMeta meta_hardswish(const Tensor& self) { return unary_structured(self, PromoteInts::No); }
StructuredMeta meta_hardshrink(const Tensor& self, const Scalar&) { return unary_structured(self, PromoteInts::No); }
StructuredMeta meta_hardshrink_backward(const Tensor& grad_out, const Tensor& self, const Scalar&) {
  return binary_structured(grad_out, self, PromoteInts::No);
}
StructuredMeta meta_softshrink(const Tensor& self, const Scalar& lambd) {
  const ScalarType dt = self.dtype();
  const double max = visit_dtype(dt, [&]<typename T>() -> double {
    if constexpr (is_float_v<T>) return static_cast<double>(std::numeric_limits<T>::max());
    else return std::numeric_limits<double>::max();
  });
  const double l = lambd.to_double();
  IPT_CHECK(l >= 0 && l <= max, RuntimeError, "lambda must be in range [0, ", max, "] for input dtype ",
            dtype_cpp_name(dt), ", but found ", l);
  return unary_structured(self, PromoteInts::No);
}
StructuredMeta meta_softshrink_backward(const Tensor& grad_output, const Tensor& self, const Scalar&) {
  return binary_structured(grad_output, self, PromoteInts::No);
}
// threshold(x) is where(x <= threshold, value, x): TensorIterator's binary op of self with itself.
StructuredMeta meta_threshold(const Tensor& self, const Scalar&, const Scalar&) {
  return unary_structured(self, PromoteInts::No);
}
StructuredMeta meta_threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar&) {
  return binary_structured(grad_output, self, PromoteInts::No);
}
StructuredMeta meta_glu(const Tensor& self, int64_t dim) {
  IPT_CHECK(self.dim() > 0, RuntimeError, "glu does not support scalars because halving size must be even");
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t n = self.sizes()[d];
  IPT_CHECK(n % 2 == 0, RuntimeError, "Halving dimension must be even, but dimension ", d, " is size ", n);
  StructuredMeta m = unary_structured(self, PromoteInts::No);
  m.sizes[d] = n / 2;
  m.layout_like = nullptr;
  return m;
}

}  // namespace ipt::native
