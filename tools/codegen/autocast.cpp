#include "tools/codegen/autocast.h"

#include <map>
#include <set>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "tools/codegen/cpp_types.h"

namespace ipt::codegen {

namespace {

struct Rule {
  const Op* op;
  std::string key;     // AutocastCPU
  std::string policy;  // lower_precision_fp
};

[[noreturn]] void fail(const std::string& path, const YAML::Node& n, const std::string& msg) {
  throw std::runtime_error(path + ":" + std::to_string(n.Mark().line + 1) + ": " + msg);
}

const std::set<std::string> kPolicies = {"lower_precision_fp", "fp32",   "fp32_set_opt_dtype",
                                         "fp32_append_dtype",  "banned", "promote"};

std::vector<Rule> load_rules(const std::vector<Op>& ops, const std::string& path) {
  std::map<std::string, const Op*> by_name;  // "add.Tensor" -> op
  for (const auto& op : ops) by_name[op.qualified.substr(6)] = &op;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(path + ":" + std::to_string(e.mark.line + 1) + ": invalid YAML: " + e.msg);
  }
  if (!root.IsMap()) fail(path, root, "expected a map from Autocast key to policies");
  std::vector<Rule> rules;
  std::set<std::string> seen;
  for (const auto& k : root) {
    const std::string key = k.first.as<std::string>();
    if (key != "AutocastCPU" && key != "AutocastCUDA")
      fail(path, k.first, "unknown key '" + key + "' (expected AutocastCPU or AutocastCUDA)");
    if (!k.second.IsMap()) fail(path, k.second, "expected a map from policy to a list of operators");
    for (const auto& p : k.second) {
      const std::string policy = p.first.as<std::string>();
      if (!kPolicies.count(policy)) fail(path, p.first, "unknown cast policy '" + policy + "'");
      if (!p.second.IsSequence()) fail(path, p.second, "expected a list of operators");
      for (const auto& n : p.second) {
        const std::string name = n.as<std::string>();
        auto it = by_name.find(name);
        if (it == by_name.end()) fail(path, n, "no operator '" + name + "' in native_functions.yaml");
        if (!seen.insert(key + " " + name).second) fail(path, n, "'" + name + "' has two policies under " + key);
        const auto& args = it->second->e->schema.arguments;
        if (policy == "fp32_set_opt_dtype") {
          if (args.empty() || !is_tensor_arg(args[0]))
            fail(path, n, "fp32_set_opt_dtype needs a tensor first, and '" + name + "' has none");
          bool has_dtype = false;
          for (const auto& a : args) has_dtype |= a.name == "dtype";
          if (!has_dtype) fail(path, n, "fp32_set_opt_dtype needs a dtype argument, and '" + name + "' has none");
        }
        rules.push_back({it->second, key, policy});
      }
    }
  }
  return rules;
}

// The arguments, each passed through autocast::cast(to, device, arg).
std::vector<std::string> cast_args(const Op& op, const std::string& dev) {
  std::vector<std::string> v;
  for (const auto& a : op.e->schema.arguments) v.push_back("autocast::cast(to, " + dev + ", " + a.name + ")");
  return v;
}

std::string kernel(const Rule& r) {
  const Op& op = *r.op;
  const std::string dev = r.key == "AutocastCPU" ? "DeviceType::CPU" : "DeviceType::CUDA";
  TemplateEnv env = op_env(op);
  env["policy"] = r.policy;
  env["key"] = r.key;
  env["device"] = dev;
  if (r.policy == "banned") return fill("Autocast_banned.cpp.in", env);
  if (r.policy == "fp32_set_opt_dtype") {
    std::vector<std::string> with_dtype;
    for (const auto& a : op.e->schema.arguments)
      with_dtype.push_back(a.name == "dtype" ? std::string("autocast::fp32_unless_given(dtype)") : a.name);
    env["first_arg"] = op.e->schema.arguments[0].name;
    env["args_with_dtype"] = with_dtype;
    return fill("Autocast_set_opt_dtype.cpp.in", env);
  }
  if (r.policy == "lower_precision_fp") {
    env["cast_type"] = "const ScalarType to = autocast::lower_precision_dtype(" + dev + ");";
  } else if (r.policy == "promote") {
    std::vector<std::string> see;
    for (const auto& a : op.e->schema.arguments) see.push_back("promote.see(" + a.name + ");");
    env["cast_type"] = fill("Autocast_promote.cpp.in", {{"device", dev}, {"see_args", see}});
  } else {
    env["cast_type"] = "const ScalarType to = ScalarType::Float;";
  }
  env["cast_args"] = cast_args(op, dev);
  return fill("Autocast_kernel.cpp.in", env);
}

}  // namespace

std::string gen_autocast(const std::vector<Op>& ops, const std::string& policy_yaml_path) {
  const auto rules = load_rules(ops, policy_yaml_path);
  IndexedText definitions, registrations;
  for (const auto& r : rules) {
    const int first = definitions.next_line();
    definitions.append(kernel(r));
    definitions.definition(r.op->id + "_" + r.key, first + 1);  // after its "// op: policy" line
    emit_kernel_registration(registrations, *r.op, r.key, "&" + r.op->id + "_" + r.key,
                             r.key + "::" + r.op->id + " [" + r.policy + "]", r.op->id + "_" + r.key, {});
  }
  return fill_file("RegisterAutocast.cpp.in", {}, {{"definitions", &definitions}, {"registrations", &registrations}});
}

}  // namespace ipt::codegen
