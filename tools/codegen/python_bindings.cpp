// Python bindings from the schema YAML, as PyTorch's gen_python_functions.py makes them.
//
// Note [How an operator reaches Python]
// Every entry with `variants: function` becomes torch.<name> (torch._C._VariableFunctions,
// or torch._C._nn with `python_module: nn`); `variants: method` becomes Tensor.<name>.
// Overloads that share a Python name are one binding: a PythonArgParser tries their
// signatures in order (Tensor before Scalar at the same position) and a switch calls the
// matched overload's ops:: function. An `.out` overload whose other arguments equal a
// functional overload's is folded into it as the keyword `out=`. Factories (operators with
// a `device` argument) also take `requires_grad=` and run below autograd, as torch.zeros
// does. Binary dunders (__add__, __mul__, ...) reuse the method's binding and turn a
// TypeError into NotImplemented, so Python tries the reflected operator.
#include "tools/codegen/python_bindings.h"

#include <algorithm>
#include <map>
#include <set>

#include "tools/codegen/cpp_types.h"
#include "tools/codegen/op.h"

namespace ipt::codegen {

namespace {

using schema::Argument;
using schema::NativeFunctionEntry;

// PyTorch binds these through the Tensor overload (numbers become wrapped tensors).
// Also those PyTorch's gen_python_functions skips (SKIP_PYTHON_BINDINGS): the sym_* queries and
// copy are torch.ops.aten operators only.
const std::set<std::string> kSkipped = {"add.Scalar",          "add_.Scalar",       "sub.Scalar", "sub_.Scalar",
                                        "mul.Scalar",          "mul_.Scalar",       "div.Scalar", "div_.Scalar",
                                        "_local_scalar_dense", "sym_size.int",      "sym_numel",  "sym_storage_offset",
                                        "sym_stride.int",      "sym_is_contiguous", "copy"};

struct Overload {
  const NativeFunctionEntry* e = nullptr;
  const NativeFunctionEntry* out = nullptr;  // folded .out overload
  bool method = false;
  bool schema_names = false;  // torch.ops: the schema's own argument names, no factory extras
};

// A factory makes a tensor without history: it takes TensorOptions (a `device`) and no tensor,
// or is a `*_like`. (_to_copy takes TensorOptions too, but records ToCopyBackward0.)
bool is_factory(const NativeFunctionEntry& e) {
  bool options = false, tensor_input = false;
  for (const auto& a : e.schema.arguments) {
    options = options || a.name == "device";
    tensor_input = tensor_input || (is_tensor_arg(a) && !a.is_out);
  }
  const std::string& n = e.schema.name;
  const bool like = n.size() > 5 && n.compare(n.size() - 5, 5, "_like") == 0;
  return options && (!tensor_input || like);
}

std::vector<const Argument*> out_args(const NativeFunctionEntry& e) {
  std::vector<const Argument*> v;
  for (const auto& a : e.schema.arguments)
    if (a.is_out) v.push_back(&a);
  return v;
}

bool same_inputs(const NativeFunctionEntry& functional, const NativeFunctionEntry& out) {
  std::vector<const Argument*> a, b;
  for (const auto& x : functional.schema.arguments)
    if (!(x.kwarg_only && (x.name == "dtype" || x.name == "layout" || x.name == "device" || x.name == "pin_memory")))
      a.push_back(&x);
  for (const auto& x : out.schema.arguments)
    if (!x.is_out) b.push_back(&x);
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i]->name != b[i]->name || !(a[i]->type == b[i]->type)) return false;
  return true;
}

std::string default_text(const Argument& a) {
  std::string d = *a.default_value;
  if (d == "Mean") return "1";
  if (d == "Sum") return "2";
  return d;
}

// The Python signature's parameters (method: without self) and, for each schema argument,
// its parameter index (-1: self of a method).
struct PySig {
  std::string text;
  std::vector<int> index_of_arg;
  int out_index = -1;
  int requires_grad_index = -1;
  size_t params = 0;
};

