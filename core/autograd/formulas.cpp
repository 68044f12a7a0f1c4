#include "core/autograd/formulas.h"

#include <algorithm>
#include <cmath>

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt::autograd {

Tensor sum_to(const Tensor& grad, const Sizes& sizes) {
  if (!grad.defined() || grad.sizes() == sizes) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < grad.dim(); ++d)
    if (d < lead || (sizes[d - lead] == 1 && grad.sizes()[d] != 1)) dims.push_back(d);
  Tensor r = dims.empty() ? grad : ops::sum_dim_IntList(grad, IntArrayRef(dims), true);
  return ops::reshape(r, sizes);
}

Tensor mul_scalar(const Tensor& t, const Scalar& s) {
  if (!s.is_floating() && s.to_long() == 1) return t;
  return ops::mul_Scalar(t, s);
}

Tensor pow_backward(const Tensor& grad, const Tensor& self, const Scalar& exponent) {
  double e = exponent.to_double();
  if (e == 0.0) return ops::mul_Tensor(grad, native::wrapped_scalar_tensor(0.0));
  // grad * e * self ** (e - 1)
  Tensor p = ops::pow_Tensor_Scalar(self, Scalar(e - 1.0));
  return ops::mul_Tensor(grad, ops::mul_Scalar(p, exponent));
}

// Note [Formulas are built from operators]
// Every formula is written with dispatcher operators (never by reading or writing data), so
// that with create_graph=True it records a graph of its own and can be differentiated again.

// As 2.15's sinc_backward: grad * (pi x cos(pi x) - sin(pi x)) / (pi x^2), with 0 where pi x^2 == 0.
Tensor sinc_backward(const Tensor& grad, const Tensor& self) {
  const Tensor self_pi = ops::mul_Scalar(self, M_PI);
  const Tensor self_squared_pi = ops::mul_Scalar(ops::mul_Tensor(self, self), M_PI);
  const Tensor out = ops::div_Tensor(
      ops::mul_Tensor(grad, ops::sub_Tensor(ops::mul_Tensor(self_pi, ops::cos(self_pi)), ops::sin(self_pi))),
      self_squared_pi);
  return ops::where_self(ops::eq_Scalar(self_squared_pi, 0.0),
                         ops::zeros(std::vector<int64_t>{}, grad.dtype(), std::nullopt, grad.device()), out);
}

// d/dself self^e = e * self^(e-1), and 0 where e == 0 (as PyTorch, avoiding 0 * inf).
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent) {
  Tensor d = ops::mul_Tensor(
      exponent, ops::pow_Tensor_Tensor(self, ops::sub_Tensor(exponent, native::wrapped_scalar_tensor(int64_t(1)))));
  return ops::where_self(ops::eq_Scalar(exponent, Scalar(0.0)), native::wrapped_scalar_tensor(0.0),
                         ops::mul_Tensor(grad, d));
}

// d/de self^e = self^e * log(self), and 0 where self == 0 and e >= 0 (as PyTorch).
Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result) {
  Tensor zero_base = ops::logical_and(ops::eq_Scalar(self, Scalar(0.0)), ops::ge_Scalar(exponent, Scalar(0.0)));
  Tensor d = ops::where_self(zero_base, native::wrapped_scalar_tensor(0.0), ops::mul_Tensor(result, ops::log(self)));
  return ops::mul_Tensor(grad, d);
}

// PyTorch 2.15's threshold_backward: result <= 0 ? 0 : grad (selected, so a negative gradient
// there gives +0, not the -0 of a product).
Tensor threshold_backward(const Tensor& grad, const Tensor& result) {
  return ops::where_self(ops::gt_Scalar(result, Scalar(0.0)), grad, zero_of(grad));  // the mask is not differentiable
}

static std::vector<int64_t> kept_shape(const Sizes& sizes, const std::optional<Sizes>& dims) {
  std::vector<int64_t> shape = sizes;
  const int64_t nd = static_cast<int64_t>(sizes.size());
  if (!dims || dims->empty()) {
    for (auto& s : shape) s = 1;
  } else {
    for (int64_t d : *dims) shape[static_cast<size_t>(wrap_dim(d, nd))] = 1;
  }
  return shape;
}

Tensor sum_backward(const Tensor& grad, const Sizes& sizes, const std::optional<Sizes>& dims, bool keepdim) {
  Tensor g = keepdim ? grad : ops::reshape(grad, kept_shape(sizes, dims));
  return ops::expand(g, sizes);
}

Tensor mean_backward(const Tensor& grad, const Sizes& sizes, const std::optional<Sizes>& dims, bool keepdim) {
  int64_t count = 1;
  const int64_t nd = static_cast<int64_t>(sizes.size());
  if (!dims || dims->empty()) count = numel_of(sizes);
  else
    for (int64_t d : *dims) count *= sizes[static_cast<size_t>(wrap_dim(d, nd))];
  Tensor g = sum_backward(grad, sizes, dims, keepdim);
  return ops::div_Tensor(g, native::wrapped_scalar_tensor(int64_t(std::max<int64_t>(count, 1))));
}

Tensor select_backward(const Tensor& grad, const Sizes& sizes, int64_t dim, int64_t index) {
  Tensor z = ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
  ops::copy_(ops::select_int(z, dim, index), grad);
  return z;
}

