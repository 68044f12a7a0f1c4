// torch.Size, torch.dtype, torch.device, DispatchKey(Set) objects and value conversions.
#include "core/format/format.h"
#include "core/pytorch/identity_cache.h"
#include "core/pytorch/objects.h"
#include "core/util/error.h"

namespace ipt::pytorch {

using script::CompareOp;
using script::raise;

// One Python object per tensor, as PyTorch keeps one PyObject per TensorImpl: identity (`is`)
// then behaves the same way.
Value wrap(Tensor t) {
  static IdentityCache<TensorImpl, TensorObject> cache(8192);
  if (!t.defined()) return Value();
  const TensorImpl* key = t.impl();
  return Value(cache.get(key, [&] { return std::make_shared<TensorObject>(std::move(t)); }));
}

Value wrap(const Scalar& s) {
  if (s.is_bool()) return Value(s.to_bool());
  if (s.is_floating()) return Value(s.to_double());
  return Value(s.to_long());
}

std::optional<Tensor> as_tensor(const Value& v) {
  if (auto t = v.as<TensorObject>()) return t->tensor();
  return std::nullopt;
}

Tensor to_tensor(const Value& v, const char* what) {
  if (auto t = v.as<TensorObject>()) return t->tensor();
  raise("TypeError", std::string(what) + " must be Tensor, not " + v.type_name());
}

Scalar to_scalar(const Value& v, const char* what) {
  if (v.is_bool()) return Scalar(v.raw_bool());
  if (v.is_int()) return Scalar(v.raw_int());
  if (v.is_float()) return Scalar(v.raw_float());
  if (auto t = v.as<TensorObject>()) {
    if (t->tensor().numel() == 1) return ops::item(t->tensor());
  }
  raise("TypeError", std::string(what) + " must be Number, not " + v.type_name());
}

ScalarType to_dtype(const Value& v) {
  if (auto d = v.as<DtypeObject>()) return d->dtype();
  raise("TypeError", "dtype must be torch.dtype, not " + v.type_name());
}

Device to_device(const Value& v) {
  if (auto d = v.as<DeviceObject>()) return d->device();
  if (v.is_str()) return Device::parse(v.as_str());
  raise("TypeError", "device must be torch.device or str, not " + v.type_name());
}

std::vector<int64_t> int_list(const Value& v, const char* what) {
  if (auto s = v.as<SizeObject>()) return s->sizes();
  if (v.is_intlike()) return {v.as_int()};
  if (v.is_list() || v.is_tuple()) {
    std::vector<int64_t> out;
    for (const Value& x : script::to_vector(v)) {
      if (!x.is_intlike() && !x.as<TensorObject>())
        raise("TypeError", std::string(what) + " must be tuple of ints, but found element of type " + x.type_name());
      out.push_back(script::to_index(x));
    }
    return out;
  }
  raise("TypeError", std::string(what) + " must be tuple of ints, not " + v.type_name());
}

std::vector<int64_t> shape_from_args(const script::Args& varargs, const char* fn) {
  if (varargs.size() == 1 && !varargs[0].is_intlike()) return int_list(varargs[0], "size");
  std::vector<int64_t> out;
  for (const Value& x : varargs) {
    if (!x.is_intlike())
      raise("TypeError", std::string(fn) + "(): argument 'size' must be tuple of ints, but found element of type " +
                             x.type_name());
    out.push_back(x.as_int());
  }
  return out;
}

// ---- torch.Size ---------------------------------------------------------------------------

std::string SizeObject::repr() const {
  std::string s = "torch.Size([";
  for (size_t i = 0; i < sizes_.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes_[i]);
  return s + "])";
}

Value SizeObject::getitem(const Value& index) {
  const int64_t n = static_cast<int64_t>(sizes_.size());
  if (index.is_slice()) {
    auto r = script::resolve_slice(index.as_slice(), n);
    std::vector<int64_t> out;
    for (int64_t i = 0, k = r.start; i < r.length; ++i, k += r.step) out.push_back(sizes_[k]);
    return Value(std::make_shared<SizeObject>(out));
  }
  int64_t i = script::to_index(index);
  if (i < -n || i >= n) raise("IndexError", "tuple index out of range");
  return Value(sizes_[i < 0 ? i + n : i]);
}

Value SizeObject::iter() {
  std::vector<Value> v(sizes_.begin(), sizes_.end());
  return Value::tuple(std::move(v));
}

Value SizeObject::getattr(const std::string& name) {
  if (name == "numel") {
    int64_t n = 1;
    for (int64_t s : sizes_) n *= s;
    return Value(script::make_native_function("numel", [n](script::CallArgs&) { return Value(n); }));
  }
  return Object::getattr(name);
}

std::optional<Value> SizeObject::compare(CompareOp op, const Value& other) {
  if (op != CompareOp::Eq && op != CompareOp::Ne) return std::nullopt;
  std::optional<std::vector<int64_t>> o;
  if (auto s = other.as<SizeObject>()) o = s->sizes();
  else if (other.is_tuple() || other.is_list()) {
    std::vector<int64_t> v;
    for (const Value& x : script::to_vector(other)) {
      if (!x.is_intlike()) return Value(op == CompareOp::Ne);
      v.push_back(x.as_int());
    }
    o = v;
  }
  if (!o) return std::nullopt;
  return Value((*o == sizes_) == (op == CompareOp::Eq));
}

// ---- dtype, device ------------------------------------------------------------------------

std::optional<Value> DtypeObject::compare(CompareOp op, const Value& other) {
  if (op != CompareOp::Eq && op != CompareOp::Ne) return std::nullopt;
  auto d = other.as<DtypeObject>();
  bool eq = d && d->dtype() == t_;
  return Value(eq == (op == CompareOp::Eq));
}

Value DtypeObject::getattr(const std::string& name) {
  if (name == "is_floating_point") return Value(is_floating(t_));
  if (name == "itemsize") return Value(static_cast<int64_t>(element_size(t_)));
  return Object::getattr(name);
}

std::string DeviceObject::repr() const {
  std::string s = "device(type='";
  s += d_.type == DeviceType::CPU ? "cpu" : d_.type == DeviceType::CUDA ? "cuda" : "meta";
  s += "'";
  if (d_.index >= 0) s += ", index=" + std::to_string(d_.index);
  return s + ")";
}

Value DeviceObject::getattr(const std::string& name) {
  if (name == "type") return Value(d_.type == DeviceType::CPU ? "cpu" : d_.type == DeviceType::CUDA ? "cuda" : "meta");
  if (name == "index") return d_.index < 0 ? Value() : Value(static_cast<int64_t>(d_.index));
  return Object::getattr(name);
}

std::optional<Value> DeviceObject::compare(CompareOp op, const Value& other) {
  if (op != CompareOp::Eq && op != CompareOp::Ne) return std::nullopt;
  auto d = other.as<DeviceObject>();
  bool eq = d && d->device() == d_;
  return Value(eq == (op == CompareOp::Eq));
}

// ---- DispatchKey / DispatchKeySet ------------------------------------------------------------

// PyTorch 1.13's integer value of a DispatchKey (functionality keys first, then the
// per-backend runtime keys in blocks of 15 behind the functionality keys).
static int64_t key_number(DispatchKey k) {
  if (k.is_alias()) return 100 + static_cast<int64_t>(k.alias);
  if (!is_per_backend(k.functionality)) return static_cast<int64_t>(k.functionality);
  int block = 0;
  switch (k.functionality) {
    case Functionality::Dense: block = 0; break;
    case Functionality::Quantized: block = 1; break;
    case Functionality::Sparse: block = 2; break;
    case Functionality::NestedTensor: block = 3; break;
    default: block = 4; break;
  }
  return kNumFunctionalities + 2 + block * (kNumBackends + 1) + static_cast<int64_t>(k.backend);
}

std::string KeyObject::repr() const { return "<DispatchKey." + k_.name() + ": " + std::to_string(key_number(k_)) + ">"; }

Value KeyObject::getattr(const std::string& name) {
  if (name == "name") return Value(k_.name());
  if (name == "value") return Value(key_number(k_));
  return Object::getattr(name);
}

std::optional<Value> KeyObject::compare(CompareOp op, const Value& other) {
  if (op != CompareOp::Eq && op != CompareOp::Ne) return std::nullopt;
  auto o = other.as<KeyObject>();
  bool eq = o && o->key() == k_;
  return Value(eq == (op == CompareOp::Eq));
}

static std::optional<DispatchKeySet> to_keyset(const Value& v) {
  if (auto s = v.as<KeySetObject>()) return s->key_set();
  if (auto k = v.as<KeyObject>()) return DispatchKeySet(k->key());
  return std::nullopt;
}

std::optional<Value> KeySetObject::binary_op(script::BinaryOp op, const Value& other, bool reflected) {
  auto o = to_keyset(other);
  if (!o) return std::nullopt;
  DispatchKeySet a = reflected ? *o : ks_, b = reflected ? ks_ : *o;
  switch (op) {
    case script::BinaryOp::BitOr: return Value(std::make_shared<KeySetObject>(a | b));
    case script::BinaryOp::BitAnd: return Value(std::make_shared<KeySetObject>(a & b));
    case script::BinaryOp::Sub: return Value(std::make_shared<KeySetObject>(a - b));
    default: return std::nullopt;
  }
}

std::optional<Value> KeySetObject::compare(CompareOp op, const Value& other) {
  if (op != CompareOp::Eq && op != CompareOp::Ne) return std::nullopt;
  auto o = to_keyset(other);
  bool eq = o && *o == ks_;
  return Value(eq == (op == CompareOp::Eq));
}

std::optional<Value> KeySetObject::call_method(const std::string& name, script::Args& args, script::Kwargs& kwargs) {
  script::CallArgs a(name, args, kwargs);
  if (name == "has") {
    a.bind({"k"});
    auto k = a.get("k").as<KeyObject>();
    if (!k) raise("TypeError", "has(): argument 'k' must be DispatchKey");
    return Value(ks_.has(k->key()));
  }
  if (name == "highestPriorityTypeId") {
    a.bind({});
    return Value(std::make_shared<KeyObject>(ks_.highest_priority_key()));
  }
  if (name == "raw_repr") {
    a.bind({});
    return Value(static_cast<int64_t>(ks_.raw()));
  }
  return std::nullopt;
}

}  // namespace ipt::pytorch