PySig python_signature(const Overload& o, const std::string& name) {
  PySig sig;
  std::vector<std::string> params;
  bool kw = false;
  auto add = [&](const std::string& p, bool kwarg_only) {
    if (kwarg_only && !kw) {
      params.push_back("*");
      kw = true;
    }
    params.push_back(p);
    return static_cast<int>(sig.params++);
  };
  const bool factory = is_factory(*o.e) && !o.schema_names;
  for (const auto& a : o.e->schema.arguments) {
    if (o.method && a.name == "self") {
      sig.index_of_arg.push_back(-1);
      continue;
    }
    if (a.kwarg_only && factory && a.name == "dtype" && o.out) sig.out_index = add("Tensor? out=None", true);
    std::string pname = (!o.method && !o.schema_names && a.name == "self" && is_tensor_arg(a)) ? "input" : a.name;
    std::string p = a.type.str() + " " + pname;
    if (a.default_value) p += "=" + default_text(a);
    sig.index_of_arg.push_back(add(p, a.kwarg_only));
  }
  if (o.out && sig.out_index < 0) sig.out_index = add("Tensor? out=None", true);
  if (factory) sig.requires_grad_index = add("bool requires_grad=False", true);
  std::string t = name + "(";
  for (size_t i = 0; i < params.size(); ++i) t += (i ? ", " : "") + params[i];
  sig.text = t + ")";
  return sig;
}

// How the binding reads argument `i` as the C++ type the ops:: function takes. Locals that
// must outlive the call are appended to `pre` (one declaration a line). Throws for a type with no conversion.
std::string arg_expr(const Argument& a, int i, std::vector<std::string>& pre) {
  const std::string cpp = cpp_arg_type(a);
  const std::string r = "_r", idx = std::to_string(i), local = "_a" + idx;
  if (i < 0) return "self";
  if (cpp == "const Tensor&") return r + ".tensor(" + idx + ")";
  if (cpp == "const std::optional<Tensor>&") return r + ".optional_tensor(" + idx + ")";
  if (cpp == "const Scalar&") return r + ".scalar(" + idx + ")";
  if (cpp == "const std::optional<Scalar>&") return r + ".optional_scalar(" + idx + ")";
  if (cpp == "int64_t") return r + ".to_int64(" + idx + ")";
  if (cpp == "std::optional<int64_t>") return r + ".optional_int64(" + idx + ")";
  if (cpp == "double") return r + ".to_double(" + idx + ")";
  if (cpp == "std::optional<double>") return r + ".optional_double(" + idx + ")";
  if (cpp == "bool") return r + ".to_bool(" + idx + ")";
  if (cpp == "std::optional<bool>") return r + ".optional_bool(" + idx + ")";
  if (cpp == "ScalarType") return r + ".scalartype(" + idx + ").value_or(ScalarType::Float)";
  if (cpp == "std::optional<ScalarType>") return r + ".scalartype(" + idx + ")";
  if (cpp == "std::optional<Layout>") return r + ".layout(" + idx + ")";
  if (cpp == "std::optional<Device>") return r + ".device(" + idx + ")";
  if (cpp == "std::optional<MemoryFormat>") return r + ".memory_format(" + idx + ")";
  if (cpp == "MemoryFormat") return r + ".memory_format(" + idx + ").value_or(MemoryFormat::Contiguous)";
  if (cpp == "std::optional<Generator>") return r + ".generator(" + idx + ")";
  if (cpp == "IntArrayRef") {
    pre.push_back("const auto " + local + " = " + r + ".intlist(" + idx + ");");
    return "IntArrayRef(" + local + ")";
  }
  if (cpp == "std::optional<IntArrayRef>") {
    pre.push_back("const auto " + local + " = " + r + ".optional_intlist(" + idx + ");");
    return local + " ? std::optional<IntArrayRef>(IntArrayRef(*" + local + ")) : std::nullopt";
  }
  if (cpp == "std::span<const double>") {  // float[]
    pre.push_back("const auto " + local + " = " + r + ".doublelist(" + idx + ");");
    return "std::span<const double>(" + local + ")";
  }
  if (cpp == "std::optional<std::span<const double>>") {
    pre.push_back("const auto " + local + " = " + r + ".is_none(" + idx +
                  ") ? std::optional<std::vector<double>>() : " + "std::optional<std::vector<double>>(" + r +
                  ".doublelist(" + idx + "));");
    return local + " ? std::optional<std::span<const double>>(std::span<const double>(*" + local + ")) : std::nullopt";
  }
  if (cpp.rfind("std::array<bool, ", 0) == 0) {  // bool[N]: the parser checked N
    pre.push_back("const auto " + local + " = " + r + ".boollist(" + idx + ");");
    std::string init;
    for (int k = 0; k < std::stoi(cpp.substr(17)); ++k) init += (k ? ", " : "") + local + "[" + std::to_string(k) + "]";
    return cpp + "{" + init + "}";
  }
  if (cpp == "std::string_view") {
    pre.push_back("const std::string " + local + " = " + r + ".string(" + idx + ");");
    return "std::string_view(" + local + ")";
  }
  if (cpp == "std::optional<std::string_view>") {
    pre.push_back("const auto " + local + " = " + r + ".optional_string(" + idx + ");");
    return local + " ? std::optional<std::string_view>(*" + local + ") : std::nullopt";
  }
  if (cpp == "std::span<const Tensor>") {
    pre.push_back("const auto " + local + " = " + r + ".tensorlist(" + idx + ");");
    return "std::span<const Tensor>(" + local + ")";
  }
  if (cpp == "std::span<const std::optional<Tensor>>") {
    pre.push_back("const auto " + local + " = " + r + ".opt_tensorlist(" + idx + ");");
    return "std::span<const std::optional<Tensor>>(" + local + ")";
  }
  throw std::runtime_error("no Python conversion for " + cpp);
}

