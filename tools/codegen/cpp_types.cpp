#include "tools/codegen/cpp_types.h"

#include <stdexcept>

namespace ipt::codegen {

using schema::Type;

static std::string base_cpp(const std::string& n) {
  if (n == "Tensor") return "Tensor";
  if (n == "int" || n == "SymInt") return "int64_t";
  if (n == "float") return "double";
  if (n == "bool" || n == "SymBool") return "bool";
  if (n == "Scalar") return "Scalar";
  if (n == "ScalarType") return "ScalarType";
  if (n == "Layout") return "Layout";
  if (n == "Device") return "Device";
  if (n == "MemoryFormat") return "MemoryFormat";
  if (n == "str") return "std::string_view";
  if (n == "Generator") return "Generator";
  throw std::runtime_error("type '" + n + "' is not supported by the generator");
}

bool is_tensor_arg(const schema::Argument& a) { return a.type.kind == Type::Kind::Base && a.type.name == "Tensor"; }
bool is_optional_tensor_arg(const schema::Argument& a) {
  return a.type.is_optional() && a.type.element().kind == Type::Kind::Base && a.type.element().name == "Tensor";
}
bool is_tensor_list_arg(const schema::Argument& a) {
  return a.type.is_list() && a.type.element().kind == Type::Kind::Base && a.type.element().name == "Tensor";
}
bool is_optional_tensor_list_arg(const schema::Argument& a) {
  return a.type.is_list() && a.type.element().is_optional() && a.type.element().element().kind == Type::Kind::Base &&
         a.type.element().element().name == "Tensor";
}

static std::string value_type(const Type& t) {
  switch (t.kind) {
    case Type::Kind::Base: return base_cpp(t.name);
    case Type::Kind::Optional: return "std::optional<" + value_type(t.element()) + ">";
    case Type::Kind::List:
      if (t.element().kind == Type::Kind::Base && (t.element().name == "int" || t.element().name == "SymInt"))
        return "IntArrayRef";
      if (t.element().kind == Type::Kind::Base && t.element().name == "Tensor") return "std::span<const Tensor>";
      if (t.element().kind == Type::Kind::Base && t.element().name == "float") return "std::span<const double>";
      if (t.element().kind == Type::Kind::Base && t.element().name == "bool" && t.size)
        return "std::array<bool, " + std::to_string(*t.size) + ">";
      // Tensor?[] (index, index_put_): undefined entries are the `:` / `...` of an indexing expression.
      if (t.element().is_optional() && t.element().element().kind == Type::Kind::Base &&
          t.element().element().name == "Tensor")
        return "std::span<const std::optional<Tensor>>";
      throw std::runtime_error("list type '" + t.str() + "' is not supported by the generator");
  }
  return "";
}

std::string cpp_arg_type(const schema::Argument& a) {
  std::string v = value_type(a.type);
  if (v == "Tensor" || v == "Scalar" || v == "std::optional<Tensor>" || v == "std::optional<Scalar>")
    return "const " + v + "&";
  return v;
}

std::string cpp_return_type(const schema::FunctionSchema& s) {
  if (s.returns.empty()) return "void";
  auto one = [](const schema::Return& r) {
    if (r.type.is_list() && r.type.element().name == "Tensor") return std::string("std::vector<Tensor>");
    return value_type(r.type);
  };
  if (s.returns.size() == 1) return one(s.returns[0]);
  std::string t = "std::tuple<";
  for (size_t i = 0; i < s.returns.size(); ++i) t += (i ? ", " : "") + one(s.returns[i]);
  return t + ">";
}

std::optional<std::string> cpp_default(const schema::Argument& a) {
  if (!a.default_value) return std::nullopt;
  const std::string& d = *a.default_value;
  if (d == "None") return std::string("std::nullopt");
  if (d == "True") return std::string("true");
  if (d == "False") return std::string("false");
  if (d == "[]") return std::string("{}");
  if (d == "contiguous_format") return std::string("MemoryFormat::Contiguous");
  // at::Reduction (reduction=Mean in the loss functions) and dtype=long (randint).
  if (d == "Mean") return std::string("1");
  if (d == "Sum") return std::string("2");
  if (d == "long") return std::string("ScalarType::Long");
  // int[2] stride=1: no C++ default (a span cannot hold the repeated value); callers pass it.
  if (a.type.is_list()) return std::nullopt;
  bool numeric = !d.empty();
  for (char c : d)
    if (!(isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == 'e')) numeric = false;
  if (numeric) {
    if (a.type.kind == Type::Kind::Base && a.type.name == "Scalar") return "Scalar(" + d + ")";
    if (a.type.kind == Type::Kind::Base && a.type.name == "float" && d.find_first_of(".e") == std::string::npos)
      return d + ".0";
    return d;
  }
  return std::nullopt;
}

}  // namespace ipt::codegen