Tensor slice_backward(const Tensor& grad, const Sizes& sizes, int64_t dim, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step) {
  Tensor z = ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
  ops::copy_(ops::slice_Tensor(z, dim, start, end, step), grad);
  return z;
}

Tensor as_strided_backward(const Tensor& grad, const Sizes& in_sizes, const Sizes& in_strides, int64_t in_offset,
                           const Sizes& sizes, const Sizes& strides, std::optional<int64_t> offset) {
  const int64_t view_offset = offset.value_or(in_offset);
  auto extent = [](const Sizes& sz, const Sizes& st, int64_t off) {
    int64_t e = off;
    for (size_t d = 0; d < sz.size(); ++d) {
      if (sz[d] == 0) return off;
      e += (sz[d] - 1) * st[d];
    }
    return e + 1;
  };
  const int64_t n = std::max(extent(in_sizes, in_strides, in_offset), extent(sizes, strides, view_offset));
  Tensor flat = ops::zeros(Sizes{n}, grad.dtype(), std::nullopt, grad.device());
  const std::vector<double> gv = to_double_vector(grad);
  visit_dtype(flat.dtype(), [&]<typename T>() {
    T* p = flat.data_ptr<T>();
    for (size_t i = 0; i < gv.size(); ++i) {
      int64_t lin = static_cast<int64_t>(i), pos = view_offset;
      for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
        pos += (lin % sizes[d]) * strides[d];
        lin /= sizes[d];
      }
      p[pos] = static_cast<T>(static_cast<double>(p[pos]) + gv[i]);
    }
  });
  return ops::clone(ops::as_strided(flat, in_sizes, in_strides, in_offset), MemoryFormat::Contiguous);
}

Tensor unfold_backward(const Tensor& grad, const Sizes& in_sizes, int64_t dim, int64_t size, int64_t step) {
  const int64_t nd = static_cast<int64_t>(in_sizes.size());
  const int64_t d = nd == 0 ? 0 : (dim < 0 ? dim + nd : dim);
  Sizes in_strides(in_sizes.size(), 1);
  for (int64_t k = nd - 2; k >= 0; --k) in_strides[k] = in_strides[k + 1] * in_sizes[k + 1];
  // The windows' geometry over a contiguous input of in_sizes (a 0-dim input unfolds to size 1).
  Sizes sizes = in_sizes, strides = in_strides;
  const int64_t len = nd == 0 ? 1 : in_sizes[d], st = nd == 0 ? 1 : in_strides[d];
  if (nd > 0) {
    sizes[d] = (len - size) / step + 1;
    strides[d] = st * step;
  }
  sizes.push_back(size);
  strides.push_back(st);
  return as_strided_backward(grad, in_sizes, in_strides, 0, sizes, strides, 0);
}

Tensor diagonal_backward(const Tensor& grad, const Sizes& sizes, int64_t offset, int64_t dim1, int64_t dim2) {
  Tensor z = ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
  ops::copy_(ops::diagonal(z, offset, dim1, dim2), grad);
  return z;
}

Tensor permute_backward(const Tensor& grad, const Sizes& dims) {
  std::vector<int64_t> inv(dims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    inv[static_cast<size_t>(wrap_dim(dims[i], static_cast<int64_t>(dims.size())))] = static_cast<int64_t>(i);
  return ops::permute(grad, inv);
}

Tensor unsqueeze_to(const Tensor& grad, const Sizes& sizes) { return ops::reshape(grad, sizes); }

Tensor zeros_like_grad(const Tensor& grad) {
  return ops::zeros(grad.sizes(), grad.dtype(), std::nullopt, grad.device());
}

Tensor zeros_with_sizes(const Tensor& grad, const Sizes& sizes) {
  return ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
}

Tensor to_copy_backward(const Tensor& grad, ScalarType dtype, Device device) {
  if (grad.dtype() == dtype && grad.device() == device) return grad;
  return ops::_to_copy(grad, dtype, std::nullopt, device, std::nullopt, false, std::nullopt);
}

Tensor to_dtype_of(const Tensor& grad, const Tensor& like) { return to_dtype(grad, like.dtype()); }
Tensor to_dtype(const Tensor& grad, ScalarType dtype) {
  if (grad.dtype() == dtype) return grad;
  Tensor out = ops::empty_memory_format(grad.sizes(), dtype, std::nullopt, grad.device());
  return ops::copy_(out, grad);
}

// ---- elementwise ---------------------------------------------------------------------------

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max) {
  // PyTorch 2.15 passes the gradient only strictly inside the bounds (0 at min and at max, and
  // for a NaN input), and selects it rather than multiplying, so a NaN gradient outside stays out.
  Tensor inside;
  if (min && max) inside = ops::logical_and(ops::gt_Scalar(self, *min), ops::lt_Scalar(self, *max));
  else if (min) inside = ops::gt_Scalar(self, *min);
  else inside = ops::lt_Scalar(self, *max);
  return ops::where_self(inside, grad, zero_of(grad));
}