std::string call(const NativeFunctionEntry& e, const std::vector<std::string>& args) {
  std::string s = "ops::" + op_id(e.schema) + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ")";
}

// An operator returning several named tensors (`-> (Tensor values, Tensor indices)`) returns a
// torch.return_types.<name> structseq, as PyTorch does; its field names come from the schema.
std::string return_type_name(const NativeFunctionEntry& e) {
  if (e.schema.returns.size() < 2) return "";
  for (const auto& r : e.schema.returns)
    if (r.name.empty()) return "";
  std::string n = e.schema.name;
  if (auto c = n.find("::"); c != std::string::npos) n = n.substr(c + 2);
  return n;
}

// The call's statement (a void operator's call, then returning None).
std::vector<std::string> returned(const NativeFunctionEntry& e, const std::string& expr) {
  if (cpp_return_type(e.schema) == "void") return {expr + ";", "Py_RETURN_NONE;"};
  if (!return_type_name(e).empty())
    return {"return to_named_tuple(\"" + return_type_name(e) + "\", to_py(" + expr + "));"};
  return {"return to_py(" + expr + ");"};
}

// One case of the switch, or an empty string when an argument has no Python conversion.
std::string gen_case(const Overload& o, const PySig& sig, int k) {
  TemplateEnv env = {{"index", std::to_string(k)}, {"out_call", ""}};
  try {
    std::vector<std::string> args, locals;
    for (size_t i = 0; i < o.e->schema.arguments.size(); ++i)
      args.push_back(arg_expr(o.e->schema.arguments[i], sig.index_of_arg[i], locals));
    env["locals"] = locals;
    std::string functional = call(*o.e, args);
    if (o.out) {
      // The out= overload's arguments, by name, from the functional overload's.
      std::map<std::string, std::string> by_name;
      for (size_t i = 0; i < args.size(); ++i) by_name[o.e->schema.arguments[i].name] = args[i];
      std::vector<std::string> out_args;
      for (const auto& a : o.out->schema.arguments)
        out_args.push_back(a.is_out ? "_r.tensor(" + std::to_string(sig.out_index) + ")" : by_name.at(a.name));
      env["out_call"] =
          "if (_r.has(" + std::to_string(sig.out_index) + ")) return to_py(" + call(*o.out, out_args) + ");";
    }
    if (sig.requires_grad_index >= 0) {
      env["call"] = fill("python_factory_call.cpp.in",
                         {{"call", functional}, {"requires_grad", std::to_string(sig.requires_grad_index)}});
    } else {
      env["call"] = returned(*o.e, functional);
    }
  } catch (const std::exception&) {
    return "";
  }
  return fill("python_case.cpp.in", env);
}

int scalar_rank(const Overload& o) {
  int n = 0;
  for (const auto& a : o.e->schema.arguments)
    if (a.type.kind == schema::Type::Kind::Base && a.type.name == "Scalar") ++n;
  return n;
}

