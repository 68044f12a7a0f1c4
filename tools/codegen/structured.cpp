#include "tools/codegen/structured.h"

#include <map>
#include <stdexcept>

#include "tools/codegen/cpp_types.h"
#include "tools/codegen/sim_fallback.h"

namespace ipt::codegen {

namespace {

using schema::Argument;

[[noreturn]] void fail(const Op& op, const std::string& what) {
  throw std::runtime_error("line " + std::to_string(op.e->line) + ": " + op.qualified + ": " + what);
}

std::vector<const Argument*> inputs_of(const Op& out_op) {
  std::vector<const Argument*> v;
  for (const auto& a : out_op.e->schema.arguments)
    if (!a.is_out) v.push_back(&a);
  return v;
}
const Argument& out_arg(const Op& out_op) {
  for (const auto& a : out_op.e->schema.arguments)
    if (a.is_out) return a;
  fail(out_op, "a structured operator needs an out= argument");
}

std::string join_params(const std::vector<const Argument*>& args) {
  std::string s;
  for (const auto* a : args) s += (s.empty() ? "" : ", ") + cpp_arg_type(*a) + " " + a->name;
  return s;
}
std::string join_names(const std::vector<const Argument*>& args) {
  std::string s;
  for (const auto* a : args) s += (s.empty() ? "" : ", ") + a->name;
  return s;
}
std::string tensor_inputs(const std::vector<const Argument*>& args) {
  std::string s;
  for (const auto* a : args)
    if (is_tensor_arg(*a)) s += (s.empty() ? "&" : ", &") + a->name;
  return "{" + s + "}";
}

std::string meta_name(const Op& out_op) { return "meta_" + out_op.e->schema.name; }

// The arguments of a delegate must be the out= operator's inputs, in order, by name and type.
void check_delegate_args(const Op& d, const Op& out_op) {
  auto in = inputs_of(out_op);
  const auto& args = d.e->schema.arguments;
  bool ok = args.size() == in.size();
  for (size_t i = 0; ok && i < args.size(); ++i) ok = args[i].name == in[i]->name && args[i].type == in[i]->type;
  if (!ok) fail(d, "its arguments must be those of " + out_op.qualified + " without the out= argument");
}

}  // namespace

bool is_structured_member(const Op& op) { return op.e->structured || op.e->structured_delegate.has_value(); }

std::vector<StructuredGroup> structured_groups(const std::vector<Op>& ops) {
  std::map<std::string, size_t> index;  // "add.out" -> position in groups
  std::vector<StructuredGroup> groups;
  for (const auto& op : ops) {
    if (!op.e->structured) continue;
    int outs = 0;
    for (const auto& a : op.e->schema.arguments) outs += a.is_out;
    if (outs != 1 || op.e->schema.returns.size() != 1 || op.ret != "Tensor")
      fail(op, "a structured operator has exactly one out= argument and returns it");
    for (const auto& [key, kernel] : op.e->dispatch)
      if (key != "CPU" && key != "CUDA")
        fail(op, "a structured operator names its impls under CPU and CUDA only (its " + key +
                     " kernel is generated), not under " + key);
    index[op.e->schema.full_name()] = groups.size();
    groups.push_back({&op, {}});
  }
  for (const auto& op : ops) {
    if (!op.e->structured_delegate) continue;
    if (op.e->structured) fail(op, "an operator is either structured or a structured_delegate, not both");
    auto it = index.find(*op.e->structured_delegate);
    if (it == index.end())
      fail(op, "structured_delegate '" + *op.e->structured_delegate + "' is not a structured operator of this file");
    for (const auto& [key, kernel] : op.e->dispatch)
      if (key == "CPU" || key == "CUDA" || key == "Meta")
        fail(op, "a structured_delegate gets its " + key + " kernel from " + *op.e->structured_delegate +
                     "; remove its dispatch entry");
    StructuredGroup& g = groups[it->second];
    check_delegate_args(op, *g.out);
    const auto& args = op.e->schema.arguments;
    const bool inplace = op.e->schema.is_inplace();
    if (inplace && !(args[0].alias && args[0].alias->is_write))
      fail(op, "an in-place delegate writes its first argument, Tensor(a!) self");
    if (!inplace && op.e->schema.is_mutable()) fail(op, "a functional delegate writes none of its arguments");
    g.delegates.push_back(&op);
  }
  return groups;
}

void emit_structured_registrations(IndexedText& o, const std::vector<StructuredGroup>& groups, const std::string& key) {
  for (const auto& g : groups) {
    const Op& out_op = *g.out;
    std::string impl, fallback;
    if (key != "Meta") {
      auto it = out_op.e->dispatch.find(key);
      if (it == out_op.e->dispatch.end()) {
        // no impl for this backend: on the simulated GPU, the CPU impl launched on the device
        // (Note [The CPU kernel on the simulated GPU])
        auto cpu = out_op.e->dispatch.find("CPU");
        if (key != "CUDA" || cpu == out_op.e->dispatch.end()) continue;
        fallback = sim_fallback_structured_impl(out_op, cpu->second);
      } else {
        impl = it->second;
      }
    }
    const auto in = inputs_of(out_op);
    const std::string meta_call = "native::" + meta_name(out_op) + "(" + join_names(in) + ")";
    auto impl_call = [&](const std::string& out) {
      if (!fallback.empty())
        return out == out_arg(out_op).name
                   ? fallback
                   : "{ const Tensor& " + out_arg(out_op).name + " = " + out + "; " + fallback + "} ";
      return impl.empty() ? std::string() : "native::" + impl + "(" + join_names(in) + ", " + out + "); ";
    };
    static const CodeTemplate kernel(
        "+[](DispatchKeySet, ${params}) -> Tensor { const StructuredMeta m_ = ${meta_call}; ${body}}",
        "structured_kernel");
    auto emit = [&](const Op& op, const std::string& body, const std::string& name) {
      const std::string fn =
          kernel.substitute({{"params", params(op, false)}, {"meta_call", meta_call}, {"body", body}});
      std::vector<std::string> calls = {meta_name(out_op)};
      if (!impl.empty()) calls.push_back(impl);
      emit_kernel_registration(o, op, key, fn, name, "", calls);
    };
    const std::string out_name = out_arg(out_op).name;
    const std::string kernel_name = !fallback.empty() ? meta_name(out_op) + " + sim_fallback::cpu_kernel"
                                    : impl.empty()    ? meta_name(out_op)
                                                      : meta_name(out_op) + " + " + impl;
    emit(out_op,
         "structured_prepare_out(" + out_name + ", m_, " + tensor_inputs(in) + "); " + impl_call(out_name) + "return " +
             out_name + "; ",
         kernel_name);
    for (const Op* d : g.delegates) {
      if (d->e->schema.is_inplace()) {
        const std::string self = d->e->schema.arguments[0].name;
        emit(*d,
             "structured_check_inplace(" + self + ", m_, " + tensor_inputs(in) + "); " + impl_call(self) + "return " +
                 self + "; ",
             kernel_name);
      } else {
        emit(*d,
             "Tensor " + out_name + " = structured_result(m_); " + impl_call(out_name) + "return " + out_name + "; ",
             kernel_name);
      }
    }
  }
}

std::string structured_declarations(const std::vector<StructuredGroup>& groups) {
  static const CodeTemplate impl_declaration("void ${impl}(${params}, const Tensor& ${out});", "impl_declaration");
  if (groups.empty()) return "";
  std::vector<std::string> declarations;
  for (const auto& g : groups) {
    const std::string in = join_params(inputs_of(*g.out));
    std::vector<std::string> impls;
    for (const auto& [key, impl] : g.out->e->dispatch)
      impls.push_back(impl_declaration.substitute({{"impl", impl}, {"params", in}, {"out", out_arg(*g.out).name}}));
    declarations.push_back(
        fill("structured_declaration.h.in",
             {{"schema", g.out->e->schema.str()}, {"meta", meta_name(*g.out)}, {"params", in}, {"impls", impls}}));
  }
  return fill("structured_declarations.h.in", {{"groups", declarations}});
}

}  // namespace ipt::codegen