// clamp with tensor bounds (PyTorch 2.15's clamp_backward and clamp_backward_min_max): self gets
// the gradient where it lies within the bounds, bounds included; a bound gets it where it was
// the result (min only when it is below max), summed to the bound's shape.
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Tensor>& min,
                      const std::optional<Tensor>& max) {
  const bool lo = min && min->defined(), hi = max && max->defined();
  Tensor inside;
  if (lo && hi) inside = ops::logical_and(ops::ge_Tensor(self, *min), ops::le_Tensor(self, *max));
  else if (lo) inside = ops::ge_Tensor(self, *min);
  else if (hi) inside = ops::le_Tensor(self, *max);
  else return grad;
  return sum_to(ops::where_self(inside, grad, zero_of(grad)), self.sizes());
}
std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self,
                                                  const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                                                  const std::array<bool, 2>& grad_input_mask) {
  std::tuple<Tensor, Tensor> r;
  const bool lo = min && min->defined(), hi = max && max->defined();
  if (lo && hi) {
    if (grad_input_mask[0])
      std::get<0>(r) = sum_to(ops::where_self(ops::logical_and(ops::lt_Tensor(self, *min), ops::lt_Tensor(*min, *max)),
                                              grad, zero_of(grad)),
                              min->sizes());
    if (grad_input_mask[1])
      std::get<1>(r) = sum_to(
          ops::where_self(ops::logical_or(ops::gt_Tensor(self, *max), ops::lt_Tensor(*max, *min)), grad, zero_of(grad)),
          max->sizes());
  } else if (lo && grad_input_mask[0]) {
    std::get<0>(r) = sum_to(ops::where_self(ops::lt_Tensor(self, *min), grad, zero_of(grad)), min->sizes());
  } else if (hi && grad_input_mask[1]) {
    std::get<1>(r) = sum_to(ops::where_self(ops::gt_Tensor(self, *max), grad, zero_of(grad)), max->sizes());
  }
  return r;
}

// number ** exponent, d/dexponent = result * log(number); 0 where the number is 0 and the
// exponent >= 0 (PyTorch 2.15's pow_backward_exponent for a Scalar base).
Tensor pow_backward_exponent(const Tensor& grad, const Scalar& base, const Tensor& exponent, const Tensor& result) {
  const Tensor log_base = native::wrapped_scalar_tensor(Scalar(std::log(base.to_double())));
  Tensor d = ops::mul_Tensor(result, log_base);
  if (base.to_double() == 0.0) d = ops::where_self(ops::ge_Scalar(exponent, Scalar(0.0)), zero_of(grad), d);
  return ops::mul_Tensor(grad, d);
}

// roll's backward rolls back: the shifts negated, shifts and dims reversed.
std::vector<int64_t> negated_reversed(const Sizes& v) {
  std::vector<int64_t> r(v.rbegin(), v.rend());
  for (int64_t& x : r) x = -x;
  return r;
}
std::vector<int64_t> reversed(const Sizes& v) { return std::vector<int64_t>(v.rbegin(), v.rend()); }

// PyTorch 2.15's binary_cross_entropy_target_backward: -logit(x) * grad (times the weight, over
// the count for the mean).
Tensor binary_cross_entropy_target_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction) {
  Tensor logit = ops::log(ops::div_Tensor(self, ops::rsub_Scalar(self, Scalar(int64_t(1)), 1)));
  Tensor g = ops::mul_Tensor(ops::neg(logit), grad);
  if (weight && weight->defined()) g = ops::mul_Tensor(g, *weight);
  if (reduction == 1) g = ops::div_Scalar(g, Scalar(target.numel()));
  return g;
}

// PyTorch 2.15's binary_cross_entropy_with_logits_backward and its target's.
Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                                 const std::optional<Tensor>& weight,
                                                 const std::optional<Tensor>& pos_weight, int64_t reduction) {
  Tensor g;
  if (pos_weight && pos_weight->defined()) {
    Tensor t = ops::mul_Tensor(*pos_weight, target);
    g = ops::sub_Tensor(
        ops::mul_Tensor(ops::sub_Tensor(ops::add_Scalar(t, Scalar(int64_t(1)), 1), target, 1), ops::sigmoid(self)), t,
        1);
  } else {
    g = ops::sub_Tensor(ops::sigmoid(self), target, 1);
  }
  g = ops::mul_Tensor(g, grad);
  if (weight && weight->defined()) g = ops::mul_Tensor(g, *weight);
  if (reduction == 1) g = ops::div_Scalar(g, Scalar(self.numel()));
  return g;
}
Tensor binary_cross_entropy_with_logits_target_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                                        const std::optional<Tensor>& weight,
                                                        const std::optional<Tensor>& pos_weight, int64_t reduction) {
  Tensor g;
  if (pos_weight && pos_weight->defined())
    g = ops::mul_Tensor(
        ops::sub_Tensor(ops::log_sigmoid(ops::neg(self)), ops::mul_Tensor(ops::log_sigmoid(self), *pos_weight), 1),
        grad);
  else g = ops::mul_Tensor(ops::neg(self), grad);
  if (weight && weight->defined()) g = ops::mul_Tensor(g, *weight);
  if (reduction == 1) g = ops::div_Scalar(g, Scalar(target.numel()));
  return g;
}

