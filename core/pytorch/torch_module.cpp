// The `torch` module of the snippet language: factories, functions, dtypes, grad-mode
// context managers and the torch._C introspection PyTorch itself offers
// (_dispatch_keys, _dispatch_dump_table, thread-local key sets).
#include "core/dispatch/dispatcher.h"
#include "core/ops/generator.h"
#include "core/ops/scalar_tensor.h"
#include "core/pytorch/objects.h"
#include "core/tensor/tensor_trace.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::pytorch {

using script::CallArgs;
using script::Module;
using script::Param;
using script::raise;

namespace {

// ---- storage ------------------------------------------------------------------------------

class StorageObject : public script::Object {
 public:
  StorageObject(Tensor t, bool untyped) : t_(std::move(t)), untyped_(untyped) {}
  std::string type_name() const override { return untyped_ ? "UntypedStorage" : "TypedStorage"; }
  int64_t elements() const { return static_cast<int64_t>(t_.storage()->nbytes() / element_size(t_.dtype())); }
  std::optional<int64_t> len() const override { return untyped_ ? int64_t(t_.storage()->nbytes()) : elements(); }
  std::string repr() const override {
    std::string s;
    Tensor flat = make_view(t_, {elements()}, {1}, 0);
    if (!untyped_ && t_.device().type == DeviceType::CPU)
      for (int64_t i = 0; i < elements(); ++i) {
        double v = element_as_double(flat, i);
        s += " " + (is_floating(t_.dtype()) ? script::Value(v).repr() : t_.dtype() == ScalarType::Bool ? (v ? "True" : "False") : std::to_string(int64_t(v))) + "\n";
      }
    s += untyped_ ? "[torch.storage.UntypedStorage(device=" + t_.device().str() + ") of size " + std::to_string(t_.storage()->nbytes()) + "]"
                  : "[torch.storage.TypedStorage(dtype=" + dtype_repr(t_.dtype()) + ", device=" + t_.device().str() +
                        ") of size " + std::to_string(elements()) + "]";
    return s;
  }
  std::optional<Value> call_method(const std::string& name, script::Args& args, script::Kwargs& kwargs) override {
    CallArgs a(name, args, kwargs);
    if (name == "data_ptr") {
      a.bind({});
      return Value(static_cast<int64_t>(reinterpret_cast<intptr_t>(t_.storage()->data())));
    }
    if (name == "size") {
      a.bind({});
      return Value(*len());
    }
    if (name == "nbytes") {
      a.bind({});
      return Value(static_cast<int64_t>(t_.storage()->nbytes()));
    }
    if (name == "element_size") {
      a.bind({});
      return Value(untyped_ ? int64_t(1) : static_cast<int64_t>(element_size(t_.dtype())));
    }
    if (name == "tolist" && !untyped_) {
      a.bind({});
      Tensor flat = make_view(t_, {elements()}, {1}, 0);
      std::vector<Value> v;
      for (int64_t i = 0; i < elements(); ++i) v.push_back(wrap(ops::item(ops::select_int(flat, 0, i))));
      return Value::list(std::move(v));
    }
    return std::nullopt;
  }
  Value getattr(const std::string& name) override {
    if (name == "dtype" && !untyped_) return Value(std::make_shared<DtypeObject>(t_.dtype()));
    if (name == "device") return Value(std::make_shared<DeviceObject>(t_.device()));
    return Object::getattr(name);
  }

 private:
  Tensor t_;
  bool untyped_;
};

// ---- context managers ---------------------------------------------------------------------

// A `with` guard that also works as a decorator (@torch.no_grad()).
template <typename Guard>
class GuardObject : public script::Object {
 public:
  using Factory = std::function<std::unique_ptr<Guard>()>;
  GuardObject(std::string name, Factory f) : name_(std::move(name)), factory_(std::move(f)) {}
  std::string type_name() const override { return name_; }
  Value enter() override {
    stack_.push_back(factory_());
    return Value();
  }
  bool exit(bool) override {
    if (!stack_.empty()) stack_.pop_back();
    return false;
  }
  Value call(script::Args args, script::Kwargs kwargs) override {
    if (args.size() != 1 || !kwargs.empty()) return Object::call(std::move(args), std::move(kwargs));
    Value fn = args[0];
    Factory f = factory_;
    return Value(script::make_native_function(name_, [fn, f](CallArgs& a) {
      auto g = f();
      return script::call(fn, a.positional(), a.keywords());
    }));
  }

