// The project's own torchgen: reads core/ops/native_functions.yaml and writes the operator
// API, the kernel declarations and every registration into the build folder.
//
// Usage: ipt-codegen <native_functions.yaml> <derivatives.yaml> <autocast.yaml> <output-dir>
// A file is only rewritten when its content changes, so unchanged outputs do not rebuild.
//
// Note [What is generated and what is written by hand]
// Generated: for each operator, ops::<op>() (computes the dispatch key set and calls through
// the table), ops::redispatch::<op>() (what wrapper kernels call below themselves), the schema
// registration, one registration per `dispatch:` entry (adapting the kernel to the table's
// (DispatchKeySet, args...) signature), and the wrapper kernels PyTorch also generates:
// Autograd (VariableType), ADInplaceOrView (version bumps and view tracking) and
// BackendSelect (factories pick a backend from their `device` argument), and the Autocast
// kernels of the operators core/ops/autocast.yaml gives a cast policy.
// Hand-written: the kernels named under `dispatch:` (core/ops/*.cpp, backends/*/).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "core/dispatch/dispatch_key.h"
#include "core/schema/native_yaml.h"
#include "tools/codegen/autocast.h"
#include "tools/codegen/cpp_types.h"
#include "tools/codegen/op.h"
#include "tools/codegen/python_bindings.h"
#include "tools/codegen/structured.h"

namespace fs = std::filesystem;
using ipt::codegen::arg_names;
using ipt::codegen::emit_kernel_registration;
using ipt::codegen::fn_type;
using ipt::codegen::index_definition;
using ipt::codegen::kHeader;
using ipt::codegen::next_line;
using ipt::codegen::Op;
using ipt::codegen::operator_index;
using ipt::codegen::operator_index_file;
using ipt::codegen::params;
using ipt::schema::NativeFunctionEntry;