// masked_scatter's source gradient: the gradient where the mask is true, in order, then zeros to
// source's size (PyTorch 2.15's masked_scatter_backward).
Tensor masked_scatter_backward(const Tensor& grad, const Tensor& mask, const Sizes& source_sizes) {
  int64_t numel = 1;
  for (int64_t s : source_sizes) numel *= s;
  Tensor selected = ops::masked_select(grad, mask);
  const int64_t diff = numel - selected.numel();
  if (diff > 0) {
    Tensor zeros = ops::zeros(Sizes{diff}, grad.dtype(), std::nullopt, grad.device());
    selected = ops::cat(std::vector<Tensor>{selected, zeros}, 0);
  }
  return ops::view(selected, source_sizes);
}

// PyTorch 2.15's copysign_tensor_self_backward: grad * result / self, 0 where self is 0.
Tensor copysign_tensor_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result) {
  Tensor ratio = ops::masked_fill_Scalar(ops::div_Tensor(result, self), ops::eq_Scalar(self, Scalar(0.0)), Scalar(0.0));
  return ops::mul_Tensor(grad, ratio);
}

Tensor not_implemented(const char* op) { IPT_FAIL(RuntimeError, "derivative for ", op, " is not implemented"); }
Tensor formula_not_implemented(const char* what) {
  IPT_FAIL(NotImplementedError, "the derivative for '", what, "' is not implemented.");
}

Tensor zero_of(const Tensor& grad) {
  (void)grad;
  return native::wrapped_scalar_tensor(0.0);
}

// ---- reductions ------------------------------------------------------------------------------

Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& self, const Tensor& result) {
  const bool is_nan = std::isnan(ops::item(result).to_double());
  Tensor mask = is_nan ? ops::isnan(self) : ops::eq_Tensor(self, result);
  // As 2.15 does it on the CPU: zeros with the share filled in where the mask is (so the other
  // elements get +0.0, never -0.0 from a negative gradient times 0).
  const Tensor share = ops::div_Tensor(grad, ops::sum(mask));
  return ops::where_self(mask, share, ops::new_zeros(grad, self.sizes(), self.dtype()));
}

Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices, const Sizes& sizes,
                                          bool keepdim) {
  // PyTorch 2.15's: zeros with the gradient scattered to where the selected values came from
  // (max / min / kthvalue select one along dim, sort and topk several).
  Tensor out = ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
  if (sizes.empty()) return ops::add_Tensor(out, grad);
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  const Tensor g = keepdim ? grad : ops::unsqueeze(grad, d);
  const Tensor idx = keepdim ? indices : ops::unsqueeze(indices, d);
  return ops::scatter_src(out, d, idx, g);
}

namespace {
// PyTorch's restore_reduced_dims / unsqueeze_multiple: t with the reduced dims of an input of
// `ndim` dims put back as size 1 (an empty list reduced every dim: t is 0-dim and broadcasts).
Tensor restore_reduced_dims(const Tensor& t, const Sizes& dim, int64_t ndim, bool keepdim) {
  if (keepdim || ndim == 0) return t;
  std::vector<int64_t> dims;
  for (int64_t d : dim) dims.push_back(wrap_dim(d, ndim));
  std::sort(dims.begin(), dims.end());
  Tensor r = t;
  for (int64_t d : dims) r = ops::unsqueeze(r, d);
  return r;
}
}  // namespace

Tensor amax_backward(const Tensor& grad, const Tensor& self, const Tensor& result, const Sizes& dim, bool keepdim) {
  const Tensor mask = ops::eq_Tensor(restore_reduced_dims(result, dim, self.dim(), keepdim), self);
  const Tensor count = ops::sum_dim_IntList(mask, IntArrayRef(dim), true);
  return ops::mul_Tensor(ops::div_Tensor(restore_reduced_dims(grad, dim, self.dim(), keepdim), count), mask);
}

Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, const Sizes& dim,
                          bool keepdim) {
  const Tensor g = restore_reduced_dims(grad, dim, self.dim(), keepdim);
  const Tensor r = restore_reduced_dims(result, dim, self.dim(), keepdim);
  return ops::mul_Tensor(g, ops::exp(ops::sub_Tensor(self, r)));
}

Tensor prod_backward(const Tensor& grad, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (self.numel() == 0) return ops::zeros_like(self);
  // Written through data, not operators (see Note [Formulas are built from operators]).
  IPT_CHECK(!grad_mode_enabled() || !(grad.requires_grad() || self.requires_grad()), NotImplementedError,
            "double backward through prod is not supported yet");
  const Sizes& sizes = self.sizes();
  const int64_t nd = self.dim();
  int64_t outer = 1, len = std::max<int64_t>(self.numel(), 1), inner = 1;
  Tensor g = grad;
  if (dim && nd > 0) {
    const int64_t d = wrap_dim(*dim, nd);
    outer = 1, inner = 1, len = sizes[static_cast<size_t>(d)];
    for (int64_t i = 0; i < d; ++i) outer *= sizes[static_cast<size_t>(i)];
    for (int64_t i = d + 1; i < nd; ++i) inner *= sizes[static_cast<size_t>(i)];
    if (!keepdim) g = ops::unsqueeze(grad, d);
  }
  // others[k] = product of the slice without element k (prefix * suffix products).
  Tensor x = ops::contiguous(self);
  Tensor others = ops::empty_memory_format(sizes, self.dtype(), std::nullopt, self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* px = x.data_ptr<T>();
    T* po = others.data_ptr<T>();
    std::vector<double> prefix(static_cast<size_t>(len) + 1);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        auto at = [&](int64_t k) { return (o * len + k) * inner + i; };
        prefix[0] = 1;
        for (int64_t k = 0; k < len; ++k)
          prefix[static_cast<size_t>(k) + 1] = prefix[static_cast<size_t>(k)] * static_cast<double>(px[at(k)]);
        double suffix = 1;
        for (int64_t k = len - 1; k >= 0; --k) {
          po[at(k)] = static_cast<T>(prefix[static_cast<size_t>(k)] * suffix);
          suffix *= static_cast<double>(px[at(k)]);
        }
      }
  });
  return ops::mul_Tensor(g, others);
}

