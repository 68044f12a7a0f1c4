// The project's own torchgen: reads core/ops/native_functions.yaml and writes the operator
// API, the kernel declarations and every registration into the build folder.
//
// Usage: ipt-codegen <native_functions.yaml> <derivatives.yaml> <autocast.yaml> <output-dir> <template-dir>
// The generated text is filled templates of <template-dir> (tools/codegen/templates, Note [Code
// templates] in code_template.h).
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

#include "core/dispatch/dispatch_key.h"
#include "core/schema/native_yaml.h"
#include "tools/codegen/autocast.h"
#include "tools/codegen/autograd.h"
#include "tools/codegen/code_template.h"
#include "tools/codegen/cpp_types.h"
#include "tools/codegen/op.h"
#include "tools/codegen/python_bindings.h"
#include "tools/codegen/sim_fallback.h"
#include "tools/codegen/structured.h"

namespace fs = std::filesystem;
using ipt::codegen::arg_names;
using ipt::codegen::CodeTemplate;
using ipt::codegen::emit_kernel_registration;
using ipt::codegen::fill;
using ipt::codegen::fill_file;
using ipt::codegen::fn_type;
using ipt::codegen::IndexedText;
using ipt::codegen::is_composite_implicit;
using ipt::codegen::Op;
using ipt::codegen::op_env;
using ipt::codegen::operator_index_file;
using ipt::codegen::params;
using ipt::codegen::TemplateEnv;
using ipt::codegen::tensor_args;
using ipt::codegen::written_args;
using ipt::schema::NativeFunctionEntry;

