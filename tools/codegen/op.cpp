#include "tools/codegen/op.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "tools/codegen/cpp_types.h"

namespace ipt::codegen {

Op make_op(const schema::NativeFunctionEntry& e) {
  return Op{&e, op_id(e.schema), "aten::" + e.schema.full_name(), cpp_return_type(e.schema)};
}

std::string op_id(const schema::FunctionSchema& s) {
  return s.overload_name.empty() ? s.name : s.name + "_" + s.overload_name;
}

std::string params(const Op& op, bool with_defaults) {
  const auto& args = op.e->schema.arguments;
  // Defaults only for a trailing run of arguments that all have a C++ spelling.
  size_t first_default = args.size();
  if (with_defaults)
    while (first_default > 0 && cpp_default(args[first_default - 1])) --first_default;
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) s += ", ";
    s += cpp_arg_type(args[i]) + " " + args[i].name;
    if (i >= first_default) s += " = " + *cpp_default(args[i]);
  }
  return s;
}

std::string arg_names(const Op& op) {
  std::string s;
  for (size_t i = 0; i < op.e->schema.arguments.size(); ++i) s += (i ? ", " : "") + op.e->schema.arguments[i].name;
  return s;
}

std::string fn_type(const Op& op) {
  std::string s = op.ret + " (*)(DispatchKeySet";
  for (const auto& a : op.e->schema.arguments) s += ", " + cpp_arg_type(a);
  return s + ")";
}

namespace {
std::string signature_type(const schema::Type& t) {
  if (t.is_optional()) return signature_type(t.element()) + "?";
  if (t.is_list()) return signature_type(t.element()) + "[]";
  return t.name;
}
}  // namespace

std::string kernel_signature(const schema::FunctionSchema& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.arguments.size(); ++i)
    out += (i ? ", " : "") + signature_type(s.arguments[i].type) + " _" + std::to_string(i);
  out += ") -> ";
  if (s.returns.size() == 1) return out + signature_type(s.returns[0].type) + " _0";
  out += "(";
  for (size_t i = 0; i < s.returns.size(); ++i)
    out += (i ? ", " : "") + signature_type(s.returns[i].type) + " _" + std::to_string(i);
  return out + ")";
}

std::vector<const schema::Argument*> tensor_args(const Op& op) {
  std::vector<const schema::Argument*> v;
  for (const auto& a : op.e->schema.arguments)
    if (is_tensor_arg(a)) v.push_back(&a);
  return v;
}

std::vector<const schema::Argument*> written_args(const Op& op) {
  std::vector<const schema::Argument*> v;
  for (const auto& a : op.e->schema.arguments)
    if (a.alias && a.alias->is_write) v.push_back(&a);
  return v;
}

// Only a CompositeImplicitAutograd kernel: an operator that also has a backend kernel (its own or
// its structured delegate's: silu_backward, mish_backward) is a backend operator to autograd and
// ADInplaceOrView, as torchgen treats it; its composite serves the keys without a kernel.
bool is_composite_implicit(const Op& op) {
  const auto& d = op.e->dispatch;
  if (!d.count("CompositeImplicitAutograd")) return false;
  if (op.e->structured_delegate) return false;
  for (const char* backend : {"CPU", "CUDA", "Meta"})
    if (d.count(backend)) return false;
  return true;
}

TemplateEnv op_env(const Op& op) {
  return {{"ret", op.ret},
          {"id", op.id},
          {"qualified", op.qualified},
          {"params", params(op, false)},
          {"args", arg_names(op)}};
}

std::string fill(const std::string& file, const TemplateEnv& env) { return templates(file).substitute(env); }

OperatorIndex& operator_index() {
  static OperatorIndex index;
  return index;
}

void operator_index_file(const std::string& generated_name) { operator_index().file = generated_name; }

void IndexedText::append(const std::string& s) {
  text_ += s;
  lines_ += static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

void IndexedText::definition(const std::string& name, int first) {
  rows_.push_back({"definition", name, "", first, next_line() - 2, {}});
}

std::string fill_file(const std::string& file, TemplateEnv env,
                      const std::vector<std::pair<std::string, const IndexedText*>>& texts) {
  for (const auto& [name, text] : texts) env[name] = text->text();
  std::map<std::string, int> block_lines;
  std::string out = templates(file).substitute(env, &block_lines);
  for (const auto& [name, text] : texts) {
    auto it = block_lines.find(name);
    if (it == block_lines.end())
      throw std::runtime_error("templates/" + file + ": ${" + name + "} must be alone on its line");
    for (IndexRow row : text->rows()) {  // lines of the text -> lines of the file
      row.file = operator_index().file;
      row.first += it->second - 1;
      if (row.kind == "kernel" || row.kind == "definition") row.second += it->second - 1;
      operator_index().rows.push_back(std::move(row));
    }
  }
  return out;
}

namespace {
// A field of the TSV: no tab or newline can be in one (names and C++ identifiers).
std::string field(const std::string& s) {
  if (s.find_first_of("\t\n") != std::string::npos)
    throw std::runtime_error("operator index: a field holds a tab: " + s);
  return s;
}
}  // namespace

// Data, not C++: the rows are tab-joined fields, with no template.
std::string operator_index_tsv() {
  std::string out =
      "# Generated by tools/codegen: what it wrote where (Note [The operator index] in tools/codegen/op.h).\n";
  for (const IndexRow& r : operator_index().rows) {
    out += field(r.kind) + '\t' + field(r.name) + '\t' + field(r.file) + '\t' + std::to_string(r.first) + '\t' +
           std::to_string(r.second);
    for (const std::string& x : r.extra) out += '\t' + field(x);
    out += '\n';
  }
  return out;
}

void emit_kernel_registration(IndexedText& o, const Op& op, const std::string& key, const std::string& fn_expr,
                              const std::string& name, const std::string& wrapper,
                              const std::vector<std::string>& hand_written) {
  const int first = o.next_line();
  o.append(templates("kernel_registration.cpp.in")
               .substitute({{"fn", fn_expr}, {"name", name}, {"op", op.qualified}, {"key", key}}));
  std::string calls;
  for (const std::string& h : hand_written) calls += (calls.empty() ? "" : ",") + h;
  // The block's lines: {, KernelFunction k;, k.fn, k.name, k.registered_at (first + 4), register_kernel, }.
  o.add_row({"kernel", op.qualified, "", first, first + 4, {key, name, wrapper, calls}});
}

}  // namespace ipt::codegen