static int64_t reduced_count(const Sizes& sizes, const std::optional<Sizes>& dims) {
  if (!dims || dims->empty()) return numel_of(sizes);
  int64_t n = 1;
  for (int64_t d : *dims)
    n *= sizes.empty() ? 1 : sizes[static_cast<size_t>(wrap_dim(d, static_cast<int64_t>(sizes.size())))];
  return n;
}

Tensor var_backward(const Tensor& grad, const Tensor& self, const std::optional<Sizes>& dim,
                    std::optional<int64_t> correction, bool keepdim) {
  const int64_t n = reduced_count(self.sizes(), dim);
  const double dof = static_cast<double>(n - correction.value_or(1));
  Tensor g = keepdim ? grad : ops::reshape(grad, kept_shape(self.sizes(), dim));
  std::optional<IntArrayRef> dims;
  if (dim) dims = IntArrayRef(*dim);
  Tensor centered = ops::sub_Tensor(self, ops::mean_dim(self, dims, true));
  return ops::mul_Tensor(mul_scalar(g, Scalar(2.0 / dof)), centered);
}

Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self, const std::optional<Sizes>& dim,
                    std::optional<int64_t> correction, bool keepdim) {
  Tensor grad_var = ops::div_Tensor(grad, mul_scalar(result, 2));
  grad_var = ops::masked_fill__Scalar(grad_var, ops::eq_Scalar(result, 0), 0);
  return var_backward(grad_var, self, dim, correction, keepdim);
}

Tensor norm_backward(const Tensor& grad_in, const Tensor& self, const std::optional<Scalar>& p_opt,
                     const Tensor& result, const Sizes& dim, bool keepdim) {
  const double p = p_opt ? p_opt->to_double() : 2.0;
  Tensor grad = grad_in, norm = result;
  if (!keepdim && self.dim() != 0) {
    std::optional<Sizes> dims = dim.empty() ? std::nullopt : std::optional<Sizes>(dim);
    grad = ops::reshape(grad, kept_shape(self.sizes(), dims));
    norm = ops::reshape(norm, kept_shape(self.sizes(), dims));
  }
  if (p == 0.0) return Tensor();  // no gradient at all (PyTorch leaves .grad None)
  if (p == 1.0) return ops::mul_Tensor(ops::sign(self), grad);
  if (p == 2.0)
    return ops::mul_Tensor(grad, ops::masked_fill__Scalar(ops::div_Tensor(self, norm), ops::eq_Scalar(norm, 0), 0));
  if (std::isinf(p)) {
    Tensor a = ops::abs(self);
    Tensor mask = ops::logical_or(ops::eq_Tensor(a, norm), ops::isnan(a));
    std::optional<IntArrayRef> dims;
    if (!dim.empty()) dims = IntArrayRef(dim);
    Tensor count = self.dim() == 0 ? ops::ones_like(norm) : ops::sum_dim_IntList(mask, dims, true);
    return ops::mul_Tensor(ops::sign(self), ops::mul_Tensor(ops::div_Tensor(grad, count), mask));
  }
  if (p < 1.0) {
    Tensor scaled = ops::mul_Tensor(
        ops::sign(self),
        ops::masked_fill__Scalar(ops::pow_Tensor_Scalar(ops::abs(self), p - 1), ops::eq_Scalar(self, 0), 0));
    return ops::mul_Tensor(ops::mul_Tensor(scaled, grad), ops::pow_Tensor_Scalar(norm, 1 - p));
  }
  Tensor scaled = p < 2.0 ? ops::mul_Tensor(ops::sign(self), ops::pow_Tensor_Scalar(ops::abs(self), p - 1))
                          : ops::mul_Tensor(self, ops::pow_Tensor_Scalar(ops::abs(self), p - 2));
  Tensor scale =
      ops::masked_fill__Scalar(ops::div_Tensor(grad, ops::pow_Tensor_Scalar(norm, p - 1)), ops::eq_Scalar(norm, 0), 0);
  return ops::mul_Tensor(scaled, scale);
}

