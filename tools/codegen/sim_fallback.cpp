#include "tools/codegen/sim_fallback.h"

#include <set>

#include "tools/codegen/cpp_types.h"
#include "tools/codegen/structured.h"

namespace ipt::codegen {

namespace {

bool returns_tensors_only(const Op& op) {
  if (op.ret == "void" || op.ret == "Tensor" || op.ret == "std::vector<Tensor>") return true;
  for (const auto& r : op.e->schema.returns)
    if (r.type.kind != schema::Type::Kind::Base || r.type.name != "Tensor") return false;
  return true;
}

// The names and written flags of `args`, as the runtime template's std::array arguments.
std::string describe(const std::vector<const schema::Argument*>& args, std::string& names, std::string& written) {
  for (const auto* a : args) {
    names += (names.empty() ? "\"" : ", \"") + a->name + "\"";
    written += std::string(written.empty() ? "" : ", ") + (a->alias && a->alias->is_write ? "true" : "false");
  }
  return std::to_string(args.size());
}

// "normal_kernel_cuda" for normal_: the operator's name without the in-place underscore.
std::string kernel_name(const Op& op) {
  std::string n = op.e->schema.name;
  if (n.size() > 1 && n.back() == '_') n.pop_back();
  return n + "_kernel_cuda";
}

}  // namespace

bool wants_sim_fallback(const Op& op) {
  const auto& d = op.e->dispatch;
  if (!d.count("CPU") || d.count("CUDA")) return false;
  for (const char* k :
       {"CompositeImplicitAutograd", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"})
    if (d.count(k)) return false;
  const auto& r = op.e->schema.returns;
  const bool view = r.size() == 1 && r[0].alias && !r[0].alias->is_write && !op.e->schema.is_mutable();
  bool tensors = false, device = false;
  for (const auto& a : op.e->schema.arguments) {
    tensors = tensors || is_tensor_arg(a) || is_optional_tensor_arg(a) || is_tensor_list_arg(a);
    device = device || a.name == "device";
  }
  // A factory (no tensor to take the device from, or a device argument) needs a kernel of its own,
  // and so does resize_ (it changes the tensor, not only its bytes).
  return !view && tensors && !device && returns_tensors_only(op) && op.e->schema.name != "resize_";
}

// Operators whose results' shapes depend on their inputs' values: their Meta kernels refuse (as
// 2.15's do), so the simulated GPU runs them synchronously.
bool data_dependent(const Op& op) {
  static const std::set<std::string> names = {"nonzero",
                                              "masked_select",
                                              "_unique",
                                              "_unique2",
                                              "unique_dim",
                                              "unique_consecutive",
                                              "unique_dim_consecutive",
                                              "repeat_interleave"};
  return names.count(op.e->schema.name) > 0;
}

std::string sim_fallback_body(const Op& op) {
  static const CodeTemplate launch(
      "return native::sim_fallback::launch_cpu_kernel<${ret}>(\"${kernel}\", std::array<const char*, ${n}>{${names}}, "
      "std::array<bool, ${n}>{${written}}, "
      "[](const auto&... a) -> ${ret} { return ops::redispatch::${id}(DispatchKeySet(keys::Meta), a...); }, "
      "[](const auto&... a) -> ${ret} { return ops::redispatch::${id}(DispatchKeySet(keys::CPU), a...); }, ${args});",
      "sim_fallback_launch");
  static const CodeTemplate synchronized(
      "return native::sim_fallback::run_cpu_kernel_synchronized<${ret}>("
      "[](const auto&... a) -> ${ret} { return ops::redispatch::${id}(DispatchKeySet(keys::CPU), a...); }, ${args});",
      "sim_fallback_synchronized");
  std::vector<const schema::Argument*> args;
  for (const auto& a : op.e->schema.arguments) args.push_back(&a);
  std::string names, written;
  TemplateEnv env = op_env(op);
  env["n"] = describe(args, names, written);
  env["names"] = names;
  env["written"] = written;
  env["kernel"] = kernel_name(op);
  return (op.e->dispatch.count("Meta") && !data_dependent(op) ? launch : synchronized).substitute(env);
}

std::string sim_fallback_structured_impl(const Op& out_op, const std::string& cpu_impl) {
  static const CodeTemplate impl(
      "native::sim_fallback::launch_cpu_kernel<void>(\"${kernel}\", std::array<const char*, ${n}>{${names}}, "
      "std::array<bool, ${n}>{${written}}, [](const auto&...) {}, "
      "[](const auto&... a) { native::${impl}(a...); }, ${args}); ",
      "sim_fallback_structured_impl");
  std::vector<const schema::Argument*> args;
  std::string arg_list;
  for (const auto& a : out_op.e->schema.arguments)
    if (!a.is_out) {
      args.push_back(&a);
      arg_list += (arg_list.empty() ? "" : ", ") + a.name;
    }
  for (const auto& a : out_op.e->schema.arguments)
    if (a.is_out) {
      args.push_back(&a);
      arg_list += (arg_list.empty() ? "" : ", ") + a.name;
    }
  std::string names, written;
  TemplateEnv env;
  env["n"] = describe(args, names, written);
  env["names"] = names;
  env["written"] = written;
  env["kernel"] = kernel_name(out_op);
  env["impl"] = cpu_impl;
  env["args"] = arg_list;
  return impl.substitute(env);
}

}  // namespace ipt::codegen