 private:
  std::string name_;
  Factory factory_;
  std::vector<std::unique_ptr<Guard>> stack_;
};

template <typename Guard>
Value guard(std::string name, typename GuardObject<Guard>::Factory f) {
  return Value(std::make_shared<GuardObject<Guard>>(std::move(name), std::move(f)));
}

// ---- factories ----------------------------------------------------------------------------

struct Options {
  std::optional<ScalarType> dtype;
  std::optional<Device> device;
  bool requires_grad = false;
};

const std::vector<Param> kOptionParams = {"*", Param("dtype", Value()), Param("layout", Value()), Param("device", Value()),
                                          Param("pin_memory", false), Param("requires_grad", false)};

std::vector<Param> with_options(std::vector<Param> p) {
  p.insert(p.end(), kOptionParams.begin(), kOptionParams.end());
  return p;
}

Options options(const CallArgs& a) {
  Options o;
  if (!a.is_none("dtype")) o.dtype = to_dtype(a.get("dtype"));
  if (!a.is_none("device")) o.device = to_device(a.get("device"));
  o.requires_grad = a.get_bool("requires_grad");
  return o;
}

// Note [Python factories run below ADInplaceOrView]
// Like torch::ones and friends (variable_factories.h), the Python-level factories build
// their tensor with the Autograd and ADInplaceOrView keys excluded, so the fill_ inside
// ones() is neither an autograd operation nor a version bump; requires_grad is set after.
struct FactoryGuard {
  ExcludeDispatchKeyGuard g{keysets::autograd_dispatch_keyset | DispatchKeySet(Functionality::ADInplaceOrView)};
};

Value finish(Tensor t, const Options& o) {
  if (o.requires_grad) {
    IPT_CHECK(is_floating(t.dtype()), RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
    t.impl()->set_requires_grad(true);
  }
  return wrap(std::move(t));
}

// torch.tensor(data): shape and dtype inferred from nested lists like PyTorch does.
void infer(const Value& v, size_t depth, std::vector<int64_t>& shape, bool& any_float, bool& all_bool,
           std::vector<double>& values) {
  if (v.is_list() || v.is_tuple()) {
    auto items = script::to_vector(v);
    if (depth == shape.size()) {
      if (!values.empty()) raise("ValueError", "expected a number at depth " + std::to_string(depth));
      shape.push_back(static_cast<int64_t>(items.size()));
    } else if (shape[depth] != static_cast<int64_t>(items.size())) {
      raise("ValueError", "expected sequence of length " + std::to_string(shape[depth]) + " at dim " +
                              std::to_string(depth) + " (got " + std::to_string(items.size()) + ")");
    }
    for (const Value& x : items) infer(x, depth + 1, shape, any_float, all_bool, values);
    return;
  }
  if (depth != shape.size()) raise("ValueError", "expected sequence of length " + std::to_string(shape[depth]) +
                                                     " at dim " + std::to_string(depth) + " (got a number)");
  if (auto t = as_tensor(v)) {
    if (t->numel() != 1) raise("ValueError", "only one element tensors can be converted to Python scalars");
    Scalar s = ops::item(*t);
    any_float = any_float || s.is_floating();
    all_bool = all_bool && s.is_bool();
    values.push_back(s.to_double());
    return;
  }
  if (!v.is_number()) raise("TypeError", "new(): invalid data type '" + v.type_name() + "'");
  any_float = any_float || v.is_float();
  all_bool = all_bool && v.is_bool();
  values.push_back(v.as_float());
}

Value torch_tensor(CallArgs& a) {
  FactoryGuard below_autograd;
  a.bind({"data", "*", Param("dtype", Value()), Param("device", Value()), Param("requires_grad", false), Param("pin_memory", false)});
  std::vector<int64_t> shape;
  bool any_float = false, all_bool = true;
  std::vector<double> values;
  infer(a.get("data"), 0, shape, any_float, all_bool, values);
  Options o = options(a);
  ScalarType dt = o.dtype.value_or(any_float || values.empty() ? ScalarType::Float : all_bool ? ScalarType::Bool : ScalarType::Long);
  Device dev = o.device.value_or(Device(DeviceType::CPU));
  Tensor cpu = make_empty(shape, dt, Device(DeviceType::CPU));
  visit_dtype(dt, [&]<typename T>() {
    T* p = cpu.data_ptr<T>();
    for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<T>(values[i]);
  });
  Tensor t = cpu;
  if (dev.type != DeviceType::CPU) {
    t = ops::empty_memory_format(shape, dt, std::nullopt, dev);
    if (dev.type != DeviceType::Meta) ops::copy_(t, cpu, false);
  }
  trace_tensor(t, "torch.tensor");
  return finish(t, o);
}

template <Tensor (*Fn)(IntArrayRef, std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>, std::optional<bool>)>
Value sized_factory(CallArgs& a, const char* name) {
  FactoryGuard below_autograd;
  a.bind(with_options({"*size"}));
  Options o = options(a);
  return finish(Fn(shape_from_args(a.varargs(), name), o.dtype, std::nullopt, o.device, std::nullopt), o);
}

Scalar scalar_arg(const CallArgs& a, const char* n) { return to_scalar(a.get(n), n); }

Value torch_arange(CallArgs& a) {
  FactoryGuard below_autograd;
  a.bind(with_options({"start", Param("end", Value()), Param("step", Value())}));
  Options o = options(a);
  Tensor t;
  if (a.is_none("end")) t = ops::arange(scalar_arg(a, "start"), o.dtype, std::nullopt, o.device, std::nullopt);
  else if (a.is_none("step")) t = ops::arange_start(scalar_arg(a, "start"), scalar_arg(a, "end"), o.dtype, std::nullopt, o.device, std::nullopt);
  else t = ops::arange_start_step(scalar_arg(a, "start"), scalar_arg(a, "end"), scalar_arg(a, "step"), o.dtype, std::nullopt, o.device, std::nullopt);
  return finish(t, o);
}

Value torch_full(CallArgs& a) {
  FactoryGuard below_autograd;
  a.bind(with_options({"size", "fill_value"}));
  Options o = options(a);
  return finish(ops::full(int_list(a.get("size"), "size"), scalar_arg(a, "fill_value"), o.dtype, std::nullopt, o.device, std::nullopt), o);
}

Value torch_empty(CallArgs& a) {
  FactoryGuard below_autograd;
  a.bind(with_options({"*size", Param("memory_format", Value())}));
  Options o = options(a);
  return finish(ops::empty_memory_format(shape_from_args(a.varargs(), "empty"), o.dtype, std::nullopt, o.device, std::nullopt, std::nullopt), o);
}

Value torch_empty_strided(CallArgs& a) {
  FactoryGuard below_autograd;
  a.bind(with_options({"size", "stride"}));
  Options o = options(a);
  return finish(ops::empty_strided(int_list(a.get("size"), "size"), int_list(a.get("stride"), "stride"), o.dtype, std::nullopt, o.device, std::nullopt), o);
}

// torch.f(tensor, ...) forwards to the tensor method f.
void forward_to_method(Module& m, const std::string& name) {
  m.def(name, [name](CallArgs& a) {
    auto& pos = a.positional();
    const Value* input = a.keyword("input");
    Value self;
    script::Kwargs kw = a.keywords();
    if (!pos.empty()) {
      self = pos[0];
      pos.erase(pos.begin());
    } else if (input) {
      self = *input;
      std::erase_if(kw, [](const auto& p) { return p.first == "input"; });
    } else {
      raise("TypeError", name + "() missing required argument 'input'");
    }
    auto t = self.as<TensorObject>();
    if (!t) raise("TypeError", name + "(): argument 'input' (position 1) must be Tensor, not " + self.type_name());
    auto r = t->call_method(name, pos, kw);
    if (!r) raise("AttributeError", "module 'torch' has no attribute '" + name + "'");
    return *r;
  });
}

const OperatorEntry& op_by_name(const std::string& name) {
  std::string n = name.rfind("aten::", 0) == 0 ? name : "aten::" + name;
  OperatorEntry* e = Dispatcher::singleton().find(n);
  if (!e) raise("RuntimeError", "could not find the operator " + name);
  return *e;
}

Value keyset(DispatchKeySet ks) { return Value(std::make_shared<KeySetObject>(ks)); }

Value make_c_module() {
  auto c = std::make_shared<Module>("torch._C");
  c->def("_dispatch_keys", [](CallArgs& a) {
    a.bind({"tensor"});
    return keyset(to_tensor(a.get("tensor"), "tensor").key_set());
  });
  c->def("_dispatch_dump_table", [](CallArgs& a) {
    a.bind({"name"});
    return Value(op_by_name(a.get_str("name")).dump_table());
  });
  c->def("_dispatch_dump", [](CallArgs& a) {
    a.bind({"name"});
    return Value(op_by_name(a.get_str("name")).dump_registrations());
  });
  c->def("_dispatch_has_kernel_for_dispatch_key", [](CallArgs& a) {
    a.bind({"name", "dispatch"});
    auto k = a.get("dispatch").as<KeyObject>();
    auto key = k ? std::optional<DispatchKey>(k->key()) : DispatchKey::parse(a.get_str("dispatch"));
    if (!key) raise("ValueError", "unknown dispatch key");
    for (const auto& [rk, f] : op_by_name(a.get_str("name")).registrations())
      if (rk == *key) return Value(true);
    return Value(false);
  });
  c->def("_dispatch_tls_local_include_set", [](CallArgs& a) {
    a.bind({});
    return keyset(local_dispatch_key_set().included);
  });
  c->def("_dispatch_tls_local_exclude_set", [](CallArgs& a) {
    a.bind({});
    return keyset(local_dispatch_key_set().excluded);
  });
  c->set("_AutoDispatchBelowAutograd", Value(script::make_native_function("_AutoDispatchBelowAutograd", [](CallArgs& a) {
    a.bind({});
    return guard<AutoDispatchBelowAutograd>("_AutoDispatchBelowAutograd", [] { return std::make_unique<AutoDispatchBelowAutograd>(); });
  })));
  c->set("ExcludeDispatchKeyGuard", Value(script::make_native_function("ExcludeDispatchKeyGuard", [](CallArgs& a) {
    a.bind({"keyset"});
    auto ks = a.get("keyset").as<KeySetObject>();
    if (!ks) raise("TypeError", "ExcludeDispatchKeyGuard(): argument must be DispatchKeySet");
    DispatchKeySet s = ks->key_set();
    return guard<ExcludeDispatchKeyGuard>("ExcludeDispatchKeyGuard", [s] { return std::make_unique<ExcludeDispatchKeyGuard>(s); });
  })));
  // torch._C.DispatchKey.<Name> and torch._C.DispatchKeySet(key)
  auto keys = std::make_shared<Module>("DispatchKey");
  for (const char* n : {"Undefined", "CPU", "CUDA", "Meta", "AutogradCPU", "AutogradCUDA", "AutogradMeta", "AutogradOther",
                        "ADInplaceOrView", "BackendSelect", "Python", "AutocastCPU", "AutocastCUDA", "Autograd",
                        "CompositeImplicitAutograd", "CompositeExplicitAutograd", "Named", "Conjugate", "Negative",
                        "ZeroTensor", "Tracer", "Functionalize", "PythonDispatcher", "QuantizedCPU", "SparseCPU"})
    keys->set(n, Value(std::make_shared<KeyObject>(*DispatchKey::parse(n))));
  c->set("DispatchKey", Value(keys));
  c->def("DispatchKeySet", [](CallArgs& a) {
    a.bind({"key"});
    auto k = a.get("key").as<KeyObject>();
    if (!k) raise("TypeError", "DispatchKeySet(): argument must be DispatchKey");
    return keyset(DispatchKeySet(k->key()));
  });
  return Value(c);
}

}  // namespace

Value make_storage(const Tensor& t, bool untyped) { return Value(std::make_shared<StorageObject>(t, untyped)); }

Value make_torch_module() {
  auto m = std::make_shared<Module>("torch");
  auto dt = [](ScalarType t) { return Value(std::make_shared<DtypeObject>(t)); };
  m->set("float32", dt(ScalarType::Float)).set("float", dt(ScalarType::Float));
  m->set("float64", dt(ScalarType::Double)).set("double", dt(ScalarType::Double));
  m->set("int64", dt(ScalarType::Long)).set("long", dt(ScalarType::Long));
  m->set("bool", dt(ScalarType::Bool));
  m->set("__version__", Value("1.13.1 (Inside PyTorch)"));

  m->def("tensor", torch_tensor);
  m->def("arange", torch_arange);
  m->def("zeros", [](CallArgs& a) { return sized_factory<ops::zeros>(a, "zeros"); });
  m->def("ones", [](CallArgs& a) { return sized_factory<ops::ones>(a, "ones"); });
  m->def("randn", [](CallArgs& a) { return sized_factory<ops::randn>(a, "randn"); });
  m->def("rand", [](CallArgs& a) { return sized_factory<ops::rand>(a, "rand"); });
  m->def("full", torch_full);
  m->def("empty", torch_empty);
  m->def("empty_strided", torch_empty_strided);
  m->def("manual_seed", [](CallArgs& a) {
    a.bind({"seed"});
    manual_seed(static_cast<uint64_t>(a.get_int("seed")));
    return Value();
  });
  m->def("device", [](CallArgs& a) {
    a.bind({"type", Param("index", Value())});
    Device d = Device::parse(a.get_str("type"));
    if (!a.is_none("index")) d.index = static_cast<int>(a.get_int("index"));
    return Value(std::make_shared<DeviceObject>(d));
  });
  m->def("Size", [](CallArgs& a) {
    a.bind({Param("sizes", Value::tuple())});
    return Value(std::make_shared<SizeObject>(int_list(a.get("sizes"), "sizes")));
  });
  m->def("is_tensor", [](CallArgs& a) {
    a.bind({"obj"});
    return Value(a.get("obj").as<TensorObject>() != nullptr);
  });
  m->def("numel", [](CallArgs& a) {
    a.bind({"input"});
    return Value(to_tensor(a.get("input"), "input").numel());
  });
  m->def("get_default_dtype", [dt](CallArgs& a) {
    a.bind({});
    return dt(ScalarType::Float);
  });
  m->def("is_grad_enabled", [](CallArgs& a) {
    a.bind({});
    return Value(grad_mode_enabled());
  });
  m->def("is_inference_mode_enabled", [](CallArgs& a) {
    a.bind({});
    return Value(inference_mode_enabled());
  });
  m->def("no_grad", [](CallArgs& a) {
    a.bind({});
    return guard<NoGradGuard>("no_grad", [] { return std::make_unique<NoGradGuard>(); });
  });
  m->def("enable_grad", [](CallArgs& a) {
    a.bind({});
    return guard<GradModeGuard>("enable_grad", [] { return std::make_unique<GradModeGuard>(true); });
  });
  m->def("set_grad_enabled", [](CallArgs& a) {
    a.bind({"mode"});
    bool on = a.get_bool("mode");
    return guard<GradModeGuard>("set_grad_enabled", [on] { return std::make_unique<GradModeGuard>(on); });
  });
  m->def("inference_mode", [](CallArgs& a) {
    a.bind({Param("mode", true)});
    bool on = a.get_bool("mode");
    return guard<InferenceModeGuard>("inference_mode", [on] { return std::make_unique<InferenceModeGuard>(on); });
  });
  for (const char* n : {"add", "sub", "mul", "div", "neg", "exp", "relu", "sum", "mean", "mm", "matmul", "dot", "mv", "bmm", "reshape",
                        "transpose", "t", "permute", "narrow", "select", "unsqueeze", "squeeze", "flatten", "as_strided",
                        "diagonal", "clone", "detach", "neg_", "exp_", "relu_"})
    forward_to_method(*m, n);
  // torch.pow(number, tensor) is pow.Scalar: the number becomes a wrapped 0-dim tensor.
  m->def("pow", [](CallArgs& a) {
    a.bind({"input", "exponent"});
    auto e = as_tensor(a.get("exponent"));
    if (e && !as_tensor(a.get("input")))
      return wrap(ops::pow_Tensor_Tensor(native::wrapped_scalar_tensor(to_scalar(a.get("input"), "self")), *e));
    auto r = to_tensor(a.get("input"), "input");
    if (e) return wrap(ops::pow_Tensor_Tensor(r, *e));
    return wrap(ops::pow_Tensor_Scalar(r, to_scalar(a.get("exponent"), "exponent")));
  });
  m->set("_C", make_c_module());
  return Value(m);
}

}  // namespace ipt::pytorch