Tensor cumsum_backward(const Tensor& grad, int64_t dim) {
  if (grad.dim() == 0) return grad;
  Tensor total = ops::sum_dim_IntList(grad, Sizes{dim}, true);
  return ops::add_Tensor(ops::sub_Tensor(total, ops::cumsum(grad, dim)), grad);
}

Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result) {
  if (self.numel() <= 1) return grad;
  const int64_t d = wrap_dim(dim, self.dim()), n = self.size(d);
  if (n == 1) return grad;
  const Tensor w = ops::mul_Tensor(result, grad);
  if (!ops::item(ops::any(ops::eq_Scalar(self, 0))).to_bool()) {
    // w's running sums from the end, w.flip(d).cumsum(d).flip(d), as 2.15 writes them
    const Sizes dims{d};
    return ops::div_Tensor(ops::flip(ops::cumsum(ops::flip(w, dims), d), dims), self);
  }
  std::vector<Tensor> parts;
  const Tensor one = ops::ones_like(ops::narrow(self, d, 0, 1));
  for (int64_t k = 0; k < n; ++k) {
    // self_0 * .. * self_{k-1}, then 1, self_{k+1}, self_{k+1} * self_{k+2}, ...
    std::vector<Tensor> omitted{one};
    if (k + 1 < n) omitted.push_back(ops::cumprod(ops::narrow(self, d, k + 1, n - k - 1), d));
    Tensor products = ops::cat(omitted, d);
    if (k > 0) products = ops::mul_Tensor(products, ops::prod_dim_int(ops::narrow(self, d, 0, k), d, true));
    parts.push_back(ops::sum_dim_IntList(ops::mul_Tensor(ops::narrow(grad, d, k, n - k), products), Sizes{d}, true));
  }
  return ops::cat(parts, d);
}

// ---- joining and splitting -------------------------------------------------------------------

std::vector<Tensor> cat_tensors_backward(const Tensor& grad, const std::vector<Sizes>& sizes, int64_t dim) {
  std::vector<Tensor> out;
  const int64_t d = wrap_dim(dim, grad.dim());
  int64_t offset = 0;
  for (const Sizes& s : sizes) {
    if (s.size() == 1 && s[0] == 0) {  // skipped by cat
      out.push_back(ops::zeros(s, grad.dtype(), std::nullopt, grad.device()));
      continue;
    }
    const int64_t n = s[static_cast<size_t>(d)];
    out.push_back(ops::narrow(grad, d, offset, n));
    offset += n;
  }
  return out;
}

std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim, const std::vector<Sizes>& sizes) {
  (void)sizes;
  return ops::unbind_int(grad, dim);
}

// The pieces' gradients with zeros (of each piece's shape) where a piece got none, joined along d.
static Tensor join_piece_grads(const std::vector<Tensor>& grads, int64_t d, const Sizes& sizes,
                               const std::vector<int64_t>& piece_lengths, bool stacked) {
  const Tensor* any = nullptr;
  for (const Tensor& g : grads)
    if (g.defined()) any = &g;
  std::vector<Tensor> parts;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) {
      parts.push_back(grads[i]);
      continue;
    }
    Sizes s = sizes;
    if (stacked) s.erase(s.begin() + d);
    else s[static_cast<size_t>(d)] = piece_lengths[i];
    parts.push_back(ops::zeros(s, any->dtype(), std::nullopt, any->device()));
  }
  return stacked ? ops::stack(parts, d) : ops::cat(parts, d);
}

Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, const Sizes& split_sizes, int64_t dim,
                                 const Sizes& sizes) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  return join_piece_grads(grads, d, sizes, split_sizes, false);
}

Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, const Sizes& sizes) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  const int64_t n = sizes[static_cast<size_t>(d)];
  std::vector<int64_t> lengths;
  for (size_t i = 0; i < grads.size(); ++i)
    lengths.push_back(std::min<int64_t>(split_size, n - static_cast<int64_t>(i) * split_size));
  return join_piece_grads(grads, d, sizes, lengths, false);
}

Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim, const Sizes& sizes) {
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  return join_piece_grads(grads, d, sizes, {}, true);
}

Tensor repeat_backward(const Tensor& grad, const Sizes& repeats, const Sizes& sizes) {
  const size_t lead = repeats.size() - sizes.size();
  Sizes split_shape;
  std::vector<int64_t> sum_dims;
  for (size_t i = 0; i < repeats.size(); ++i) {
    const int64_t s = i < lead ? 1 : sizes[i - lead];
    sum_dims.push_back(static_cast<int64_t>(split_shape.size()));
    split_shape.push_back(repeats[i]);
    split_shape.push_back(s);
  }
  if (numel_of(split_shape) == 0) return ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
  Tensor g = ops::sum_dim_IntList(ops::reshape(grad, split_shape), IntArrayRef(sum_dims), false);
  return ops::reshape(g, sizes);
}

Tensor index_copy_self_backward(const Tensor& grad, int64_t dim, const Tensor& index, const Sizes& source_sizes) {
  Tensor z = ops::zeros(source_sizes, grad.dtype(), std::nullopt, grad.device());
  return ops::index_copy(grad, dim, index, z);
}

Tensor index_copy_source_backward(const Tensor& grad, int64_t dim, const Tensor& index, const Sizes& source_sizes) {
  Tensor g = ops::index_select(grad, dim, index);
  return source_sizes.empty() ? ops::reshape(g, Sizes{}) : g;
}

// ---- indexing --------------------------------------------------------------------------------

Tensor index_fill_value_backward(const Tensor& grad, int64_t dim, const Tensor& index) {
  const Tensor unique_index = std::get<0>(ops::_unique(index, false, false));
  return ops::sum(ops::index_select(grad, dim, unique_index));
}