namespace {

std::vector<const ipt::schema::Argument*> tensor_args(const Op& op) {
  std::vector<const ipt::schema::Argument*> v;
  for (const auto& a : op.e->schema.arguments)
    if (ipt::codegen::is_tensor_arg(a)) v.push_back(&a);
  return v;
}

bool has_key(const Op& op, const std::string& k) { return op.e->dispatch.count(k) > 0; }
bool is_composite_implicit(const Op& op) { return has_key(op, "CompositeImplicitAutograd"); }
// Returns Tensor(a) of an argument's alias set, not written: a view.
bool is_view_op(const Op& op) {
  const auto& r = op.e->schema.returns;
  return r.size() == 1 && r[0].alias && !r[0].alias->is_write && !op.e->schema.is_mutable();
}
std::vector<const ipt::schema::Argument*> written_args(const Op& op) {
  std::vector<const ipt::schema::Argument*> v;
  for (const auto& a : op.e->schema.arguments)
    if (a.alias && a.alias->is_write) v.push_back(&a);
  return v;
}
bool has_device_arg(const Op& op) {
  for (const auto& a : op.e->schema.arguments)
    if (a.name == "device") return true;
  return false;
}

void write_if_changed(const fs::path& p, const std::string& content) {
  std::ifstream in(p, std::ios::binary);
  if (in) {
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str() == content) return;
  }
  std::ofstream out(p, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

std::string gen_ops_h(const std::vector<Op>& ops) {
  std::ostringstream o;
  o << kHeader << "#pragma once\n#include <optional>\n#include <string_view>\n#include <tuple>\n#include <vector>\n"
    << "#include \"core/dispatch/dispatch_key_set.h\"\n#include \"core/ops/generator.h\"\n#include \"core/tensor/scalar.h\"\n"
    << "#include \"core/tensor/tensor.h\"\n#include \"core/tensor/tensor_options.h\"\n\n"
    << "namespace ipt::ops {\n\n";
  for (const auto& op : ops) {
    o << "// " << op.e->schema.str() << "\n";
    operator_index().rows.push_back({"declare", op.qualified, operator_index().file, next_line(o), 0, {}});
    o << op.ret << " " << op.id << "(" << params(op, true) << ");\n";
  }
  o << "\nnamespace redispatch {\n";
  for (const auto& op : ops) o << op.ret << " " << op.id << "(DispatchKeySet ks, " << params(op, false) << ");\n";
  o << "}  // namespace redispatch\n\n// Number of operators declared in native_functions.yaml.\nconstexpr int kNumOperators = "
    << ops.size() << ";\n\n}  // namespace ipt::ops\n";
  return o.str();
}

std::string trace_result(const Op& op, const std::string& var) {
  if (op.ret == "Tensor") return "    trace_tensor(" + var + ", \"result\");\n";
  if (op.ret == "std::vector<Tensor>") return "    for (const auto& t_ : " + var + ") trace_tensor(t_, \"result\");\n";
  std::string out;
  if (op.ret.rfind("std::tuple<", 0) == 0)
    for (size_t i = 0; i < op.e->schema.returns.size(); ++i)
      out += "    trace_tensor(std::get<" + std::to_string(i) + ">(" + var + "), \"result\");\n";
  return out;
}

// "{\"self\", \"a\", true, false}": what the schema check mode needs of one argument or return.
std::string check_info(const std::string& name, const std::optional<ipt::schema::AliasInfo>& alias) {
  std::string sets;
  bool wildcard = false;
  if (alias) {
    for (const auto& b : alias->before_set) sets += (sets.empty() ? "" : "|") + b;
    for (const auto& a : alias->after_set) wildcard = wildcard || a == "*";
  }
  return "{\"" + name + "\", \"" + sets + "\", " + (alias && alias->is_write ? "true" : "false") + ", " +
         (wildcard ? "true" : "false") + "}";
}

// The public entry point: the call as it is, or, with the schema check mode on, the call
// between the mode's snapshot and its checks (Note [Schema check mode] in core/ops/schema_check.h).
std::string gen_checked_entry(const Op& op) {
  const auto& sc = op.e->schema;
  std::ostringstream o;
  o << op.ret << " " << op.id << "(" << params(op, false) << ") {\n"
    << "  if (!schema_check::enabled()) [[likely]] return " << op.id << "_call(" << arg_names(op) << ");\n";
  std::string args, rets;
  for (const auto& a : sc.arguments) args += (args.empty() ? "" : ", ") + check_info(a.name, a.alias);
  for (const auto& r : sc.returns) rets += (rets.empty() ? "" : ", ") + check_info(r.name, r.alias);
  if (!args.empty()) o << "  static constexpr schema_check::ArgInfo args_[] = {" << args << "};\n";
  if (!rets.empty()) o << "  static constexpr schema_check::ArgInfo rets_[] = {" << rets << "};\n";
  o << "  schema_check::Call c_(\"" << op.qualified << "\", " << (args.empty() ? "{}" : "args_") << ", "
    << (rets.empty() ? "{}" : "rets_") << ");\n";
  for (size_t i = 0; i < sc.arguments.size(); ++i) o << "  c_.arg(" << i << ", " << sc.arguments[i].name << ");\n";
  if (op.ret == "void") {
    o << "  " << op.id << "_call(" << arg_names(op) << ");\n  c_.after(0);\n}\n\n";
  } else {
    o << "  " << op.ret << " r_ = " << op.id << "_call(" << arg_names(op) << ");\n  c_.after(r_);\n  return r_;\n}\n\n";
  }
  return o.str();
}

std::string gen_ops_cpp(const std::vector<Op>& ops) {
  std::ostringstream o;
  o << kHeader << "#include \"generated/ops.h\"\n\n#include \"core/dispatch/dispatcher.h\"\n"
    << "#include \"core/ops/schema_check.h\"\n#include \"core/tensor/tensor_trace.h\"\n\nnamespace ipt::ops {\n\n";
  for (const auto& op : ops) {
    auto targs = tensor_args(op);
    std::string ks_expr = "DispatchKeySet()";
    std::string per_arg;
    for (size_t i = 0; i < targs.size(); ++i) {
      ks_expr = i == 0 ? targs[i]->name + ".key_set()" : ks_expr + " | " + targs[i]->name + ".key_set()";
      per_arg += (i ? ", " : "") + targs[i]->name + ".key_set()";
    }
    // Tensor lists (cat's tensors, index's indices) take part with every element.
    std::string list_keys, list_trace;
    for (const auto& a : op.e->schema.arguments) {
      if (ipt::codegen::is_optional_tensor_arg(a))
        ks_expr += " | (" + a.name + " ? " + a.name + "->key_set() : DispatchKeySet())";
      if (ipt::codegen::is_tensor_list_arg(a)) {
        list_keys += "  for (const auto& t_ : " + a.name + ") arg_keys = arg_keys | t_.key_set();\n";
        list_trace += "      for (const auto& t_ : " + a.name + ") trace_tensor(t_, \"" + a.name + "\");\n";
      }
      if (ipt::codegen::is_optional_tensor_list_arg(a)) {
        list_keys += "  for (const auto& t_ : " + a.name + ") if (t_) arg_keys = arg_keys | t_->key_set();\n";
        list_trace += "      for (const auto& t_ : " + a.name + ") if (t_) trace_tensor(*t_, \"" + a.name + "\");\n";
      }
    }
    std::string call = "e.kernel.as<" + fn_type(op) + ">()(ks, " + arg_names(op) + ")";
    o << "namespace {\n"
      << op.ret << " " << op.id << "_call(" << params(op, false) << ") {\n"
      << "  static const OperatorEntry& op = Dispatcher::singleton().get(\"" << op.qualified << "\");\n"
      << "  " << (list_keys.empty() ? "const " : "") << "DispatchKeySet arg_keys = " << ks_expr << ";\n"
      << list_keys
      // An empty tensor list (torch.cat([])) still reaches the CPU kernel, which reports it.
      << (targs.empty() && !list_keys.empty()
              ? "  if (arg_keys.empty()) arg_keys = DispatchKeySet(DispatchKey(Functionality::Dense, backend_of(DeviceType::CPU)));\n"
              : "")
      << "  const DispatchKeySet ks = dispatch_key_set(op, arg_keys);\n"
      << "  const TableEntry& e = lookup_or_throw(op, ks);\n"
      << "  if (trace::tracing_enabled()) {\n"
      << "    DispatchTraceScope scope(op, e, arg_keys, ks, false, {" << per_arg << "});\n";
    if (!targs.empty() || !list_trace.empty()) {
      o << "    if (scope.outermost()) {\n";
      for (auto* a : targs) o << "      trace_tensor(" << a->name << ", \"" << a->name << "\");\n";
      o << list_trace << "    }\n";
    }
    if (op.ret == "void") {
      o << "    " << call << ";\n    return;\n  }\n  " << call << ";\n}\n";
    } else {
      o << "    " << op.ret << " r = " << call << ";\n"
        << trace_result(op, "r") << "    return r;\n  }\n"
        << "  return " << call << ";\n}\n\n";
    }
    o << "}  // namespace\n\n" << gen_checked_entry(op);
  }
  o << "namespace redispatch {\n\n";
  for (const auto& op : ops) {
    std::string call = "e.kernel.as<" + fn_type(op) + ">()(k, " + arg_names(op) + ")";
    o << op.ret << " " << op.id << "(DispatchKeySet ks, " << params(op, false) << ") {\n"
      << "  static const OperatorEntry& op = Dispatcher::singleton().get(\"" << op.qualified << "\");\n"
      << "  const DispatchKeySet k = ks & op.non_fallthrough_keys();\n"
      << "  const TableEntry& e = lookup_or_throw(op, k);\n"
      << "  if (trace::tracing_enabled()) {\n"
      << "    DispatchTraceScope scope(op, e, ks, k, true, {});\n"
      << "    return " << call << ";\n  }\n"
      << "  return " << call << ";\n}\n\n";
  }
  o << "}  // namespace redispatch\n}  // namespace ipt::ops\n";
  return o.str();
}

std::string gen_register_operators(const std::vector<Op>& ops) {
  std::ostringstream o;
  o << kHeader
    << "#include \"core/dispatch/dispatcher.h\"\n#include \"core/dispatch/kernel_function.h\"\n\nnamespace ipt {\n\n"
    << "void register_generated_operators(Dispatcher& d) {\n";
  for (const auto& op : ops)
    operator_index().rows.push_back({"schema", op.qualified, operator_index().file, next_line(o), 0, {}}),
        o << "  d.register_operator(\"aten::" << op.e->schema.name << "\", \"" << op.e->schema.overload_name
          << "\", \"aten::" << op.e->schema.str() << "\", \"" << ipt::codegen::kernel_signature(op.e->schema)
          << "\", IPT_HERE);\n";
  o << "}\n\n}  // namespace ipt\n";
  return o.str();
}

std::string gen_native_functions_h(const std::vector<Op>& ops,
                                   const std::vector<ipt::codegen::StructuredGroup>& groups) {
  std::ostringstream o;
  o << kHeader << "#pragma once\n#include \"core/ops/structured.h\"\n#include \"generated/ops.h\"\n\n"
    << "// The hand-written kernels named under `dispatch:` in native_functions.yaml.\n"
    << "namespace ipt::native {\n\n";
  std::set<std::string> seen;
  for (const auto& op : ops)
    for (const auto& [key, kernel] : op.e->dispatch) {
      if (op.e->structured) continue;  // its dispatch names impls (structured_declarations)
      std::string decl = op.ret + " " + kernel + "(" + params(op, false) + ");";
      if (seen.insert(decl).second) o << decl << "\n";
    }
  o << ipt::codegen::structured_declarations(groups);
  o << "\n}  // namespace ipt::native\n";
  return o.str();
}

// Whether writing the op's outputs first checks that no two of their elements share memory
// ("unsupported operation: more than one element of the written-to tensor refers to a single
// memory location"), as PyTorch's TensorIterator and copy_ do. Not checked, as in PyTorch:
// fill_ and zero_, masked_fill_ and index_put_ (a deprecation warning there), the in-place view
// operators (they change metadata only) and the factories' out= forms (they resize).
bool writes_elements_checked(const Op& op) {
  static const std::set<std::string> unchecked = {
      "fill__Scalar",          "zero_",      "masked_fill__Scalar", "index_put_",   "_index_put_impl_",
      "squeeze__dim",          "unsqueeze_", "arange_start_out",    "linspace_out", "logspace_out",
      "randperm_generator_out"};
  return !unchecked.count(op.id);
}

// Register<Key>.cpp for a backend or alias key: adapters from the table signature to the
// hand-written kernel. A backend kernel that writes elements first checks that no two elements
// of what it writes share memory (see writes_elements_checked), as PyTorch's TensorIterator does in every kernel:
// so the check holds for inference tensors too, which skip ADInplaceOrView.
std::string gen_register_key(const std::vector<Op>& ops, const std::vector<ipt::codegen::StructuredGroup>& groups,
                             const std::string& key) {
  const bool backend = key == "CPU" || key == "Meta" || key == "CUDA";
  std::ostringstream o;
  o << kHeader << "#include \"core/dispatch/dispatcher.h\"\n#include \"core/ops/autograd_hooks.h\"\n"
    << "#include \"core/ops/structured.h\"\n"
    << "#include \"generated/native_functions.h\"\n\n"
    << "namespace ipt {\n\nvoid register_" << key << "_kernels(Dispatcher& d) {\n";
  for (const auto& op : ops) {
    if (backend && ipt::codegen::is_structured_member(op)) continue;  // below
    auto it = op.e->dispatch.find(key);
    if (it == op.e->dispatch.end()) continue;
    std::string checks;
    if (backend && writes_elements_checked(op))
      for (auto* a : written_args(op)) checks += "check_no_internal_overlap(" + a->name + "); ";
    std::string adapter = "+[](DispatchKeySet, " + params(op, false) + ") -> " + op.ret + " { " + checks +
                          "return native::" + it->second + "(" + arg_names(op) + "); }";
    emit_kernel_registration(o, op, key, adapter, it->second, "", {it->second});
  }
  if (backend) ipt::codegen::emit_structured_registrations(o, groups, key);
  o << "}\n\n}  // namespace ipt\n";
  return o.str();
}

// ---- autograd (from derivatives.yaml) ------------------------------------------------------

struct Derivative {
  std::string node;                                           // "AddBackward0"
  std::vector<std::pair<std::string, std::string>> formulas;  // input name -> C++ expression
  bool nondifferentiable = false;
  std::vector<bool> output_differentiability;  // per return; empty: all differentiable
};

std::set<std::string> identifiers(const std::string& expr) {
  std::set<std::string> out;
  for (size_t i = 0; i < expr.size();) {
    if (std::isalpha(static_cast<unsigned char>(expr[i])) || expr[i] == '_') {
      size_t j = i;
      while (j < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '_')) ++j;
      out.insert(expr.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

std::string value_type_of(const std::string& arg_type) {
  std::string t = arg_type;
  if (t.rfind("const ", 0) == 0) t = t.substr(6);
  if (!t.empty() && t.back() == '&') t.pop_back();
  if (t == "IntArrayRef") return "std::vector<int64_t>";
  if (t == "std::optional<IntArrayRef>") return "std::optional<std::vector<int64_t>>";
  if (t == "std::span<const std::optional<Tensor>>") return "std::vector<std::optional<Tensor>>";
  return t;
}

std::string to_value(const std::string& arg_type, const std::string& name) {
  std::string v = value_type_of(arg_type);
  if (v == "std::vector<int64_t>" || v == "std::vector<std::optional<Tensor>>")
    return v + "(" + name + ".begin(), " + name + ".end())";
  if (v == "std::optional<std::vector<int64_t>>")
    return name + " ? std::optional<std::vector<int64_t>>(std::vector<int64_t>(" + name + "->begin(), " + name +
           "->end())) : std::nullopt";
  return name;
}

// Note [Operators with several outputs or a list of inputs]
// A tuple return ((Tensor values, Tensor indices)) gives a node with one gradient input per
// return; only the returns marked in `output_differentiability` get it as grad_fn, and the
// formulas may name any return (`indices`, `total_weight`; result0, result1 ... when unnamed),
// which is then saved. A list return (split's Tensor(a)[]) gives a node with one gradient input
// per element; its formula reads `grads`. A Tensor[] input (cat's tensors) must be the op's only
// differentiable input: its edges are the list's elements and its formula returns one gradient
// per element; `<name>_sizes` is the list of their sizes. A Tensor argument's `<name>_strides`
// and `<name>_storage_offset` are its geometry.
std::string gen_autograd(const std::vector<Op>& ops, const std::map<std::string, Derivative>& derivs) {
  std::ostringstream o;
  o << kHeader << "// Autograd kernels (PyTorch's VariableType) and backward nodes, from derivatives.yaml:\n"
    << "// decide whether to record, save what the formulas need, redispatch below the Autograd keys,\n"
    << "// then attach the node to the result. See Note [Thread-local included and excluded keys].\n"
    << "#include \"core/autograd/formulas.h\"\n#include \"core/autograd/node.h\"\n#include \"core/autograd/recording.h\"\n"
    << "#include \"core/autograd/saved_variable.h\"\n#include \"core/dispatch/dispatcher.h\"\n"
    << "#include \"core/ops/autograd_hooks.h\"\n#include \"generated/ops.h\"\n\n"
    << "namespace ipt {\nnamespace {\n\nusing namespace ipt::autograd;\n\n";
  std::vector<const Op*> done;
  for (const auto& op : ops) {
    const ipt::schema::Argument* list_in = nullptr;
    for (const auto& a : op.e->schema.arguments)
      if (ipt::codegen::is_tensor_list_arg(a)) list_in = &a;
    if (is_composite_implicit(op)) continue;
    if (tensor_args(op).empty() && !list_in) {
      // No tensor input (a factory): PyTorch's VariableType kernel still runs, and only
      // redispatches below the Autograd keys.
      const int wrapper_first = next_line(o);
      o << op.ret << " " << op.id << "_Autograd(DispatchKeySet ks, " << params(op, false) << ") {\n"
        << "  ExcludeDispatchKeyGuard guard(keysets::autograd_dispatch_keyset | DispatchKeySet(Functionality::ADInplaceOrView));\n"
        << "  return ops::redispatch::" << op.id << "(ks & DispatchKeySet::below(Functionality::AutogradOther), "
        << arg_names(op) << ");\n}\n\n";
      index_definition(o, op.id + "_Autograd", wrapper_first);
      done.push_back(&op);
      continue;
    }
    auto targs = tensor_args(op);
    const auto all_targs = targs;
    auto it = derivs.find(op.e->schema.full_name());
    const Derivative* d = it == derivs.end() ? nullptr : &it->second;
    // Only inputs with a formula get an edge (as PyTorch leaves non_differentiable inputs such
    // as nll_loss's target or where's condition out of next_functions).
    if (d && !d->nondifferentiable) {
      std::vector<const ipt::schema::Argument*> with_formula;
      for (auto* a : targs)
        for (const auto& [in, f] : d->formulas)
          if (in == a->name) {
            with_formula.push_back(a);
            break;
          }
      targs = with_formula;
    }
    if (list_in && !targs.empty())
      throw std::runtime_error(
          op.qualified +
          ": a Tensor[] input must be the only tensor input (see Note [Operators with several outputs or a list of inputs])");
    // An out= overload (no node) checks what it writes: its out tensors come first, where
    // autograd_before_call looks for the written tensor.
    const bool has_out = std::any_of(op.e->schema.arguments.begin(), op.e->schema.arguments.end(),
                                     [](const auto& a) { return a.is_out; });
    if (has_out && !d) std::stable_partition(targs.begin(), targs.end(), [](const auto* a) { return a->is_out; });
    // The inputs whose edges the node gets: "{&self, &other}", or a vector for a list.
    std::string inputs, inputs_decl;
    for (auto* a : targs) inputs += (inputs.empty() ? "&" : ", &") + a->name;
    inputs = "{" + inputs + "}";
    if (list_in) {
      inputs_decl = "  std::vector<const Tensor*> inputs_;\n  inputs_.reserve(" + list_in->name +
                    ".size());\n  for (const auto& t_ : " + list_in->name + ") inputs_.push_back(&t_);\n";
      inputs = "inputs_";
    }
    const bool is_mutable = op.e->schema.is_mutable();
    const auto& rets = op.e->schema.returns;
    const bool ret_tuple = op.ret.rfind("std::tuple<", 0) == 0;
    const bool ret_list = op.ret == "std::vector<Tensor>";
    const bool differentiable = d && !d->nondifferentiable && (op.ret == "Tensor" || ret_tuple || ret_list);
    // Returns that get grad_fn, and what the formulas call each return.
    std::vector<bool> out_diff(rets.size(), true);
    std::vector<std::string> ret_names(rets.size());
    if (d && !d->output_differentiability.empty()) {
      if (d->output_differentiability.size() != rets.size())
        throw std::runtime_error(op.qualified + ": output_differentiability needs one entry per return");
      out_diff = d->output_differentiability;
    }
    for (size_t i = 0; i < rets.size(); ++i)
      ret_names[i] = rets[i].name.empty() ? "result" + std::to_string(i) : rets[i].name;
    std::string cls = op.id + "_Node";
    std::set<std::string> ids;
    if (differentiable) {
      for (const auto& [in, f] : d->formulas) {
        auto s = identifiers(f);
        ids.insert(s.begin(), s.end());
      }
      // The node class: saved state exactly as the formulas use it.
      const int node_first = next_line(o);
      o << "struct " << cls << " : Node {\n  const char* name() const override { return \"" << d->node << "\"; }\n";
      if (ret_tuple) o << "  uint32_t num_outputs() const override { return " << rets.size() << "; }\n";
      if (ret_list)
        o << "  uint32_t num_outputs_ = 1;\n  uint32_t num_outputs() const override { return num_outputs_; }\n";
      for (const auto& a : op.e->schema.arguments) {
        if (ipt::codegen::is_tensor_arg(a)) {
          if (ids.count(a.name)) o << "  SavedVariable " << a.name << "_;\n";
          if (ids.count(a.name + "_sizes")) o << "  std::vector<int64_t> " << a.name << "_sizes_;\n";
          if (ids.count(a.name + "_strides")) o << "  std::vector<int64_t> " << a.name << "_strides_;\n";
          if (ids.count(a.name + "_storage_offset")) o << "  int64_t " << a.name << "_storage_offset_ = 0;\n";
          if (ids.count(a.name + "_dtype")) o << "  ScalarType " << a.name << "_dtype_{};\n";
          if (ids.count(a.name + "_device")) o << "  Device " << a.name << "_device_;\n";
        } else if (&a == list_in) {
          if (ids.count(a.name + "_sizes")) o << "  std::vector<std::vector<int64_t>> " << a.name << "_sizes_;\n";
          if (ids.count(a.name))
            throw std::runtime_error(op.qualified + ": formulas may use " + a.name + "_sizes, not " + a.name);
        } else if (ids.count(a.name)) {
          o << "  " << value_type_of(ipt::codegen::cpp_arg_type(a)) << " " << a.name << "_{};\n";
        }
      }
      if (ids.count("result")) o << "  SavedVariable result_;\n";
      if (ret_tuple)
        for (const auto& n : ret_names)
          if (ids.count(n)) o << "  SavedVariable " << n << "_;\n";
      o << "  void release_variables() override {\n";
      for (auto* a : all_targs)
        if (ids.count(a->name)) o << "    " << a->name << "_.reset();\n";
      if (ids.count("result")) o << "    result_.reset();\n";
      if (ret_tuple)
        for (const auto& n : ret_names)
          if (ids.count(n)) o << "    " << n << "_.reset();\n";
      o << "  }\n  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override {\n"
        << "    std::vector<Tensor> out(next_edges.size());\n";
      // A list-returning op's formulas read `grads`; `grad` (the first) only where one names it.
      if (!ret_list || ids.count("grad")) o << "    const Tensor& grad = grads[0];\n";
      if (ret_list) {
        o << "    bool any_grad = false;\n    for (const auto& g_ : grads) any_grad = any_grad || g_.defined();\n"
          << "    if (!any_grad) return out;\n";
      } else {
        o << "    if (!grad.defined()) return out;\n";
      }
      for (const auto& a : op.e->schema.arguments) {
        if (ipt::codegen::is_tensor_arg(a)) {
          if (ids.count(a.name)) o << "    const Tensor " << a.name << " = " << a.name << "_.unpack();\n";
          if (ids.count(a.name + "_sizes")) o << "    const auto& " << a.name << "_sizes = " << a.name << "_sizes_;\n";
          if (ids.count(a.name + "_strides"))
            o << "    const auto& " << a.name << "_strides = " << a.name << "_strides_;\n";
          if (ids.count(a.name + "_storage_offset"))
            o << "    const int64_t " << a.name << "_storage_offset = " << a.name << "_storage_offset_;\n";
          if (ids.count(a.name + "_dtype"))
            o << "    const ScalarType " << a.name << "_dtype = " << a.name << "_dtype_;\n";
          if (ids.count(a.name + "_device"))
            o << "    const Device " << a.name << "_device = " << a.name << "_device_;\n";
        } else if (&a == list_in) {
          if (ids.count(a.name + "_sizes")) o << "    const auto& " << a.name << "_sizes = " << a.name << "_sizes_;\n";
        } else if (ids.count(a.name)) {
          o << "    const auto& " << a.name << " = " << a.name << "_;\n";
        }
      }
      if (ids.count("result")) o << "    const Tensor result = result_.unpack();\n";
      if (ret_tuple)
        for (const auto& n : ret_names)
          if (ids.count(n)) o << "    const Tensor " << n << " = " << n << "_.unpack();\n";
      if (list_in) {
        for (const auto& [in, f] : d->formulas) o << "    out = " << f << ";\n    out.resize(next_edges.size());\n";
      } else {
        for (size_t i = 0; i < targs.size(); ++i)
          for (const auto& [in, f] : d->formulas)
            if (in == targs[i]->name) o << "    if (next_edges[" << i << "].valid()) out[" << i << "] = " << f << ";\n";
      }
      o << "    return out;\n  }\n};\n\n";
      index_definition(o, cls, node_first);
    }
    // The kernel.
    std::string target = is_mutable  ? written_args(op)[0]->name
                         : ret_tuple ? "std::get<0>(result)"
                         : ret_list  ? "result[0]"
                                     : "result";
    const int wrapper_first = next_line(o);
    o << op.ret << " " << op.id << "_Autograd(DispatchKeySet ks, " << params(op, false) << ") {\n"
      << inputs_decl << "  const bool record = compute_requires_grad(" << inputs << ");\n";
    // out= overloads refuse autograd as PyTorch's do (any input or the out tensor may trigger it).
    if (has_out && !d) o << "  if (record) report_out_requires_grad(\"" << op.e->schema.name << "\");\n";
    o << "  autograd_before_call(\"" << op.qualified << "\", " << inputs << ", " << (is_mutable ? "true" : "false")
      << ", record ? \"" << (differentiable ? d->node : (d ? "" : "?")) << "\" : nullptr);\n";
    if (!d && !has_out) o << "  if (record) report_not_differentiable(\"" << op.qualified << "\");\n";
    if (differentiable) {
      // An optional tensor no formula differentiates (nll_loss's weight) must not require grad.
      for (const auto& a : op.e->schema.arguments)
        if (ipt::codegen::is_optional_tensor_arg(a))
          o << "  check_no_requires_grad(" << a.name << ", \"" << a.name << "\", \"" << op.e->schema.name << "\");\n";
      o << "  std::shared_ptr<" << cls << "> grad_fn;\n  if (record) {\n";
      if (is_mutable) o << "    check_inplace(" << target << ");\n";
      o << "    grad_fn = std::make_shared<" << cls << ">();\n    grad_fn->next_edges = collect_next_edges(" << inputs
        << ");\n";
      for (const auto& a : op.e->schema.arguments) {
        if (ipt::codegen::is_tensor_arg(a)) {
          if (ids.count(a.name + "_sizes")) o << "    grad_fn->" << a.name << "_sizes_ = " << a.name << ".sizes();\n";
          if (ids.count(a.name + "_strides"))
            o << "    grad_fn->" << a.name << "_strides_ = " << a.name << ".strides();\n";
          if (ids.count(a.name + "_storage_offset"))
            o << "    grad_fn->" << a.name << "_storage_offset_ = " << a.name << ".storage_offset();\n";
          if (ids.count(a.name + "_dtype")) o << "    grad_fn->" << a.name << "_dtype_ = " << a.name << ".dtype();\n";
          if (ids.count(a.name + "_device"))
            o << "    grad_fn->" << a.name << "_device_ = " << a.name << ".device();\n";
        } else if (&a == list_in) {
          if (ids.count(a.name + "_sizes"))
            o << "    for (const auto& t_ : " << a.name << ") grad_fn->" << a.name
              << "_sizes_.push_back(t_.sizes());\n";
        } else if (ids.count(a.name)) {
          o << "    grad_fn->" << a.name << "_ = " << to_value(ipt::codegen::cpp_arg_type(a), a.name) << ";\n";
        }
      }
      o << "  }\n";
    }
    o << "  " << (op.ret == "void" ? "" : op.ret + " result;\n  ") << "{\n"
      << "    ExcludeDispatchKeyGuard guard(keysets::autograd_dispatch_keyset | DispatchKeySet(Functionality::ADInplaceOrView));\n";
    if (differentiable) {
      o << "    if (grad_fn) {\n";
      for (auto* a : all_targs)  // edges or not (nll_loss's target is saved too)
        if (ids.count(a->name)) {
          // Saved only when a gradient whose formula uses it will be computed (PyTorch's
          // should_compute_output guard); an input the op overwrites is saved as a copy.
          std::string cond;
          for (size_t i = 0; i < targs.size(); ++i)
            for (const auto& [in, f] : d->formulas)
              if (in == targs[i]->name && identifiers(f).count(a->name))
                cond += (cond.empty() ? "" : " || ") + std::string("grad_fn->next_edges[") + std::to_string(i) +
                        "].valid()";
          if (cond.empty()) cond = "false";
          bool written = is_mutable && a->alias && a->alias->is_write;
          o << "      if (" << cond << ") grad_fn->" << a->name << "_ = SavedVariable("
            << (written ? "ops::clone(" + a->name + ")" : a->name) << ", false);\n";
        }
      o << "    }\n";
    }
    o << "    " << (op.ret == "void" ? "" : "result = ") << "ops::redispatch::" << op.id
      << "(ks & DispatchKeySet::below(Functionality::AutogradOther), " << arg_names(op) << ");\n  }\n";
    if (differentiable) {
      o << "  if (grad_fn) {\n";
      if (ret_tuple) {
        for (size_t i = 0; i < rets.size(); ++i)
          if (out_diff[i]) o << "    set_history(std::get<" << i << ">(result), grad_fn, " << i << ");\n";
      } else if (ret_list) {
        o << "    grad_fn->num_outputs_ = static_cast<uint32_t>(result.size());\n"
          << "    for (size_t i_ = 0; i_ < result.size(); ++i_) set_history(result[i_], grad_fn, static_cast<uint32_t>(i_));\n";
      } else if (is_mutable) {
        o << "    rebase_history(" << target << ", grad_fn);\n";
      } else {
        o << "    set_history(" << target << ", grad_fn);\n";
      }
      if (ret_list) o << "    if (!result.empty()) record_node_created(*grad_fn, result[0]);\n";
      else o << "    record_node_created(*grad_fn, " << target << ");\n";
      if (ids.count("result")) o << "    grad_fn->result_ = SavedVariable(" << target << ", true);\n";
      if (ret_tuple)
        for (size_t i = 0; i < rets.size(); ++i)
          if (ids.count(ret_names[i]))
            o << "    grad_fn->" << ret_names[i] << "_ = SavedVariable(std::get<" << i << ">(result), true);\n";
      o << "  }\n";
    }
    if (op.ret != "void") o << "  return result;\n";
    o << "}\n\n";
    index_definition(o, op.id + "_Autograd", wrapper_first);
    done.push_back(&op);
  }
  o << "}  // namespace\n\nvoid register_Autograd_kernels(Dispatcher& d) {\n";
  for (const Op* op : done)
    emit_kernel_registration(o, *op, "Autograd", "&" + op->id + "_Autograd", "VariableType::" + op->id,
                             op->id + "_Autograd", {});
  o << "}\n\n}  // namespace ipt\n";
  return o.str();
}

std::map<std::string, Derivative> load_derivatives(const std::string& path, const std::vector<Op>& ops) {
  std::map<std::string, Derivative> out;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsSequence()) throw std::runtime_error(path + ": expected a list of entries");
  for (const auto& n : root) {
    const int line = n.Mark().line + 1;
    auto where = [&] { return path + ":" + std::to_string(line) + ": "; };
    if (!n["name"]) throw std::runtime_error(where() + "entry without 'name'");
    std::string name = n["name"].as<std::string>();
    const Op* op = nullptr;
    for (const auto& o : ops)
      if (o.e->schema.full_name() == name) op = &o;
    if (!op) throw std::runtime_error(where() + "'" + name + "' is not an operator of native_functions.yaml");
    Derivative d;
    for (const auto& kv : n) {
      std::string key = kv.first.as<std::string>();
      if (key == "name") continue;
      if (key == "node") d.node = kv.second.as<std::string>();
      else if (key == "nondifferentiable") d.nondifferentiable = kv.second.as<bool>();
      else if (key == "output_differentiability") d.output_differentiability = kv.second.as<std::vector<bool>>();
      else {
        bool is_input = false;
        for (auto* a : tensor_args(*op)) is_input = is_input || a->name == key;
        for (const auto& a : op->e->schema.arguments)
          is_input = is_input || (ipt::codegen::is_tensor_list_arg(a) && a.name == key);
        if (!is_input) throw std::runtime_error(where() + "'" + key + "' is not a tensor input of " + name);
        d.formulas.emplace_back(key, kv.second.as<std::string>());
      }
    }
    if (!d.nondifferentiable && d.node.empty()) throw std::runtime_error(where() + name + " needs a 'node' name");
    out[name] = d;
  }
  return out;
}

std::string gen_ad_inplace_or_view(const std::vector<Op>& ops) {
  std::ostringstream o;
  o << kHeader << "// ADInplaceOrView kernels: bump the version counter of tensors written in place and\n"
    << "// mark the results of view operators as views of their base.\n"
    << "#include \"core/dispatch/dispatcher.h\"\n#include \"core/ops/autograd_hooks.h\"\n#include \"generated/ops.h\"\n\n"
    << "namespace ipt {\nnamespace {\n\n";
  std::vector<const Op*> done;
  for (const auto& op : ops) {
    if (is_composite_implicit(op)) continue;
    auto written = written_args(op);
    bool view = is_view_op(op);
    if (written.empty() && !view) continue;
    const int wrapper_first = next_line(o);
    o << op.ret << " " << op.id << "_ADInplaceOrView(DispatchKeySet ks, " << params(op, false) << ") {\n";
    std::string redispatch = "ops::redispatch::" + op.id +
                             "(ks & DispatchKeySet::below(Functionality::ADInplaceOrView), " + arg_names(op) + ")";
    if (view && op.ret == "std::vector<Tensor>") {  // split: every piece is a view of self
      o << "  std::vector<Tensor> tmp;\n  {\n    ExcludeDispatchKeyGuard guard(keysets::autograd_dispatch_keyset | DispatchKeySet(Functionality::ADInplaceOrView));\n"
        << "    tmp = " << redispatch << ";\n  }\n  for (const auto& t_ : tmp) as_view(" << tensor_args(op)[0]->name
        << ", t_, ViewCreation::MultiOutput);\n  return tmp;\n}\n\n";
    } else if (view) {
      o << "  Tensor tmp;\n  {\n    ExcludeDispatchKeyGuard guard(keysets::autograd_dispatch_keyset | DispatchKeySet(Functionality::ADInplaceOrView));\n"
        << "    tmp = " << redispatch << ";\n  }\n  return as_view(" << tensor_args(op)[0]->name << ", tmp"
        << (op.id == "detach" ? ", ViewCreation::NotDifferentiable" : "") << ");\n}\n\n";
    } else {
      o << "  {\n    ExcludeDispatchKeyGuard guard(keysets::autograd_dispatch_keyset | DispatchKeySet(Functionality::ADInplaceOrView));\n"
        << "    " << redispatch << ";\n  }\n";
      for (auto* a : written) o << "  increment_version(" << a->name << ");\n";
      o << "  return " << written[0]->name << ";\n}\n\n";
    }
    index_definition(o, op.id + "_ADInplaceOrView", wrapper_first);
    done.push_back(&op);
  }
  o << "}  // namespace\n\nvoid register_ADInplaceOrView_kernels(Dispatcher& d) {\n";
  for (const Op* op : done)
    emit_kernel_registration(o, *op, "ADInplaceOrView", "&" + op->id + "_ADInplaceOrView", "ADInplaceOrView::" + op->id,
                             op->id + "_ADInplaceOrView", {});
  o << "}\n\n}  // namespace ipt\n";
  return o.str();
}

std::string gen_backend_select(const std::vector<Op>& ops) {
  std::ostringstream o;
  o << kHeader << "// BackendSelect kernels: factory functions have no tensor argument to take a backend key\n"
    << "// from, so this kernel computes it from the `device` argument and redispatches there.\n"
    << "#include \"core/dispatch/dispatcher.h\"\n#include \"generated/ops.h\"\n\n"
    << "namespace ipt {\nnamespace {\n\n";
  std::vector<const Op*> done;
  for (const auto& op : ops) {
    // Like torchgen: every operator with tensor options (a device argument) gets one, composite
    // or not, except the *_like and new_* ones.
    const std::string& name = op.e->schema.name;
    const bool like = name.rfind("new_", 0) == 0 || (name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0);
    if (!has_device_arg(op) || like) continue;
    const int wrapper_first = next_line(o);
    o << op.ret << " " << op.id << "_BackendSelect(DispatchKeySet, " << params(op, false) << ") {\n";
    auto targs = tensor_args(op);
    if (targs.empty()) {
      o << "  const DispatchKeySet dk(DispatchKey(Functionality::Dense, backend_of(device ? device->type : DeviceType::CPU)));\n";
    } else {
      // An operator with tensors (_to_copy) runs on the highest backend among the requested
      // device and its tensors' devices.
      o << "  DispatchKeySet dk = device ? DispatchKeySet(DispatchKey(Functionality::Dense, backend_of(device->type))) : DispatchKeySet();\n";
      for (auto* a : targs) o << "  dk = dk | " << a->name << ".key_set();\n";
      o << "  dk = dk & DispatchKeySet::below(Functionality::BackendSelect);\n";
    }
    o << "  return ops::redispatch::" << op.id << "(dk, " << arg_names(op) << ");\n}\n\n";
    index_definition(o, op.id + "_BackendSelect", wrapper_first);
    done.push_back(&op);
  }
  o << "}  // namespace\n\nvoid register_BackendSelect_kernels(Dispatcher& d) {\n";
  for (const Op* op : done)
    emit_kernel_registration(o, *op, "BackendSelect", "&" + op->id + "_BackendSelect", "BackendSelect::" + op->id,
                             op->id + "_BackendSelect", {});
  o << "}\n\n}  // namespace ipt\n";
  return o.str();
}

std::string gen_core_registrations() {
  std::ostringstream o;
  o << kHeader << "#include \"core/dispatch/dispatcher.h\"\n\nnamespace ipt {\n\n";
  const char* fns[] = {"CompositeImplicitAutograd",
                       "CompositeExplicitAutograd",
                       "CompositeExplicitAutogradNonFunctional",
                       "Autograd",
                       "ADInplaceOrView",
                       "BackendSelect",
                       "Autocast"};
  for (auto* f : fns) o << "void register_" << f << "_kernels(Dispatcher& d);\n";
  o << "\nvoid register_generated_core_kernels(Dispatcher& d) {\n";
  for (auto* f : fns) o << "  register_" << f << "_kernels(d);\n";
  o << "}\n\n}  // namespace ipt\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: ipt-codegen <native_functions.yaml> <derivatives.yaml> <autocast.yaml> <output-dir>\n";
    return 2;
  }
  try {
    auto entries = ipt::schema::load_native_functions(argv[1]);
    std::vector<Op> ops;
    std::set<std::string> ids;
    const std::set<std::string> backend_keys = {"CPU", "Meta", "CUDA"};
    const std::set<std::string> alias_keys = {"CompositeImplicitAutograd", "CompositeExplicitAutograd",
                                              "CompositeExplicitAutogradNonFunctional"};
    for (const auto& e : entries) {
      Op op = ipt::codegen::make_op(e);
      if (!ids.insert(op.id).second)
        throw std::runtime_error("line " + std::to_string(e.line) + ": operator " + op.qualified +
                                 " is declared twice");
      if (e.dispatch.empty() && !e.structured_delegate)
        throw std::runtime_error("line " + std::to_string(e.line) + ": " + op.qualified + " has no dispatch: entry");
      for (const auto& [k, v] : e.dispatch)
        if (!backend_keys.count(k) && !alias_keys.count(k))
          throw std::runtime_error("line " + std::to_string(e.line) + ": dispatch key '" + k +
                                   "' is not one this project registers (CPU, Meta, CUDA, "
                                   "CompositeImplicitAutograd, CompositeExplicitAutograd, "
                                   "CompositeExplicitAutogradNonFunctional)");
      ops.push_back(op);
    }
    const auto groups = ipt::codegen::structured_groups(ops);
    auto derivs = load_derivatives(argv[2], ops);
    fs::path out = fs::path(argv[4]) / "generated";
    fs::create_directories(out);
    // Each file is generated with the index told its embedded name (Note [The operator index]).
    auto generate = [&](const std::string& name, auto&& gen) {
      operator_index_file("build/generated/" + name);
      write_if_changed(out / name, gen());
    };
    generate("ops.h", [&] { return gen_ops_h(ops); });
    generate("ops.cpp", [&] { return gen_ops_cpp(ops); });
    generate("native_functions.h", [&] { return gen_native_functions_h(ops, groups); });
    generate("register_operators.cpp", [&] { return gen_register_operators(ops); });
    for (const auto& k : backend_keys)
      generate("Register" + k + ".cpp", [&] { return gen_register_key(ops, groups, k); });
    for (const auto& k : alias_keys)
      generate("Register" + k + ".cpp", [&] { return gen_register_key(ops, groups, k); });
    generate("RegisterAutograd.cpp", [&] { return gen_autograd(ops, derivs); });
    generate("RegisterADInplaceOrView.cpp", [&] { return gen_ad_inplace_or_view(ops); });
    generate("RegisterBackendSelect.cpp", [&] { return gen_backend_select(ops); });
    generate("RegisterAutocast.cpp", [&] { return ipt::codegen::gen_autocast(ops, argv[3]); });
    generate("register_core_kernels.cpp", [&] { return gen_core_registrations(); });
    generate("python_functions.cpp", [&] { return ipt::codegen::gen_python_functions(entries); });
    write_if_changed(out / "operator_index.tsv", ipt::codegen::operator_index_tsv());
    std::cout << "ipt-codegen: " << ops.size() << " operators from " << argv[1] << "\n";
  } catch (const std::exception& ex) {
    std::cerr << "ipt-codegen: error: " << ex.what() << "\n";
    return 1;
  }
  return 0;
}
