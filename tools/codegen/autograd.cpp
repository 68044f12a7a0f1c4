#include "tools/codegen/autograd.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "tools/codegen/cpp_types.h"

namespace ipt::codegen {

namespace {

using schema::Argument;

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

// The inputs one formula computes: "self", or "input, weight, bias" for a formula that computes
// several gradients at once (a tuple, as convolution_backward returns them).
std::vector<std::string> formula_inputs(const std::string& key) {
  std::vector<std::string> names;
  size_t at = 0;
  while (at <= key.size()) {
    size_t comma = key.find(',', at);
    if (comma == std::string::npos) comma = key.size();
    std::string n = key.substr(at, comma - at);
    while (!n.empty() && n.front() == ' ') n.erase(n.begin());
    while (!n.empty() && n.back() == ' ') n.pop_back();
    names.push_back(n);
    at = comma + 1;
  }
  return names;
}

bool formula_computes(const std::string& key, const std::string& name) {
  for (const auto& n : formula_inputs(key))
    if (n == name) return true;
  return false;
}

// An input's name in the Autograd kernel: an optional tensor with a formula is read through a
// local Tensor (undefined when absent), so that it can have an edge and be saved.
std::string kernel_tensor(const schema::Argument& a) { return is_optional_tensor_arg(a) ? a.name + "_t_" : a.name; }

std::string value_type_of(const std::string& arg_type) {
  std::string t = arg_type;
  if (t.rfind("const ", 0) == 0) t = t.substr(6);
  if (!t.empty() && t.back() == '&') t.pop_back();
  if (t == "IntArrayRef") return "std::vector<int64_t>";
  if (t == "std::optional<IntArrayRef>") return "std::optional<std::vector<int64_t>>";
  if (t == "std::span<const std::optional<Tensor>>") return "std::vector<std::optional<Tensor>>";
  if (t == "std::string_view") return "std::string";
  if (t == "std::optional<std::string_view>") return "std::optional<std::string>";
  return t;
}

std::string to_value(const std::string& arg_type, const std::string& name) {
  std::string v = value_type_of(arg_type);
  if (v == "std::vector<int64_t>" || v == "std::vector<std::optional<Tensor>>")
    return v + "(" + name + ".begin(), " + name + ".end())";
  if (v == "std::optional<std::string>") return name + " ? std::optional<std::string>(*" + name + ") : std::nullopt";
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
// What the node and the kernel of one differentiable (or recording) operator are made from.
struct AutogradOp {
  const Op* op = nullptr;
  const Derivative* d = nullptr;
  const Argument* list_in = nullptr;   // a Tensor[] input
  std::vector<const Argument*> targs;  // the inputs with edges
  std::vector<const Argument*> all_targs;
  bool has_out = false, is_mutable = false, ret_tuple = false, ret_list = false, differentiable = false;
  std::vector<bool> out_diff;          // returns that get grad_fn
  std::vector<std::string> ret_names;  // what the formulas call each return
  std::set<std::string> ids;           // identifiers the formulas use
  std::string inputs;                  // "{&self, &other}", or "inputs_" for a list
  std::string target;                  // the tensor that gets the history
  std::string cls;                     // the node's C++ class
};

AutogradOp analyze(const Op& op, const Derivative* d, const Argument* list_in) {
  AutogradOp g;
  g.op = &op;
  g.d = d;
  g.list_in = list_in;
  g.targs = tensor_args(op);
  // Only inputs with a formula get an edge (as PyTorch leaves non_differentiable inputs such
  // as nll_loss's target or where's condition out of next_functions). An optional tensor gets
  // one when a formula computes its gradient (convolution's bias, layer_norm's weight).
  if (d && !d->nondifferentiable) {
    std::vector<const Argument*> with_formula;
    for (const auto& a : op.e->schema.arguments) {
      if (!is_tensor_arg(a) && !is_optional_tensor_arg(a)) continue;
      for (const auto& [in, f] : d->formulas)
        if (formula_computes(in, a.name)) {
          with_formula.push_back(&a);
          break;
        }
    }
    for (auto* a : g.targs)
      if (std::find(with_formula.begin(), with_formula.end(), a) == with_formula.end()) g.all_targs.push_back(a);
    g.all_targs.insert(g.all_targs.begin(), with_formula.begin(), with_formula.end());
    g.targs = with_formula;
  } else {
    g.all_targs = g.targs;
  }
  if (list_in && !g.targs.empty())
    throw std::runtime_error(
        op.qualified +
        ": a Tensor[] input must be the only tensor input (see Note [Operators with several outputs or a list of inputs])");
  // An out= overload (no node) checks what it writes: its out tensors come first, where
  // autograd_before_call looks for the written tensor.
  const auto& args = op.e->schema.arguments;
  g.has_out = std::any_of(args.begin(), args.end(), [](const auto& a) { return a.is_out; });
  if (g.has_out && !d) std::stable_partition(g.targs.begin(), g.targs.end(), [](const auto* a) { return a->is_out; });
  for (auto* a : g.targs) g.inputs += (g.inputs.empty() ? "&" : ", &") + kernel_tensor(*a);
  g.inputs = list_in ? "inputs_" : "{" + g.inputs + "}";
  g.is_mutable = op.e->schema.is_mutable();
  const auto& rets = op.e->schema.returns;
  g.ret_tuple = op.ret.rfind("std::tuple<", 0) == 0;
  g.ret_list = op.ret == "std::vector<Tensor>";
  g.differentiable = d && !d->nondifferentiable && (op.ret == "Tensor" || g.ret_tuple || g.ret_list);
  g.out_diff.assign(rets.size(), true);
  g.ret_names.resize(rets.size());
  if (d && !d->output_differentiability.empty()) {
    if (d->output_differentiability.size() != rets.size())
      throw std::runtime_error(op.qualified + ": output_differentiability needs one entry per return");
    g.out_diff = d->output_differentiability;
  }
  for (size_t i = 0; i < rets.size(); ++i)
    g.ret_names[i] = rets[i].name.empty() ? "result" + std::to_string(i) : rets[i].name;
  g.cls = op.id + "_Node";
  if (g.differentiable)
    for (const auto& [in, f] : d->formulas) {
      auto s = identifiers(f);
      g.ids.insert(s.begin(), s.end());
    }
  g.target = g.is_mutable  ? written_args(op)[0]->name
             : g.ret_tuple ? "std::get<0>(result)"
             : g.ret_list  ? "result[0]"
                           : "result";
  return g;
}

// The node's fields: saved state exactly as the formulas use it; and how apply() unpacks them.
void saved_state(const AutogradOp& g, std::vector<std::string>& fields, std::vector<std::string>& unpack) {
  auto used = [&](const std::string& id) { return g.ids.count(id) > 0; };
  for (const auto& a : g.op->e->schema.arguments) {
    const std::string& n = a.name;
    const bool has_edge = std::find(g.targs.begin(), g.targs.end(), &a) != g.targs.end();
    if (is_optional_tensor_arg(a) && has_edge && used(n + "_sizes")) {
      // an absent optional tensor has no sizes: std::nullopt (convolution_backward's bias_sizes)
      fields.push_back("std::optional<std::vector<int64_t>> " + n + "_sizes_;");
      unpack.push_back("const std::optional<IntArrayRef> " + n + "_sizes = " + n +
                       "_sizes_ ? std::optional<IntArrayRef>(*" + n + "_sizes_) : std::nullopt;");
    }
    if (is_tensor_arg(a) || (is_optional_tensor_arg(a) && has_edge)) {
      if (used(n)) fields.push_back("SavedVariable " + n + "_;");
      // an optional tensor reads back as one: absent when it was (an undefined Tensor is no value)
      if (used(n) && is_optional_tensor_arg(a))
        unpack.push_back("const Tensor " + n + "_value_ = " + n + "_.unpack(); const std::optional<Tensor> " + n +
                         " = " + n + "_value_.defined() ? std::optional<Tensor>(" + n + "_value_) : std::nullopt;");
      else if (used(n)) unpack.push_back("const Tensor " + n + " = " + n + "_.unpack();");
      if (used(n + "_sizes") && is_tensor_arg(a)) fields.push_back("std::vector<int64_t> " + n + "_sizes_;");
      if (used(n + "_sizes") && is_tensor_arg(a)) unpack.push_back("const auto& " + n + "_sizes = " + n + "_sizes_;");
      if (used(n + "_strides")) fields.push_back("std::vector<int64_t> " + n + "_strides_;");
      if (used(n + "_strides")) unpack.push_back("const auto& " + n + "_strides = " + n + "_strides_;");
      if (used(n + "_storage_offset")) fields.push_back("int64_t " + n + "_storage_offset_ = 0;");
      if (used(n + "_storage_offset"))
        unpack.push_back("const int64_t " + n + "_storage_offset = " + n + "_storage_offset_;");
      if (used(n + "_dtype")) fields.push_back("ScalarType " + n + "_dtype_{};");
      if (used(n + "_dtype")) unpack.push_back("const ScalarType " + n + "_dtype = " + n + "_dtype_;");
      if (used(n + "_device")) fields.push_back("Device " + n + "_device_;");
      if (used(n + "_device")) unpack.push_back("const Device " + n + "_device = " + n + "_device_;");
    } else if (&a == g.list_in) {
      if (used(n + "_sizes")) fields.push_back("std::vector<std::vector<int64_t>> " + n + "_sizes_;");
      if (used(n + "_sizes")) unpack.push_back("const auto& " + n + "_sizes = " + n + "_sizes_;");
      if (used(n)) throw std::runtime_error(g.op->qualified + ": formulas may use " + n + "_sizes, not " + n);
    } else if (used(n)) {
      fields.push_back(value_type_of(cpp_arg_type(a)) + " " + n + "_{};");
      unpack.push_back("const auto& " + n + " = " + n + "_;");
    }
  }
}

// The node class (Note [Operators with several outputs or a list of inputs]).
std::string gen_node(const AutogradOp& g) {
  const auto& rets = g.op->e->schema.returns;
  std::vector<std::string> num_outputs, fields, release, unpack, formulas;
  if (g.ret_tuple)
    num_outputs.push_back("uint32_t num_outputs() const override { return " + std::to_string(rets.size()) + "; }");
  if (g.ret_list)
    num_outputs = {"uint32_t num_outputs_ = 1;", "uint32_t num_outputs() const override { return num_outputs_; }"};
  saved_state(g, fields, unpack);
  std::vector<std::string> saved_results;  // result, and the named returns of a tuple
  if (g.ids.count("result")) saved_results.push_back("result");
  if (g.ret_tuple)
    for (const auto& n : g.ret_names)
      if (g.ids.count(n)) saved_results.push_back(n);
  for (const auto& n : saved_results) fields.push_back("SavedVariable " + n + "_;");
  for (auto* a : g.all_targs)
    if (g.ids.count(a->name)) release.push_back(a->name + "_.reset();");
  for (const auto& n : saved_results) release.push_back(n + "_.reset();");
  for (const auto& n : saved_results) unpack.push_back("const Tensor " + n + " = " + n + "_.unpack();");
  if (g.list_in) {
    for (const auto& [in, f] : g.d->formulas)
      formulas.insert(formulas.end(), {"out = " + f + ";", "out.resize(next_edges.size());"});
  } else {
    auto edge_of = [&](const std::string& name) {
      for (size_t i = 0; i < g.targs.size(); ++i)
        if (g.targs[i]->name == name) return std::to_string(i);
      throw std::runtime_error(g.op->qualified + ": no edge for " + name);
    };
    for (const auto& [in, f] : g.d->formulas) {
      const std::vector<std::string> names = formula_inputs(in);
      if (names.size() == 1) {
        const std::string i = edge_of(names[0]);
        formulas.push_back("if (next_edges[" + i + "].valid()) out[" + i + "] = " + f + ";");
        continue;
      }
      // One formula for several inputs returns a tuple; grad_input_mask (where it reads one) says
      // which it needs.
      std::string mask, any, take;
      for (size_t k = 0; k < names.size(); ++k) {
        const std::string i = edge_of(names[k]);
        mask += (k ? ", " : "") + std::string("next_edges[") + i + "].valid()";
        any += (k ? " || " : "") + std::string("next_edges[") + i + "].valid()";
        take += " if (next_edges[" + i + "].valid()) out[" + i + "] = std::get<" + std::to_string(k) + ">(r_);";
      }
      const std::string mask_decl =
          f.find("grad_input_mask") == std::string::npos
              ? std::string()
              : "const std::array<bool, " + std::to_string(names.size()) + "> grad_input_mask = {" + mask + "}; ";
      formulas.push_back("if (" + any + ") { " + mask_decl + "auto r_ = " + f + ";" + take + " }");
    }
  }
  // A list-returning op's formulas read `grads`; `grad` (the first) only where one names it. A
  // tuple-returning op whose formulas read `grads` (a backward operator's double backward) runs
  // when any of its outputs has a gradient.
  const bool any_grad = g.ret_list || g.ids.count("grads");
  const bool first_grad = !any_grad || g.ids.count("grad");
  return fill("autograd_node.cpp.in",
              {{"node_class", g.cls},
               {"node", g.d->node},
               {"num_outputs", num_outputs},
               {"saved_fields", fields},
               {"release_saved", release},
               {"first_grad", first_grad ? "const Tensor& grad = grads[0];" : ""},
               {"return_without_grad",
                any_grad ? fill("autograd_return_without_grad_list.cpp.in", {}) : "if (!grad.defined()) return out;"},
               {"unpack_saved", unpack},
               {"formulas", formulas}});
}

// What the kernel records on the node before the call (the arguments' sizes, geometry, values)
// and, inside the call's guard, the saved tensors.
void node_inputs(const AutogradOp& g, std::vector<std::string>& save_arguments,
                 std::vector<std::string>& save_tensors) {
  auto used = [&](const std::string& id) { return g.ids.count(id) > 0; };
  for (const auto& a : g.op->e->schema.arguments) {
    const std::string& n = a.name;
    const bool has_edge = std::find(g.targs.begin(), g.targs.end(), &a) != g.targs.end();
    if (is_tensor_arg(a) || (is_optional_tensor_arg(a) && has_edge)) {
      for (const char* what : {"sizes", "strides", "storage_offset", "dtype", "device"})
        if (used(n + "_" + what))
          save_arguments.push_back((is_optional_tensor_arg(a) ? "if (" + kernel_tensor(a) + ".defined()) " : "") +
                                   "grad_fn->" + n + "_" + what + "_ = " + kernel_tensor(a) + "." + what + "();");
    } else if (&a == g.list_in) {
      if (used(n + "_sizes"))
        save_arguments.push_back("for (const auto& t_ : " + n + ") grad_fn->" + n + "_sizes_.push_back(t_.sizes());");
    } else if (used(n)) {
      save_arguments.push_back("grad_fn->" + n + "_ = " + to_value(cpp_arg_type(a), n) + ";");
    }
  }
  for (auto* a : g.all_targs)  // edges or not (nll_loss's target is saved too)
    if (used(a->name)) {
      // Saved only when a gradient whose formula uses it will be computed (PyTorch's
      // should_compute_output guard); an input the op overwrites is saved as a copy.
      std::string cond;
      for (size_t i = 0; i < g.targs.size(); ++i)
        for (const auto& [in, f] : g.d->formulas)
          if (formula_computes(in, g.targs[i]->name) && identifiers(f).count(a->name))
            cond +=
                (cond.empty() ? "" : " || ") + std::string("grad_fn->next_edges[") + std::to_string(i) + "].valid()";
      if (cond.empty()) cond = "false";
      const bool written = g.is_mutable && a->alias && a->alias->is_write;
      save_tensors.push_back("if (" + cond + ") grad_fn->" + a->name + "_ = SavedVariable(" +
                             (written ? "ops::clone(" + a->name + ")" : kernel_tensor(*a)) + ", false);");
    }
}

// After the call: the history of the results, and the results the formulas use.
std::string set_history(const AutogradOp& g) {
  const auto& rets = g.op->e->schema.returns;
  std::vector<std::string> history, saved;
  if (g.ret_tuple) {
    for (size_t i = 0; i < rets.size(); ++i)
      if (g.out_diff[i])
        history.push_back("set_history(std::get<" + std::to_string(i) + ">(result), grad_fn, " + std::to_string(i) +
                          ");");
  } else if (g.ret_list) {
    history = {
        "grad_fn->num_outputs_ = static_cast<uint32_t>(result.size());",
        "for (size_t i_ = 0; i_ < result.size(); ++i_) set_history(result[i_], grad_fn, static_cast<uint32_t>(i_));"};
  } else {
    history.push_back((g.is_mutable ? "rebase_history(" : "set_history(") + g.target + ", grad_fn);");
  }
  if (g.ids.count("result")) saved.push_back("grad_fn->result_ = SavedVariable(" + g.target + ", true);");
  if (g.ret_tuple)
    for (size_t i = 0; i < rets.size(); ++i)
      if (g.ids.count(g.ret_names[i]))
        saved.push_back("grad_fn->" + g.ret_names[i] + "_ = SavedVariable(std::get<" + std::to_string(i) +
                        ">(result), true);");
  return fill("autograd_set_history.cpp.in",
              {{"set_history", history},
               {"record_node_created", g.ret_list ? "if (!result.empty()) record_node_created(*grad_fn, result[0]);"
                                                  : "record_node_created(*grad_fn, " + g.target + ");"},
               {"save_results", saved}});
}

// The Autograd kernel of an operator with tensor inputs.
std::string gen_wrapper(const AutogradOp& g) {
  const Op& op = *g.op;
  const std::vector<std::string> none;
  TemplateEnv env = op_env(op);
  std::string collect = g.list_in ? fill("autograd_collect_list_inputs.cpp.in", {{"list", g.list_in->name}}) : "";
  for (auto* a : g.targs)
    if (is_optional_tensor_arg(*a))
      collect += "const Tensor " + kernel_tensor(*a) + " = " + a->name + " ? *" + a->name + " : Tensor();";
  env["collect_inputs"] = collect;
  env["inputs"] = g.inputs;
  // out= overloads refuse autograd as PyTorch's do (any input or the out tensor may trigger it).
  env["report_out_requires_grad"] =
      g.has_out && !g.d ? "if (record) report_out_requires_grad(\"" + op.e->schema.name + "\");" : "";
  env["is_mutable"] = g.is_mutable ? "true" : "false";
  env["recorded_node"] = g.differentiable ? g.d->node : (g.d ? "" : "?");
  env["report_not_differentiable"] =
      !g.d && !g.has_out ? "if (record) report_not_differentiable(\"" + op.qualified + "\");" : "";
  env["make_node"] = env["save_inputs"] = env["set_history"] = "";
  if (g.differentiable) {
    // An optional tensor no formula differentiates (nll_loss's weight) must not require grad.
    std::vector<std::string> checks, save_arguments, save_tensors;
    for (const auto& a : op.e->schema.arguments)
      if (is_optional_tensor_arg(a) && std::find(g.targs.begin(), g.targs.end(), &a) == g.targs.end())
        checks.push_back("check_no_requires_grad(" + a.name + ", \"" + a.name + "\", \"" + op.e->schema.name + "\");");
    node_inputs(g, save_arguments, save_tensors);
    env["make_node"] =
        fill("autograd_make_node.cpp.in", {{"check_no_requires_grad", checks},
                                           {"node_class", g.cls},
                                           {"check_inplace", g.is_mutable ? "check_inplace(" + g.target + ");" : ""},
                                           {"inputs", g.inputs},
                                           {"save_arguments", save_arguments}});
    env["save_inputs"] = fill("autograd_save_inputs.cpp.in", {{"save_tensors", save_tensors}});
    env["set_history"] = set_history(g);
  }
  const bool returns = op.ret != "void";
  env["declare_result"] = returns ? op.ret + " result;" : "";
  env["assign_result"] = returns ? "result = " : "";
  env["return_result"] = returns ? "return result;" : "";
  return fill("autograd_wrapper.cpp.in", env);
}

}  // namespace

std::string gen_autograd(const std::vector<Op>& ops, const std::map<std::string, Derivative>& derivs) {
  IndexedText definitions, registrations;
  for (const auto& op : ops) {
    const Argument* list_in = nullptr;
    for (const auto& a : op.e->schema.arguments)
      if (is_tensor_list_arg(a)) list_in = &a;
    if (is_composite_implicit(op)) continue;
    if (tensor_args(op).empty() && !list_in) {
      // No tensor input (a factory): PyTorch's VariableType kernel still runs, and only
      // redispatches below the Autograd keys.
      const int first = definitions.next_line();
      definitions.append(fill("autograd_factory.cpp.in", op_env(op)));
      definitions.definition(op.id + "_Autograd", first);
    } else {
      auto it = derivs.find(op.e->schema.full_name());
      const AutogradOp g = analyze(op, it == derivs.end() ? nullptr : &it->second, list_in);
      if (g.differentiable) {
        const int node_first = definitions.next_line();
        definitions.append(gen_node(g));
        definitions.definition(g.cls, node_first);
      }
      const int first = definitions.next_line();
      definitions.append(gen_wrapper(g));
      definitions.definition(op.id + "_Autograd", first);
    }
    emit_kernel_registration(registrations, op, "Autograd", "&" + op.id + "_Autograd", "VariableType::" + op.id,
                             op.id + "_Autograd", {});
  }
  return fill_file("RegisterAutograd.cpp.in", {}, {{"definitions", &definitions}, {"registrations", &registrations}});
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
        for (const std::string& in : formula_inputs(key)) {
          bool is_input = false;
          for (const auto& a : op->e->schema.arguments)
            is_input =
                is_input || ((is_tensor_arg(a) || is_optional_tensor_arg(a) || is_tensor_list_arg(a)) && a.name == in);
          if (!is_input) throw std::runtime_error(where() + "'" + in + "' is not a tensor input of " + name);
        }
        d.formulas.emplace_back(key, kv.second.as<std::string>());
      }
    }
    if (!d.nondifferentiable && d.node.empty()) throw std::runtime_error(where() + name + " needs a 'node' name");
    out[name] = d;
  }
  return out;
}

}  // namespace ipt::codegen