Tensor take_backward(const Tensor& grad, const Sizes& self_sizes, const Tensor& index) {
  const Tensor flat = ops::zeros(Sizes{numel_of(self_sizes)}, grad.dtype(), std::nullopt, grad.device());
  const std::vector<std::optional<Tensor>> at{ops::reshape(index, Sizes{-1})};
  return ops::view(ops::index_put_(flat, at, ops::reshape(grad, Sizes{-1}), true), self_sizes);
}

Tensor index_backward(const Tensor& grad, const Sizes& self_sizes, std::span<const std::optional<Tensor>> indices) {
  Tensor z = ops::zeros(self_sizes, grad.dtype(), std::nullopt, grad.device());
  return ops::index_put_(z, indices, grad, true);
}

Tensor index_put_self_backward(const Tensor& grad, std::span<const std::optional<Tensor>> indices,
                               const Sizes& values_sizes, bool accumulate) {
  if (accumulate) return grad;
  return ops::index_put(grad, indices, ops::zeros(values_sizes, grad.dtype(), std::nullopt, grad.device()), false);
}

Tensor index_select_backward(const Tensor& grad, const Sizes& self_sizes, int64_t dim, const Tensor& index) {
  Tensor z = ops::zeros(self_sizes, grad.dtype(), std::nullopt, grad.device());
  return ops::index_add_(z, dim, index, grad);
}

Tensor gather_backward(const Tensor& grad, const Sizes& self_sizes, int64_t dim, const Tensor& index) {
  Tensor z = ops::zeros(self_sizes, grad.dtype(), std::nullopt, grad.device());
  return ops::scatter_add_(z, dim, index, grad);
}

Tensor masked_select_backward(const Tensor& grad, const Sizes& self_sizes, const Tensor& mask) {
  const Sizes shape = broadcast_shapes(mask.sizes(), self_sizes);
  Tensor z = ops::zeros(shape, grad.dtype(), std::nullopt, grad.device());
  // The mask's true positions, as flat indices into the (contiguous) zeros.
  const std::optional<Tensor> where[] = {
      ops::reshape(ops::nonzero(ops::reshape(ops::expand(mask, shape), Sizes{-1})), Sizes{-1})};
  ops::index_put_(ops::reshape(z, Sizes{-1}), where, grad);
  return sum_to(z, self_sizes);
}

Tensor index_add_source_backward(const Tensor& grad, int64_t dim, const Tensor& index, const Sizes& source_sizes,
                                 const Scalar& alpha) {
  Tensor g = ops::index_select(grad, dim, index);
  if (source_sizes.empty()) g = ops::reshape(g, Sizes{});
  return mul_scalar(g, alpha);
}

// ---- torch.nn ----------------------------------------------------------------------------

Tensor softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim) {
  Tensor dot = ops::sum_dim_IntList(ops::mul_Tensor(grad, result), Sizes{dim}, true);
  return ops::mul_Tensor(result, ops::sub_Tensor(grad, dot));
}

Tensor log_softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim) {
  return ops::sub_Tensor(grad, ops::mul_Tensor(ops::exp(result), ops::sum_dim_IntList(grad, Sizes{dim}, true)));
}

Tensor mse_loss_backward(const Tensor& grad, const Tensor& input, const Tensor& target, int64_t reduction) {
  Tensor diff = ops::sub_Tensor(input, target);
  double norm = 2.0;
  if (reduction == 1) norm /= static_cast<double>(std::max<int64_t>(diff.numel(), 1));
  return ops::mul_Tensor(mul_scalar(diff, Scalar(norm)), grad);
}

// In PyTorch's order, grad * (1 - y) * y, left to right: another grouping rounds differently.
Tensor sigmoid_backward(const Tensor& grad, const Tensor& result) {
  return ops::mul_Tensor(ops::mul_Tensor(grad, ops::rsub_Scalar(result, 1)), result);
}

Tensor tanh_backward(const Tensor& grad, const Tensor& result) {
  return ops::mul_Tensor(grad, ops::rsub_Scalar(ops::mul_Tensor(result, result), 1));
}

Tensor addcdiv_tensor2_backward(const Tensor& grad, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  Tensor q = ops::div_Tensor(ops::mul_Tensor(grad, tensor1), ops::mul_Tensor(tensor2, tensor2));
  return ops::neg(mul_scalar(q, value));
}

Sizes negated(const Sizes& v) {
  Sizes out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = -v[i];
  return out;
}

double dropout_scale(double p, std::optional<bool> train) {
  if (!train || !*train) return 1.0;
  return p == 1.0 ? 0.0 : 1.0 / (1.0 - p);
}

