// The snippet-side Tensor: attributes, methods, operators and Python indexing, each mapped
// onto the runtime's operators (so every call goes through the dispatcher and is traced).
#include "core/ops/scalar_tensor.h"
#include <map>

#include "core/autograd/engine.h"
#include "core/autograd/node.h"
#include "core/format/format.h"
#include "core/ops/autograd_hooks.h"
#include "core/pytorch/objects.h"
#include "core/script/format.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::pytorch {

using script::Args;
using script::BinaryOp;
using script::CallArgs;
using script::Kwargs;
using script::Param;
using script::raise;

namespace {

format::Dtype format_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return format::Dtype::Float32;
    case ScalarType::Double: return format::Dtype::Float64;
    case ScalarType::Long: return format::Dtype::Int64;
    case ScalarType::Bool: return format::Dtype::Bool;
  }
  return format::Dtype::Float32;
}

// A Python number or a tensor as a tensor operand (numbers become wrapped 0-dim tensors).
std::optional<Tensor> operand(const Value& v) {
  if (auto t = as_tensor(v)) return t;
  if (v.is_number()) return native::wrapped_scalar_tensor(to_scalar(v, "other"));
  return std::nullopt;
}

Value tolist_rec(const Tensor& t) {
  if (t.dim() == 0) return wrap(ops::item(t));
  std::vector<Value> items;
  for (int64_t i = 0; i < t.sizes()[0]; ++i) items.push_back(tolist_rec(ops::select_int(t, 0, i)));
  return Value::list(std::move(items));
}

std::optional<IntArrayRef> opt_dims(const Value& v, std::vector<int64_t>& storage) {
  if (v.is_none()) return std::nullopt;
  storage = int_list(v, "dim");
  return IntArrayRef(storage);
}

std::optional<ScalarType> opt_dtype(const CallArgs& a) {
  if (a.is_none("dtype")) return std::nullopt;
  return to_dtype(a.get("dtype"));
}

// x[...]: Python indexing applied as PyTorch does: ints select, slices slice, None
// unsqueezes, ... skips dims. See Note [Indexing is a chain of view operators].
//
// Note [Indexing is a chain of view operators]
// `x[1:, None, 0]` is not one operator: it is slice(dim 0) -> unsqueeze(dim 1) -> select(dim 2)
// applied left to right, each a view of the previous result. So basic indexing never copies.
Tensor apply_index(const Tensor& self, const Value& index) {
  std::vector<Value> items = index.is_tuple() ? index.as_tuple() : std::vector<Value>{index};
  int64_t consuming = 0;
  bool has_ellipsis = false;
  for (const Value& v : items) {
    if (v.is_ellipsis()) {
      if (has_ellipsis) raise("IndexError", "an index can only have a single ellipsis ('...')");
      has_ellipsis = true;
    } else if (!v.is_none()) {
      ++consuming;
    }
  }
  if (self.dim() == 0 && consuming > 0 && !items.empty() && (items[0].is_intlike()))
    raise("IndexError",
          "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a "
          "0-dim tensor to a number");
  if (consuming > self.dim())
    raise("IndexError", "too many indices for tensor of dimension " + std::to_string(self.dim()));
  Tensor r = self;
  int64_t dim = 0;       // dim of r the next index applies to
  int64_t self_dim = 0;  // dim of self it corresponds to (for messages)
  bool changed = false;
  for (const Value& v : items) {
    if (v.is_ellipsis()) {
      dim += self.dim() - consuming;
      self_dim += self.dim() - consuming;
    } else if (v.is_none()) {
      r = ops::unsqueeze(r, dim++);
      changed = true;
    } else if (v.is_slice()) {
      const auto& s = v.as_slice();
      std::optional<int64_t> start, stop;
      int64_t step = 1;
      if (!s.start.is_none()) start = script::to_index(s.start);
      if (!s.stop.is_none()) stop = script::to_index(s.stop);
      if (!s.step.is_none()) step = script::to_index(s.step);
      if (step <= 0) raise("ValueError", "step must be greater than zero");
      r = ops::slice_Tensor(r, dim++, start, stop, step);
      ++self_dim;
      changed = true;
    } else if (v.is_intlike() || v.as<TensorObject>()) {
      if (auto t = v.as<TensorObject>(); t && (t->tensor().dim() != 0 || is_floating(t->tensor().dtype())))
        raise("NotImplementedError", "indexing with a tensor (advanced indexing) is not supported yet");
      int64_t i = script::to_index(v);
      int64_t n = r.sizes()[dim];
      if (i < -n || i >= n)
        raise("IndexError", "index " + std::to_string(i) + " is out of bounds for dimension " +
                                std::to_string(self_dim) + " with size " + std::to_string(n));
      r = ops::select_int(r, dim, i);
      ++self_dim;
      changed = true;
    } else if (v.is_list()) {
      raise("NotImplementedError", "indexing with a list (advanced indexing) is not supported yet");
    } else {
      raise("IndexError",
            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got " +
                v.type_name() + ")");
    }
  }
  if (!changed) r = ops::alias(self);
  return r;
}