namespace {

// Returns Tensor(a) of an argument's alias set, not written: a view.
bool is_view_op(const Op& op) {
  const auto& r = op.e->schema.returns;
  return r.size() == 1 && r[0].alias && !r[0].alias->is_write && !op.e->schema.is_mutable();
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
  static const CodeTemplate redispatch_declaration("${ret} ${id}(DispatchKeySet ks, ${params});",
                                                   "redispatch_declaration");
  IndexedText declarations;
  std::vector<std::string> redispatch;
  for (const auto& op : ops) {
    TemplateEnv env = op_env(op);
    env["schema"] = op.e->schema.str();
    env["params_with_defaults"] = params(op, true);
    // The declaration is the template's second line, after the schema comment.
    declarations.add_row({"declare", op.qualified, "", declarations.next_line() + 1, 0, {}});
    declarations.append(fill("ops_declaration.h.in", env));
    redispatch.push_back(redispatch_declaration.substitute(env));
  }
  return fill_file("ops.h.in", {{"redispatch_declarations", redispatch}, {"num_operators", std::to_string(ops.size())}},
                   {{"declarations", &declarations}});
}

std::vector<std::string> trace_result(const Op& op, const std::string& var) {
  if (op.ret == "Tensor") return {"trace_tensor(" + var + ", \"result\");"};
  if (op.ret == "std::vector<Tensor>") return {"for (const auto& t_ : " + var + ") trace_tensor(t_, \"result\");"};
  std::vector<std::string> out;
  if (op.ret.rfind("std::tuple<", 0) == 0)
    for (size_t i = 0; i < op.e->schema.returns.size(); ++i)
      if (op.e->schema.returns[i].type.str() == "Tensor")  // not _batch_norm_impl_index's int
        out.push_back("trace_tensor(std::get<" + std::to_string(i) + ">(" + var + "), \"result\");");
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
  // PyTorch's check (a dispatch mode, below the CompositeImplicitAutograd decompositions) never
  // sees a CompositeImplicitAutograd operator, only what it calls: meshgrid returns views of its
  // inputs and dropout returns its input when not training, against the letter of their schemas.
  // An operator tagged maybe_aliasing_or_mutating (batch_norm updates its running statistics)
  // breaks its schema's promises by design.
  const auto& tags = op.e->tags;
  if (is_composite_implicit(op) || std::find(tags.begin(), tags.end(), "maybe_aliasing_or_mutating") != tags.end())
    return op.ret + " " + op.id + "(" + params(op, false) + ") { return " + op.id + "_call(" + arg_names(op) + "); }\n";
  std::vector<std::string> args, rets, arg_checks, arg_infos, return_infos;
  for (const auto& a : sc.arguments) args.push_back(check_info(a.name, a.alias));
  for (const auto& r : sc.returns) rets.push_back(check_info(r.name, r.alias));
  static const CodeTemplate infos("static constexpr schema_check::ArgInfo ${var}[] = {${infos}};", "arg_infos");
  if (!args.empty()) arg_infos.push_back(infos.substitute({{"var", "args_"}, {"infos", args}}));
  if (!rets.empty()) return_infos.push_back(infos.substitute({{"var", "rets_"}, {"infos", rets}}));
  for (size_t i = 0; i < sc.arguments.size(); ++i)
    arg_checks.push_back("c_.arg(" + std::to_string(i) + ", " + sc.arguments[i].name + ");");
  const std::string call = op.id + "_call(" + arg_names(op) + ")";
  TemplateEnv env = op_env(op);
  env["arg_infos"] = arg_infos;
  env["return_infos"] = return_infos;
  env["arg_infos_ref"] = args.empty() ? "{}" : "args_";
  env["return_infos_ref"] = rets.empty() ? "{}" : "rets_";
  env["arg_checks"] = arg_checks;
  env["call_and_check"] = op.ret == "void"
                              ? std::vector<std::string>{call + ";", "c_.after(0);"}
                              : std::vector<std::string>{op.ret + " r_ = " + call + ";", "c_.after(r_);", "return r_;"};
  return fill("ops_checked_entry.cpp.in", env);
}

// ops::<op>_call: computes the dispatch key set from the tensor arguments and calls the kernel.
std::string gen_call(const Op& op) {
  auto targs = tensor_args(op);
  std::string ks_expr = "DispatchKeySet()";
  std::vector<std::string> arg_key_sets, trace_tensors, list_keys, list_trace;
  for (size_t i = 0; i < targs.size(); ++i) {
    ks_expr = i == 0 ? targs[i]->name + ".key_set()" : ks_expr + " | " + targs[i]->name + ".key_set()";
    arg_key_sets.push_back(targs[i]->name + ".key_set()");
    trace_tensors.push_back("trace_tensor(" + targs[i]->name + ", \"" + targs[i]->name + "\");");
  }
  // Tensor lists (cat's tensors, index's indices) take part with every element.
  for (const auto& a : op.e->schema.arguments) {
    if (ipt::codegen::is_optional_tensor_arg(a))
      ks_expr += " | (" + a.name + " ? " + a.name + "->key_set() : DispatchKeySet())";
    if (ipt::codegen::is_tensor_list_arg(a)) {
      list_keys.push_back("for (const auto& t_ : " + a.name + ") arg_keys = arg_keys | t_.key_set();");
      list_trace.push_back("for (const auto& t_ : " + a.name + ") trace_tensor(t_, \"" + a.name + "\");");
    }
    if (ipt::codegen::is_optional_tensor_list_arg(a)) {
      list_keys.push_back("for (const auto& t_ : " + a.name + ") if (t_) arg_keys = arg_keys | t_->key_set();");
      list_trace.push_back("for (const auto& t_ : " + a.name + ") if (t_) trace_tensor(*t_, \"" + a.name + "\");");
    }
  }
  TemplateEnv env = op_env(op);
  env["arg_keys_const"] = list_keys.empty() ? "const " : "";
  env["ks_expr"] = ks_expr;
  env["list_keys"] = list_keys;
  // An empty tensor list (torch.cat([])) still reaches the CPU kernel, which reports it.
  env["empty_list_keys"] =
      targs.empty() && !list_keys.empty()
          ? std::vector<std::string>{"if (arg_keys.empty()) arg_keys = DispatchKeySet(DispatchKey(Functionality::Dense, "
                                     "backend_of(DeviceType::CPU)));"}
          : std::vector<std::string>{};
  env["arg_key_sets"] = arg_key_sets;
  env["trace_inputs"] =
      trace_tensors.empty() && list_trace.empty()
          ? ""
          : fill("ops_trace_inputs.cpp.in", {{"trace_tensors", trace_tensors}, {"trace_lists", list_trace}});
  env["call"] = "e.kernel.as<" + fn_type(op) + ">()(ks, " + arg_names(op) + ")";
  env["trace_result"] = trace_result(op, "r");
  return fill(op.ret == "void" ? "ops_call_void.cpp.in" : "ops_call.cpp.in", env);
}

std::string gen_ops_cpp(const std::vector<Op>& ops) {
  std::vector<std::string> entries, redispatch;
  for (const auto& op : ops) {
    entries.push_back(gen_call(op) + gen_checked_entry(op));
    TemplateEnv env = op_env(op);
    env["call"] = "e.kernel.as<" + fn_type(op) + ">()(masked_ks, " + arg_names(op) + ")";
    redispatch.push_back(fill("ops_redispatch.cpp.in", env));
  }
  return fill("ops.cpp.in", {{"entries", entries}, {"redispatch_definitions", redispatch}});
}

std::string gen_register_operators(const std::vector<Op>& ops) {
  IndexedText registrations;
  for (const auto& op : ops) {
    registrations.add_row({"schema", op.qualified, "", registrations.next_line(), 0, {}});
    registrations.append(
        fill("operator_registration.cpp.in", {{"name", op.e->schema.name},
                                              {"overload", op.e->schema.overload_name},
                                              {"schema", op.e->schema.str()},
                                              {"kernel_signature", ipt::codegen::kernel_signature(op.e->schema)}}));
  }
  return fill_file("register_operators.cpp.in", {}, {{"registrations", &registrations}});
}

std::string gen_native_functions_h(const std::vector<Op>& ops,
                                   const std::vector<ipt::codegen::StructuredGroup>& groups) {
  static const CodeTemplate declaration("${ret} ${kernel}(${params});", "kernel_declaration");
  std::vector<std::string> declarations;
  std::set<std::string> seen;
  for (const auto& op : ops)
    for (const auto& [key, kernel] : op.e->dispatch) {
      if (op.e->structured) continue;  // its dispatch names impls (structured_declarations)
      TemplateEnv env = op_env(op);
      env["kernel"] = kernel;
      std::string decl = declaration.substitute(env);
      if (seen.insert(decl).second) declarations.push_back(decl);
    }
  return fill("native_functions.h.in", {{"declarations", declarations},
                                        {"structured_declarations", ipt::codegen::structured_declarations(groups)}});
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
  static const CodeTemplate adapter(
      "+[](DispatchKeySet, ${params}) -> ${ret} { ${checks}return native::${kernel}(${args}); }", "backend_adapter");
  const bool backend = key == "CPU" || key == "Meta" || key == "CUDA";
  IndexedText registrations;
  for (const auto& op : ops) {
    if (backend && ipt::codegen::is_structured_member(op)) continue;  // below
    auto it = op.e->dispatch.find(key);
    if (it == op.e->dispatch.end()) {
      // Note [The CPU kernel on the simulated GPU]
      if (key == "CUDA" && ipt::codegen::wants_sim_fallback(op)) {
        static const CodeTemplate fallback("+[](DispatchKeySet, ${params}) -> ${ret} { ${checks}${body} }",
                                           "sim_fallback_kernel");
        std::string checks;
        if (writes_elements_checked(op))
          for (auto* a : written_args(op)) checks += "check_no_internal_overlap(" + a->name + "); ";
        TemplateEnv env = op_env(op);
        env["checks"] = checks;
        env["body"] = ipt::codegen::sim_fallback_body(op);
        emit_kernel_registration(registrations, op, key, fallback.substitute(env), "sim_fallback::cpu_kernel", "", {});
      }
      continue;
    }
    std::string checks;
    if (backend && writes_elements_checked(op))
      for (auto* a : written_args(op)) checks += "check_no_internal_overlap(" + a->name + "); ";
    TemplateEnv env = op_env(op);
    env["checks"] = checks;
    env["kernel"] = it->second;
    emit_kernel_registration(registrations, op, key, adapter.substitute(env), it->second, "", {it->second});
  }
  if (backend) ipt::codegen::emit_structured_registrations(registrations, groups, key);
  const std::string includes =
      key == "CUDA" ? "#include \"backends/sim/cpu_fallback.h\"\n#include \"generated/ops.h\"" : "";
  return fill_file("RegisterDispatchKey.cpp.in", {{"key", key}, {"includes", includes}},
                   {{"registrations", &registrations}});
}

std::string gen_ad_inplace_or_view(const std::vector<Op>& ops) {
  IndexedText definitions, registrations;
  for (const auto& op : ops) {
    if (is_composite_implicit(op)) continue;
    auto written = written_args(op);
    bool view = is_view_op(op);
    // As torchgen: in-place and out= operators (a return that is a written argument) and views;
    // an operator that writes arguments it does not return (_native_batch_norm_legit's running
    // statistics) gets none.
    bool returns_written = false;
    for (const auto& r : op.e->schema.returns) returns_written = returns_written || (r.alias && r.alias->is_write);
    if ((written.empty() || !returns_written) && !view) continue;
    TemplateEnv env = op_env(op);
    std::string file;
    if (view) {
      env["base"] = tensor_args(op)[0]->name;
      // detach and view(dtype) share memory but not history (derivatives.yaml's output_differentiability: [False])
      env["view_creation"] = op.id == "detach" || op.id == "view_dtype" ? ", ViewCreation::NotDifferentiable" : "";
      // split: every piece is a view of self
      file = op.ret == "std::vector<Tensor>" ? "ADInplaceOrView_multi_view.cpp.in" : "ADInplaceOrView_view.cpp.in";
    } else {
      std::vector<std::string> increments;
      for (auto* a : written) increments.push_back("increment_version(" + a->name + ");");
      env["increment_versions"] = increments;
      // an in-place op returns what it wrote; one that also writes other arguments
      // (_native_batch_norm_legit's running statistics) returns its own results
      const bool returns = op.ret != "void";
      env["declare_result"] = returns ? op.ret + " result_;" : "";
      env["assign_result"] = returns ? "result_ = " : "";
      env["return_result"] = returns ? "return result_;" : "";
      file = "ADInplaceOrView_inplace.cpp.in";
    }
    const int first = definitions.next_line();
    definitions.append(fill(file, env));
    definitions.definition(op.id + "_ADInplaceOrView", first);
    emit_kernel_registration(registrations, op, "ADInplaceOrView", "&" + op.id + "_ADInplaceOrView",
                             "ADInplaceOrView::" + op.id, op.id + "_ADInplaceOrView", {});
  }
  return fill_file("RegisterADInplaceOrView.cpp.in", {},
                   {{"definitions", &definitions}, {"registrations", &registrations}});
}

std::string gen_backend_select(const std::vector<Op>& ops) {
  IndexedText definitions, registrations;
  for (const auto& op : ops) {
    // Like torchgen: every operator with tensor options (a device argument) gets one, composite
    // or not, except the *_like and new_* ones.
    const std::string& name = op.e->schema.name;
    const bool like = name.rfind("new_", 0) == 0 || (name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0);
    if (!has_device_arg(op) || like) continue;
    TemplateEnv env = op_env(op);
    auto targs = tensor_args(op);
    if (targs.empty()) {
      env["key_set"] = fill("BackendSelect_from_device.cpp.in", {});
    } else {
      // An operator with tensors (_to_copy) runs on the highest backend among the requested
      // device and its tensors' devices.
      std::vector<std::string> tensor_key_sets;
      for (auto* a : targs) tensor_key_sets.push_back("dk = dk | " + a->name + ".key_set();");
      env["key_set"] = fill("BackendSelect_from_device_and_tensors.cpp.in", {{"tensor_key_sets", tensor_key_sets}});
    }
    const int first = definitions.next_line();
    definitions.append(fill("BackendSelect_kernel.cpp.in", env));
    definitions.definition(op.id + "_BackendSelect", first);
    emit_kernel_registration(registrations, op, "BackendSelect", "&" + op.id + "_BackendSelect",
                             "BackendSelect::" + op.id, op.id + "_BackendSelect", {});
  }
  return fill_file("RegisterBackendSelect.cpp.in", {},
                   {{"definitions", &definitions}, {"registrations", &registrations}});
}

std::string gen_core_registrations() {
  static const CodeTemplate declaration("void register_${key}_kernels(Dispatcher& d);", "register_declaration");
  static const CodeTemplate call("register_${key}_kernels(d);", "register_call");
  std::vector<std::string> declarations, calls;
  for (const char* key :
       {"CompositeImplicitAutograd", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional", "Autograd",
        "ADInplaceOrView", "BackendSelect", "Autocast"}) {
    declarations.push_back(declaration.substitute({{"key", key}}));
    calls.push_back(call.substitute({{"key", key}}));
  }
  return fill("register_core_kernels.cpp.in", {{"declarations", declarations}, {"calls", calls}});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: ipt-codegen <native_functions.yaml> <derivatives.yaml> <autocast.yaml> <output-dir> "
                 "<template-dir>\n";
    return 2;
  }
  try {
    ipt::codegen::set_template_dir(argv[5]);
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
    auto derivs = ipt::codegen::load_derivatives(argv[2], ops);
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
    generate("RegisterAutograd.cpp", [&] { return ipt::codegen::gen_autograd(ops, derivs); });
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