// scatter_reduce's gradients, as 2.15 computes them:
// - sum: self gets grad, src grad gathered;
// - mean: both divided by the count of values each target reduced;
// - prod: grad * result / value, where a value that is the only zero of its target gets the
//   product of the others instead (found by reducing again with it replaced by 1);
// - amax / amin: split evenly among the values equal to the result.
// Without include_self, self's scattered positions get none.
std::tuple<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                   const Tensor& index, const Tensor& src, std::string_view reduce,
                                                   bool include_self, const Tensor& result,
                                                   const std::array<bool, 2>& grad_input_mask) {
  Tensor grad_self, grad_src;
  const ScalarType dtype = self.dtype();
  switch (scatter_reduction(reduce)) {
    case ScatterReduction::Sum:
      grad_self = grad;
      grad_src = ops::gather(grad, dim, index, false);
      break;
    case ScatterReduction::Prod: {
      const Tensor masked_self = ops::masked_fill_Scalar(self, ops::eq_Scalar(self, Scalar(0.0)), Scalar(1.0));
      const Tensor masked_self_result = ops::scatter_reduce_two(masked_self, dim, index, src, reduce, include_self);
      grad_self = ops::div_Tensor(ops::mul_Tensor(grad, masked_self_result), masked_self);
      const Tensor src_zero = ops::eq_Scalar(src, Scalar(0.0));
      const Tensor src_num_zeros = ops::gather(
          ops::scatter_add(ops::zeros_like(self), dim, index, to_dtype(src_zero, dtype)), dim, index, false);
      const Tensor src_single_zero = ops::bitwise_and_Tensor(src_zero, ops::eq_Scalar(src_num_zeros, Scalar(1.0)));
      const Tensor masked_src = ops::masked_fill_Scalar(src, src_single_zero, Scalar(1.0));
      const Tensor masked_src_result = ops::scatter_reduce_two(self, dim, index, masked_src, reduce, include_self);
      const Tensor grad_src1 =
          ops::where_self(src_single_zero, ops::gather(ops::mul_Tensor(grad, masked_src_result), dim, index, false),
                          ops::div_Tensor(ops::gather(ops::mul_Tensor(grad, result), dim, index, false),
                                          ops::masked_fill_Scalar(src, src_zero, Scalar(1.0))));
      grad_src = grad_src1;
      break;
    }
    case ScatterReduction::Mean: {
      Tensor n = include_self ? ops::ones_like(grad) : ops::zeros_like(grad);
      n = ops::scatter_add(n, dim, index, ops::ones_like(src));
      n = ops::masked_fill_Scalar(n, ops::eq_Scalar(n, Scalar(0.0)), Scalar(1.0));
      grad_self = ops::div_Tensor(grad, n);
      grad_src = ops::div_Tensor(ops::gather(grad, dim, index, false), ops::gather(n, dim, index, false));
      break;
    }
    case ScatterReduction::Amax:
    case ScatterReduction::Amin: {
      const Tensor value = ops::gather(result, dim, index, false);
      const Tensor self_is_result = ops::eq_Tensor(self, result), src_is_result = ops::eq_Tensor(src, value);
      const Tensor n = ops::scatter_add(to_dtype(self_is_result, dtype), dim, index, to_dtype(src_is_result, dtype));
      const Tensor distributed = ops::div_Tensor(grad, n);
      grad_self = ops::mul_Tensor(self_is_result, distributed);
      grad_src = ops::mul_Tensor(src_is_result, ops::gather(distributed, dim, index, false));
      break;
    }
  }
  if (!include_self) grad_self = ops::scatter_value(grad_self, dim, index, Scalar(0.0));
  return {grad_input_mask[0] ? grad_self : Tensor(), grad_input_mask[1] ? grad_src : Tensor()};
}

std::tuple<Tensor, Tensor> euclidean_dist_backward(const Tensor& grad, const Tensor& x1, const Tensor& x2,
                                                   const Tensor& result, const std::array<bool, 2>& grad_input_mask) {
  if (!grad.defined()) return {Tensor(), Tensor()};
  Tensor ratio = ops::div_Tensor(grad, result);
  ratio = ops::masked_fill_Scalar(ratio, ops::eq_Scalar(result, Scalar(0.0)), Scalar(0.0));
  Tensor g1, g2;
  if (grad_input_mask[0])
    g1 = ops::sub_Tensor(ops::mul_Tensor(x1, ops::sum_dim_IntList(ratio, std::vector<int64_t>{-1}, true)),
                         ops::matmul(ratio, x2));
  if (grad_input_mask[1])
    g2 = ops::sub_Tensor(
        ops::mul_Tensor(x2, ops::unsqueeze(ops::sum_dim_IntList(ratio, std::vector<int64_t>{-2}, false), -1)),
        ops::matmul(ops::transpose_int(ratio, -2, -1), x1));
  return {g1, g2};
}

Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim) {
  if (indices.numel() == 0) return ops::empty_like(indices, grad.dtype());
  std::vector<int64_t> size(indices.sizes().begin(), indices.sizes().end() - dim);
  size.push_back(-1);
  const Tensor indices_view = ops::view(indices, size);
  return ops::view(ops::gather(ops::view(ops::contiguous(grad), size), -1, indices_view, false), indices.sizes());
}

Tensor embedding_dense_double_backward(const Tensor& grad, const Tensor& indices, int64_t padding_idx) {
  Tensor gg_weight = ops::index_select(grad, 0, ops::reshape(indices, std::vector<int64_t>{-1}));
  std::vector<int64_t> size = indices.sizes();
  size.push_back(-1);
  if (padding_idx >= 0)
    gg_weight = ops::masked_fill__Scalar(
        gg_weight, ops::reshape(ops::eq_Scalar(indices, Scalar(padding_idx)), std::vector<int64_t>{-1, 1}),
        Scalar(0.0));
  return ops::view(gg_weight, size);
}

}  // namespace ipt::autograd