using Method = Value (*)(const Tensor&, CallArgs&);

Value m_view(const Tensor& t, CallArgs& a) {
  a.bind({"*size"});
  return wrap(ops::view(t, shape_from_args(a.varargs(), "view")));
}
Value m_reshape(const Tensor& t, CallArgs& a) {
  a.bind({"*shape"});
  return wrap(ops::reshape(t, shape_from_args(a.varargs(), "reshape")));
}
Value m_transpose(const Tensor& t, CallArgs& a) {
  a.bind({"dim0", "dim1"});
  return wrap(ops::transpose_int(t, a.get_int("dim0"), a.get_int("dim1")));
}
Value m_t(const Tensor& t, CallArgs& a) {
  a.bind({});
  return wrap(ops::t(t));
}
Value m_permute(const Tensor& t, CallArgs& a) {
  a.bind({"*dims"});
  return wrap(ops::permute(t, shape_from_args(a.varargs(), "permute")));
}
Value m_narrow(const Tensor& t, CallArgs& a) {
  a.bind({"dim", "start", "length"});
  return wrap(ops::narrow(t, a.get_int("dim"), a.get_int("start"), a.get_int("length")));
}
Value m_select(const Tensor& t, CallArgs& a) {
  a.bind({"dim", "index"});
  return wrap(ops::select_int(t, a.get_int("dim"), a.get_int("index")));
}
Value m_unsqueeze(const Tensor& t, CallArgs& a) {
  a.bind({"dim"});
  return wrap(ops::unsqueeze(t, a.get_int("dim")));
}
Value m_squeeze(const Tensor& t, CallArgs& a) {
  a.bind({Param("dim", Value())});
  if (a.is_none("dim")) return wrap(ops::squeeze(t));
  return wrap(ops::squeeze_dim(t, a.get_int("dim")));
}
Value m_expand(const Tensor& t, CallArgs& a) {
  a.bind({"*size"});
  return wrap(ops::expand(t, shape_from_args(a.varargs(), "expand")));
}
Value m_expand_as(const Tensor& t, CallArgs& a) {
  a.bind({"other"});
  return wrap(ops::expand(t, to_tensor(a.get("other"), "other").sizes()));
}
Value m_as_strided(const Tensor& t, CallArgs& a) {
  a.bind({"size", "stride", Param("storage_offset", Value())});
  return wrap(ops::as_strided(t, int_list(a.get("size"), "size"), int_list(a.get("stride"), "stride"),
                              a.get_optional_int("storage_offset")));
}
Value m_diagonal(const Tensor& t, CallArgs& a) {
  a.bind({Param("offset", 0), Param("dim1", 0), Param("dim2", 1)});
  return wrap(ops::diagonal(t, a.get_int("offset"), a.get_int("dim1"), a.get_int("dim2")));
}
Value m_unfold(const Tensor& t, CallArgs& a) {
  a.bind({"dimension", "size", "step"});
  return wrap(ops::unfold(t, a.get_int("dimension"), a.get_int("size"), a.get_int("step")));
}
Value m_flatten(const Tensor& t, CallArgs& a) {
  a.bind({Param("start_dim", 0), Param("end_dim", -1)});
  return wrap(ops::flatten_using_ints(t, a.get_int("start_dim"), a.get_int("end_dim")));
}
Value m_contiguous(const Tensor& t, CallArgs& a) {
  a.bind({});
  return wrap(ops::contiguous(t));
}
Value m_clone(const Tensor& t, CallArgs& a) {
  a.bind({});
  return wrap(ops::clone(t));
}
Value m_detach(const Tensor& t, CallArgs& a) {
  a.bind({});
  return wrap(ops::detach(t));
}
Value m_is_contiguous(const Tensor& t, CallArgs& a) {
  a.bind({});
  return Value(t.is_contiguous());
}
Value m_size(const Tensor& t, CallArgs& a) {
  a.bind({Param("dim", Value())});
  if (a.is_none("dim")) return Value(std::make_shared<SizeObject>(t.sizes()));
  return Value(t.size(a.get_int("dim")));
}
Value m_stride(const Tensor& t, CallArgs& a) {
  a.bind({Param("dim", Value())});
  if (a.is_none("dim")) {
    std::vector<Value> v(t.strides().begin(), t.strides().end());
    return Value::tuple(std::move(v));
  }
  return Value(t.stride(a.get_int("dim")));
}
Value m_storage_offset(const Tensor& t, CallArgs& a) {
  a.bind({});
  return Value(t.storage_offset());
}
Value m_dim(const Tensor& t, CallArgs& a) {
  a.bind({});
  return Value(t.dim());
}
Value m_numel(const Tensor& t, CallArgs& a) {
  a.bind({});
  return Value(t.numel());
}
Value m_element_size(const Tensor& t, CallArgs& a) {
  a.bind({});
  return Value(static_cast<int64_t>(element_size(t.dtype())));
}
Value m_data_ptr(const Tensor& t, CallArgs& a) {
  a.bind({});
  return Value(static_cast<int64_t>(reinterpret_cast<intptr_t>(t.impl()->raw_data())));
}
Value m_tolist(const Tensor& t, CallArgs& a) {
  a.bind({});
  return tolist_rec(t);
}
Value m_item(const Tensor& t, CallArgs& a) {
  a.bind({});
  if (t.numel() != 1) raise("ValueError", "only one element tensors can be converted to Python scalars");
  return wrap(ops::item(t));
}
Value m_is_inference(const Tensor& t, CallArgs& a) {
  a.bind({});
  return Value(t.impl()->is_inference());
}
Value m_storage(const Tensor& t, CallArgs& a) {
  a.bind({});
  return make_storage(t, false);
}
Value m_untyped_storage(const Tensor& t, CallArgs& a) {
  a.bind({});
  return make_storage(t, true);
}
Value m_backward(const Tensor& t, CallArgs& a) {
  a.bind({Param("gradient", Value()), Param("retain_graph", Value()), Param("create_graph", false)});
  std::optional<Tensor> g;
  if (!a.is_none("gradient")) g = to_tensor(a.get("gradient"), "gradient");
  if (a.get_bool("create_graph")) raise("NotImplementedError", "create_graph=True is not supported by Inside PyTorch yet");
  bool retain = !a.is_none("retain_graph") && script::truthy(a.get("retain_graph"));
  autograd::backward(t, g, retain);
  return Value();
}
Value m_retain_grad(const Tensor& t, CallArgs& a) {
  a.bind({});
  IPT_CHECK(t.requires_grad(), RuntimeError, "can't retain_grad on Tensor that has requires_grad=False");
  if (const auto& fn = autograd::grad_fn(t)) {
    auto& meta = autograd::autograd_meta(t);
    if (!meta.retains_grad) {
      meta.retains_grad = true;
      fn->retained.emplace_back(t.impl_ptr(), meta.output_nr);
    }
  }
  return Value();
}
Value m_requires_grad_(const Tensor& t, CallArgs& a) {
  a.bind({Param("requires_grad", true)});
  IPT_CHECK(is_floating(t.dtype()) || !a.get_bool("requires_grad"), RuntimeError,
            "only Tensors of floating point dtype can require gradients");
  IPT_CHECK(autograd::is_leaf(t) || a.get_bool("requires_grad"), RuntimeError,
            "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
            "subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  t.impl()->set_requires_grad(a.get_bool("requires_grad"));
  return wrap(t);
}

// Binary arithmetic as methods: add(other, alpha=1), add_(...), mul, ...
template <bool InPlace>
Value arith(const Tensor& t, CallArgs& a, BinaryOp op) {
  const bool has_alpha = op == BinaryOp::Add || op == BinaryOp::Sub;
  if (has_alpha) a.bind({"other", "*", Param("alpha", 1)});
  else a.bind({"other"});
  auto other = operand(a.get("other"));
  if (!other) raise("TypeError", a.function_name() + "(): argument 'other' must be Tensor or Number, not " + a.get("other").type_name());
  Scalar alpha = has_alpha ? to_scalar(a.get("alpha"), "alpha") : Scalar(1);
  switch (op) {
    case BinaryOp::Add: return wrap(InPlace ? ops::add__Tensor(t, *other, alpha) : ops::add_Tensor(t, *other, alpha));
    case BinaryOp::Sub: return wrap(InPlace ? ops::sub__Tensor(t, *other, alpha) : ops::sub_Tensor(t, *other, alpha));
    case BinaryOp::Mul: return wrap(InPlace ? ops::mul__Tensor(t, *other) : ops::mul_Tensor(t, *other));
    case BinaryOp::Div: return wrap(InPlace ? ops::div__Tensor(t, *other) : ops::div_Tensor(t, *other));
    default: break;
  }
  raise("TypeError", "unsupported operation");
}
Value m_add(const Tensor& t, CallArgs& a) { return arith<false>(t, a, BinaryOp::Add); }
Value m_add_(const Tensor& t, CallArgs& a) { return arith<true>(t, a, BinaryOp::Add); }
Value m_sub(const Tensor& t, CallArgs& a) { return arith<false>(t, a, BinaryOp::Sub); }
Value m_sub_(const Tensor& t, CallArgs& a) { return arith<true>(t, a, BinaryOp::Sub); }
Value m_mul(const Tensor& t, CallArgs& a) { return arith<false>(t, a, BinaryOp::Mul); }
Value m_mul_(const Tensor& t, CallArgs& a) { return arith<true>(t, a, BinaryOp::Mul); }
Value m_div(const Tensor& t, CallArgs& a) { return arith<false>(t, a, BinaryOp::Div); }
Value m_div_(const Tensor& t, CallArgs& a) { return arith<true>(t, a, BinaryOp::Div); }
Value m_neg(const Tensor& t, CallArgs& a) { a.bind({}); return wrap(ops::neg(t)); }
Value m_neg_(const Tensor& t, CallArgs& a) { a.bind({}); return wrap(ops::neg_(t)); }
Value m_exp(const Tensor& t, CallArgs& a) { a.bind({}); return wrap(ops::exp(t)); }
Value m_exp_(const Tensor& t, CallArgs& a) { a.bind({}); return wrap(ops::exp_(t)); }
Value m_relu(const Tensor& t, CallArgs& a) { a.bind({}); return wrap(ops::relu(t)); }
Value m_relu_(const Tensor& t, CallArgs& a) { a.bind({}); return wrap(ops::relu_(t)); }
Value m_pow(const Tensor& t, CallArgs& a) {
  a.bind({"exponent"});
  if (auto e = as_tensor(a.get("exponent"))) return wrap(ops::pow_Tensor_Tensor(t, *e));
  return wrap(ops::pow_Tensor_Scalar(t, to_scalar(a.get("exponent"), "exponent")));
}
Value m_pow_(const Tensor& t, CallArgs& a) {
  a.bind({"exponent"});
  return wrap(ops::pow__Scalar(t, to_scalar(a.get("exponent"), "exponent")));
}
template <bool Mean>
Value reduce(const Tensor& t, CallArgs& a) {
  a.bind({Param("dim", Value()), Param("keepdim", false), "*", Param("dtype", Value())});
  std::vector<int64_t> dims;
  auto d = opt_dims(a.get("dim"), dims);
  auto dt = opt_dtype(a);
  if (!d && !a.get_bool("keepdim")) return wrap(Mean ? ops::mean(t, dt) : ops::sum(t, dt));
  return wrap(Mean ? ops::mean_dim(t, d, a.get_bool("keepdim"), dt) : ops::sum_dim_IntList(t, d, a.get_bool("keepdim"), dt));
}
Value m_sum(const Tensor& t, CallArgs& a) { return reduce<false>(t, a); }
Value m_mean(const Tensor& t, CallArgs& a) { return reduce<true>(t, a); }
Value m_mm(const Tensor& t, CallArgs& a) {
  a.bind({"mat2"});
  return wrap(ops::mm(t, to_tensor(a.get("mat2"), "mat2")));
}
Value m_dot(const Tensor& t, CallArgs& a) {
  a.bind({"tensor"});
  return wrap(ops::dot(t, to_tensor(a.get("tensor"), "tensor")));
}
Value m_mv(const Tensor& t, CallArgs& a) {
  a.bind({"vec"});
  return wrap(ops::mv(t, to_tensor(a.get("vec"), "vec")));
}
Value m_bmm(const Tensor& t, CallArgs& a) {
  a.bind({"mat2"});
  return wrap(ops::bmm(t, to_tensor(a.get("mat2"), "mat2")));
}
Value m_squeeze_(const Tensor& t, CallArgs& a) {
  a.bind({"dim"});
  return wrap(ops::squeeze__dim(t, a.get_int("dim")));
}
Value m_matmul(const Tensor& t, CallArgs& a) {
  a.bind({"other"});
  return wrap(ops::matmul(t, to_tensor(a.get("other"), "other")));
}
Value m_fill_(const Tensor& t, CallArgs& a) {
  a.bind({"value"});
  return wrap(ops::fill__Scalar(t, to_scalar(a.get("value"), "value")));
}
Value m_zero_(const Tensor& t, CallArgs& a) {
  a.bind({});
  return wrap(ops::fill__Scalar(t, 0));
}
Value m_copy_(const Tensor& t, CallArgs& a) {
  a.bind({"src", Param("non_blocking", false)});
  return wrap(ops::copy_(t, to_tensor(a.get("src"), "src"), a.get_bool("non_blocking")));
}
Value m_normal_(const Tensor& t, CallArgs& a) {
  a.bind({Param("mean", 0.0), Param("std", 1.0)});
  return wrap(ops::normal_(t, a.get_float("mean"), a.get_float("std")));
}
Value m_uniform_(const Tensor& t, CallArgs& a) {
  a.bind({Param("from", 0.0), Param("to", 1.0)});
  return wrap(ops::uniform_(t, a.get_float("from"), a.get_float("to")));
}

const std::map<std::string, Method>& methods() {
  static const std::map<std::string, Method> m = {
      {"view", m_view}, {"reshape", m_reshape}, {"transpose", m_transpose}, {"t", m_t}, {"permute", m_permute},
      {"narrow", m_narrow}, {"select", m_select}, {"unsqueeze", m_unsqueeze}, {"squeeze", m_squeeze},
      {"expand", m_expand}, {"expand_as", m_expand_as}, {"as_strided", m_as_strided}, {"diagonal", m_diagonal},
      {"unfold", m_unfold}, {"flatten", m_flatten}, {"contiguous", m_contiguous}, {"clone", m_clone},
      {"detach", m_detach}, {"is_contiguous", m_is_contiguous}, {"size", m_size}, {"stride", m_stride},
      {"storage_offset", m_storage_offset}, {"dim", m_dim}, {"ndimension", m_dim}, {"numel", m_numel},
      {"nelement", m_numel}, {"element_size", m_element_size}, {"data_ptr", m_data_ptr}, {"tolist", m_tolist},
      {"item", m_item}, {"is_inference", m_is_inference}, {"storage", m_storage}, {"untyped_storage", m_untyped_storage},
      {"requires_grad_", m_requires_grad_}, {"backward", m_backward}, {"retain_grad", m_retain_grad}, {"add", m_add}, {"add_", m_add_}, {"sub", m_sub}, {"sub_", m_sub_},
      {"mul", m_mul}, {"mul_", m_mul_}, {"div", m_div}, {"div_", m_div_}, {"neg", m_neg}, {"neg_", m_neg_},
      {"exp", m_exp}, {"exp_", m_exp_}, {"relu", m_relu}, {"relu_", m_relu_}, {"pow", m_pow}, {"pow_", m_pow_},
      {"sum", m_sum}, {"mean", m_mean}, {"mm", m_mm}, {"matmul", m_matmul}, {"dot", m_dot}, {"mv", m_mv}, {"bmm", m_bmm}, {"squeeze_", m_squeeze_}, {"fill_", m_fill_},
      {"zero_", m_zero_}, {"copy_", m_copy_}, {"normal_", m_normal_}, {"uniform_", m_uniform_},
  };
  return m;
}

}  // namespace