// PyTorch's deprecated overloads (tools/autograd/deprecated.yaml): still accepted, never
// listed in messages. Their presence is also why `torch.add("a")` lists the signatures
// instead of naming one argument.
struct Hidden {
  const char* name;
  bool method;
  const char* signature;
  const char* call;
};
const Hidden kHidden[] = {
    {"add", false, "add(Tensor input, Scalar alpha, Tensor other, *, Tensor? out=None)|hidden",
     "ops::add_Tensor(_r.tensor(0), _r.tensor(2), _r.scalar(1))"},
    {"sub", false, "sub(Tensor input, Scalar alpha, Tensor other, *, Tensor? out=None)|hidden",
     "ops::sub_Tensor(_r.tensor(0), _r.tensor(2), _r.scalar(1))"},
    // number ** tensor (pow.Scalar): the number as a wrapped-number tensor.
    {"pow", false, "pow(Scalar self, Tensor exponent)|hidden",
     "ops::pow_Tensor_Tensor(native::wrapped_scalar_tensor(_r.scalar(0)), _r.tensor(1))"},
    {"add", true, "add(Scalar alpha, Tensor other)|hidden", "ops::add_Tensor(self, _r.tensor(1), _r.scalar(0))"},
    {"add_", true, "add_(Scalar alpha, Tensor other)|hidden", "ops::add__Tensor(self, _r.tensor(1), _r.scalar(0))"},
    {"sub", true, "sub(Scalar alpha, Tensor other)|hidden", "ops::sub_Tensor(self, _r.tensor(1), _r.scalar(0))"},
    {"sub_", true, "sub_(Scalar alpha, Tensor other)|hidden", "ops::sub__Tensor(self, _r.tensor(1), _r.scalar(0))"},
};

struct Binding {
  std::string fn_name;  // C++ function
  std::string py_name;
  std::string code;
};

Binding gen_binding(const std::string& py_name, std::vector<Overload> overloads, bool method,
                    const std::string& prefix) {
  std::stable_sort(overloads.begin(), overloads.end(),
                   [](const Overload& a, const Overload& b) { return scalar_rank(a) < scalar_rank(b); });
  std::vector<std::string> sigs, cases;
  size_t max_params = 1;
  for (const auto& o : overloads) {
    PySig sig = python_signature(o, py_name);
    std::string c = gen_case(o, sig, static_cast<int>(sigs.size()));
    if (c.empty()) continue;
    sigs.push_back(sig.text);
    cases.push_back(c);
    max_params = std::max(max_params, sig.params);
  }
  for (const Hidden& h : kHidden)
    if (!sigs.empty() && h.method == method && py_name == h.name) {
      cases.push_back(fill("python_hidden_case.cpp.in", {{"index", std::to_string(sigs.size())}, {"call", h.call}}));
      sigs.push_back(h.signature);
      max_params = std::max<size_t>(max_params, 4);
    }
  Binding b;
  b.py_name = py_name;
  if (sigs.empty()) return b;
  b.fn_name = prefix + py_name;
  std::vector<std::string> signatures;
  for (const auto& s : sigs) signatures.push_back("R\"sig(" + s + ")sig\",");
  b.code = fill("python_binding.cpp.in", {{"fn_name", b.fn_name},
                                          {"unpack_self", method ? "const Tensor& self = unpack(self_);" : ""},
                                          {"signatures", signatures},
                                          {"max_params", std::to_string(max_params)},
                                          {"parsed_self", method ? "self_" : "nullptr"},
                                          {"cases", cases}});
  return b;
}

const std::vector<std::pair<std::string, std::string>> kBinaryDunders = {{"__add__", "add"},
                                                                         {"__iadd__", "add_"},
                                                                         {"__sub__", "sub"},
                                                                         {"__isub__", "sub_"},
                                                                         {"__mul__", "mul"},
                                                                         {"__imul__", "mul_"},
                                                                         {"__truediv__", "div"},
                                                                         {"__itruediv__", "div_"},
                                                                         {"__matmul__", "matmul"},
                                                                         {"__pow__", "pow"},
                                                                         {"__ipow__", "pow_"},
                                                                         {"__eq__", "eq"},
                                                                         {"__ne__", "ne"},
                                                                         {"__lt__", "lt"},
                                                                         {"__le__", "le"},
                                                                         {"__gt__", "gt"},
                                                                         {"__ge__", "ge"},
                                                                         {"__and__", "bitwise_and"},
                                                                         {"__iand__", "bitwise_and_"},
                                                                         {"__or__", "bitwise_or"},
                                                                         {"__ior__", "bitwise_or_"},
                                                                         {"__xor__", "bitwise_xor"},
                                                                         {"__ixor__", "bitwise_xor_"},
                                                                         {"__lshift__", "bitwise_left_shift"},
                                                                         {"__ilshift__", "bitwise_left_shift_"},
                                                                         {"__rshift__", "bitwise_right_shift"},
                                                                         {"__irshift__", "bitwise_right_shift_"},
                                                                         {"__mod__", "remainder"},
                                                                         {"__imod__", "remainder_"},
                                                                         {"__floordiv__", "floor_divide"},
                                                                         {"__ifloordiv__", "floor_divide_"}};