// ---- attributes and methods ---------------------------------------------------------------

std::optional<Value> TensorObject::call_method(const std::string& name, Args& args, Kwargs& kwargs) {
  auto it = methods().find(name);
  if (it == methods().end()) return std::nullopt;
  CallArgs a(name, args, kwargs);
  return it->second(t_, a);
}

Value TensorObject::getattr(const std::string& name) {
  if (name == "shape") return Value(std::make_shared<SizeObject>(t_.sizes()));
  if (name == "dtype") return Value(std::make_shared<DtypeObject>(t_.dtype()));
  if (name == "device") return Value(std::make_shared<DeviceObject>(t_.device()));
  if (name == "ndim") return Value(t_.dim());
  if (name == "requires_grad") return Value(t_.requires_grad());
  if (name == "is_leaf") return Value(autograd::is_leaf(t_));
  if (name == "grad") {
    const autograd::AutogradMeta* m = t_.impl()->autograd_meta();
    return m && m->grad.defined() ? wrap(m->grad) : Value();
  }
  if (name == "grad_fn") {
    const auto& fn = autograd::grad_fn(t_);
    return fn ? make_node_object(fn) : Value();
  }
  if (name == "retains_grad") {
    const autograd::AutogradMeta* m = t_.impl()->autograd_meta();
    return Value(m && m->retains_grad);
  }
  if (name == "_base") {
    auto b = t_.impl()->is_view() ? t_.impl()->view_base() : nullptr;
    return b ? wrap(Tensor(b)) : Value();
  }
  if (name == "_version") return Value(static_cast<int64_t>(t_.impl()->version()));
  if (name == "is_meta") return Value(t_.device().type == DeviceType::Meta);
  if (name == "is_cuda") return Value(t_.device().type == DeviceType::CUDA);
  if (name == "T") {
    std::vector<int64_t> dims;
    for (int64_t d = t_.dim() - 1; d >= 0; --d) dims.push_back(d);
    return wrap(ops::permute(t_, dims));
  }
  auto it = methods().find(name);
  if (it != methods().end()) {
    Tensor self = t_;
    Method m = it->second;
    return Value(script::make_native_function(name, [self, m](CallArgs& a) { return m(self, a); }));
  }
  return Object::getattr(name);
}

void TensorObject::setattr(const std::string& name, const Value& value) {
  if (name == "requires_grad") {
    bool r = script::truthy(value);
    IPT_CHECK(autograd::is_leaf(t_), RuntimeError,
              "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
              "subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    IPT_CHECK(is_floating(t_.dtype()) || !r, RuntimeError, "only Tensors of floating point and complex dtype can require gradients");
    t_.impl()->set_requires_grad(r);
    return;
  }
  raise("AttributeError", "attribute '" + name + "' of 'torch._C._TensorBase' objects is not writable");
}

std::vector<std::string> TensorObject::dir() const {
  std::vector<std::string> d = {"shape", "dtype", "device", "ndim", "requires_grad", "is_leaf", "grad", "grad_fn", "T", "_version"};
  for (const auto& [k, v] : methods()) d.push_back(k);
  return d;
}

std::string TensorObject::repr() const {
  format::TensorPrintInfo info;
  info.sizes = t_.sizes();
  info.dtype = format_dtype(t_.dtype());
  info.device = t_.device().type == DeviceType::CUDA ? "cuda:" + std::to_string(std::max(0, t_.device().index)) : t_.device().str();
  info.is_meta = t_.device().type == DeviceType::Meta;
  if (!info.is_meta) info.values = to_double_vector(t_);
  info.requires_grad = t_.requires_grad();
  if (const auto& fn = autograd::grad_fn(t_)) info.grad_fn = fn->name();
  return format::format_tensor(info);
}

std::string TensorObject::format(std::string_view spec) const {
  if (spec.empty()) return repr();
  if (t_.dim() == 0) return script::format_value(wrap(ops::item(t_)), spec);
  raise("TypeError", "unsupported format string passed to Tensor.__format__");
}

// ---- operators ----------------------------------------------------------------------------

std::optional<Value> TensorObject::binary_op(BinaryOp op, const Value& other_v, bool reflected) {
  auto other = operand(other_v);
  if (!other) return std::nullopt;
  const Tensor& a = reflected ? *other : t_;
  const Tensor& b = reflected ? t_ : *other;
  switch (op) {
    // number + tensor and number * tensor: PyTorch calls the tensor's method (tensor first).
    case BinaryOp::Add: return wrap(reflected ? ops::add_Tensor(t_, *other) : ops::add_Tensor(a, b));
    case BinaryOp::Sub:
      // number - tensor is rsub, as in PyTorch.
      if (reflected && !as_tensor(other_v)) return wrap(ops::rsub_Scalar(t_, to_scalar(other_v, "other")));
      return wrap(ops::sub_Tensor(a, b));
    case BinaryOp::Mul: return wrap(reflected ? ops::mul_Tensor(t_, *other) : ops::mul_Tensor(a, b));
    case BinaryOp::Div:
      // number / tensor is reciprocal(tensor) * number, as in PyTorch's __rtruediv__.
      if (reflected && !as_tensor(other_v)) return wrap(ops::mul_Tensor(ops::reciprocal(t_), *other));
      return wrap(ops::div_Tensor(a, b));
    case BinaryOp::MatMul:
      if (!as_tensor(other_v)) return std::nullopt;
      return wrap(ops::matmul(a, b));
    case BinaryOp::Pow:
      if (!reflected && !as_tensor(other_v)) return wrap(ops::pow_Tensor_Scalar(a, to_scalar(other_v, "exponent")));
      return wrap(ops::pow_Tensor_Tensor(a, b));
    default:
      raise("NotImplementedError", std::string("operator ") + script::binary_op_symbol(op) +
                                       " on tensors is not supported by Inside PyTorch yet");
  }
}

std::optional<Value> TensorObject::inplace_op(BinaryOp op, const Value& other_v) {
  auto other = operand(other_v);
  if (!other) return std::nullopt;
  switch (op) {
    case BinaryOp::Add: return wrap(ops::add__Tensor(t_, *other));
    case BinaryOp::Sub: return wrap(ops::sub__Tensor(t_, *other));
    case BinaryOp::Mul: return wrap(ops::mul__Tensor(t_, *other));
    case BinaryOp::Div: return wrap(ops::div__Tensor(t_, *other));
    case BinaryOp::Pow:
      if (!as_tensor(other_v)) return wrap(ops::pow__Scalar(t_, to_scalar(other_v, "exponent")));
      return std::nullopt;
    default: return std::nullopt;
  }
}

std::optional<Value> TensorObject::unary_op(script::UnaryOp op) {
  if (op == script::UnaryOp::Neg) return wrap(ops::neg(t_));
  if (op == script::UnaryOp::Pos) return wrap(t_);
  return std::nullopt;
}

std::optional<Value> TensorObject::compare(script::CompareOp op, const Value& other) {
  if (!operand(other)) return std::nullopt;
  raise("NotImplementedError", std::string("comparison ") + script::compare_op_symbol(op) +
                                   " on tensors is not supported by Inside PyTorch yet");
}

// ---- indexing, truthiness, iteration --------------------------------------------------------

Value TensorObject::getitem(const Value& index) { return wrap(apply_index(t_, index)); }

void TensorObject::setitem(const Value& index, const Value& value) {
  Tensor target = apply_index(t_, index);
  auto src = operand(value);
  if (!src) raise("TypeError", "can't assign a " + value.type_name() + " to a Tensor");
  ops::copy_(target, *src, false);
}

bool TensorObject::truthy() const {
  IPT_CHECK(t_.numel() == 1, RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
  return ops::item(t_).to_bool();
}

std::optional<int64_t> TensorObject::len() const {
  if (t_.dim() == 0) raise("TypeError", "len() of a 0-d tensor");
  return t_.sizes()[0];
}

Value TensorObject::iter() {
  if (t_.dim() == 0) raise("TypeError", "iteration over a 0-d tensor");
  std::vector<Value> rows;
  for (int64_t i = 0; i < t_.sizes()[0]; ++i) rows.push_back(wrap(ops::select_int(t_, 0, i)));
  return Value::list(std::move(rows));
}

std::optional<int64_t> TensorObject::to_int() const {
  IPT_CHECK(t_.numel() == 1, ValueError, "only one element tensors can be converted to Python scalars");
  return ops::item(t_).to_long();
}

std::optional<double> TensorObject::to_float() const {
  IPT_CHECK(t_.numel() == 1, ValueError, "only one element tensors can be converted to Python scalars");
  return ops::item(t_).to_double();
}

std::optional<int64_t> TensorObject::index() const {
  if (t_.dim() != 0 || is_floating(t_.dtype()))
    raise("TypeError", "only integer tensors of a single element can be converted to an index");
  return ops::item(t_).to_long();
}

}  // namespace ipt::pytorch