const std::vector<std::pair<std::string, std::string>> kUnaryDunders = {{"__neg__", "neg"}, {"__abs__", "abs"}};

}  // namespace

std::string gen_python_functions(const std::vector<NativeFunctionEntry>& entries) {
  // Fold .out overloads into their functional twins.
  std::map<const NativeFunctionEntry*, const NativeFunctionEntry*> folded;
  std::set<const NativeFunctionEntry*> folded_away;
  for (const auto& e : entries) {
    if (out_args(e).size() != 1 || e.schema.overload_name.find("out") == std::string::npos) continue;
    for (const auto& f : entries)
      if (&f != &e && f.schema.name == e.schema.name && out_args(f).empty() && !f.schema.is_mutable() &&
          !folded.count(&f) && same_inputs(f, e)) {
        folded[&f] = &e;
        folded_away.insert(&e);
        break;
      }
  }
  std::map<std::string, std::vector<Overload>> functions, nn, methods;
  for (const auto& e : entries) {
    if (kSkipped.count(e.schema.full_name()) || folded_away.count(&e)) continue;
    if (!out_args(e).empty()) continue;  // an out= overload without a functional twin
    const NativeFunctionEntry* out = folded.count(&e) ? folded[&e] : nullptr;
    for (const auto& v : e.variants) {
      if (v == "function") (e.python_module == "nn" ? nn : functions)[e.schema.name].push_back({&e, out, false});
      if (v == "method" && !e.schema.arguments.empty() && e.schema.arguments[0].name == "self" &&
          is_tensor_arg(e.schema.arguments[0]))
        methods[e.schema.name].push_back({&e, nullptr, true});
    }
  }
  static const CodeTemplate method_def(
      "{\"${name}\", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(${fn})), METH_VARARGS | METH_KEYWORDS, "
      "nullptr},",
      "method_def");
  IndexedText o;
  auto emit = [&](std::map<std::string, std::vector<Overload>>& group, bool method, const std::string& prefix,
                  const std::string& table) {
    std::vector<std::pair<std::string, std::string>> defs;
    for (auto& [name, ovs] : group) {
      Binding b = gen_binding(name, ovs, method, prefix);
      if (b.fn_name.empty()) continue;
      const int first = o.next_line();
      o.append(b.code);
      o.definition(b.fn_name, first);
      defs.emplace_back(name, b.fn_name);
    }
    if (method) {
      std::map<std::string, std::string> have(defs.begin(), defs.end());
      for (const auto& [dunder, target] : kBinaryDunders)
        if (have.count(target)) {
          o.append(fill("python_dunder.cpp.in", {{"dunder", dunder}, {"target", have[target]}}));
          defs.emplace_back(dunder, "dunder" + dunder);
        }
      for (const auto& [dunder, target] : kUnaryDunders)
        if (have.count(target)) defs.emplace_back(dunder, have[target]);
    }
    std::vector<std::string> entries;
    for (const auto& [name, fn] : defs) entries.push_back(method_def.substitute({{"name", name}, {"fn", fn}}));
    o.append(fill("python_method_table.cpp.in", {{"table", table}, {"entries", entries}}));
  };
  // torch.return_types: one structseq type per operator name with named returns.
  static const CodeTemplate return_type_def("{\"${name}\", {${fields}}},", "return_type_def");
  std::map<std::string, std::vector<std::string>> return_types;
  for (const auto& e : entries)
    if (std::string n = return_type_name(e); !n.empty() && !return_types.count(n))
      for (const auto& r : e.schema.returns) return_types[n].push_back("\"" + r.name + "\"");
  std::vector<std::string> return_type_defs;
  for (const auto& [n, fields] : return_types)
    return_type_defs.push_back(return_type_def.substitute({{"name", n}, {"fields", fields}}));
  // torch.ops.aten.<name>.<overload>: one binding per overload, of exactly its schema.
  std::map<std::string, std::vector<Overload>> overloads;
  for (const auto& e : entries) overloads[op_id(e.schema)].push_back({&e, nullptr, false, true});
  emit(overloads, false, "op_", "overload_defs");
  emit(functions, false, "fn_", "function_defs");
  emit(nn, false, "nn_", "nn_defs");
  emit(methods, true, "method_", "method_defs");
  return fill_file("python_functions.cpp.in", {{"return_types", return_type_defs}}, {{"bindings", &o}});
}

}  // namespace ipt::codegen
