// Printing and small queries for the schema structs (see function_schema.h).

#include "core/schema/function_schema.h"

#include <utility>

namespace ipt::schema {

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

// The operator name without a "ns::" prefix: "aten::add_" -> "add_".
std::string_view unqualified(const std::string& name) {
  auto pos = name.rfind("::");
  return pos == std::string::npos ? std::string_view(name) : std::string_view(name).substr(pos + 2);
}

}  // namespace

Type Type::base(std::string name) {
  Type t;
  t.kind = Kind::Base;
  t.name = std::move(name);
  return t;
}

Type Type::optional(Type inner) {
  Type t;
  t.kind = Kind::Optional;
  t.elem = std::make_shared<const Type>(std::move(inner));
  return t;
}

Type Type::list(Type inner, std::optional<int64_t> size) {
  Type t;
  t.kind = Kind::List;
  t.size = size;
  t.elem = std::make_shared<const Type>(std::move(inner));
  return t;
}

const std::string& Type::base_name() const { return kind == Kind::Base ? name : elem->base_name(); }

std::string Type::str() const { return type_str(*this, std::nullopt); }

bool operator==(const Type& a, const Type& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Type::Kind::Base: return a.name == b.name;
    case Type::Kind::Optional: return *a.elem == *b.elem;
    case Type::Kind::List: return a.size == b.size && *a.elem == *b.elem;
  }
  return false;
}

std::string type_str(const Type& type, const std::optional<AliasInfo>& alias) {
  switch (type.kind) {
    case Type::Kind::Base: return alias ? type.name + alias->str() : type.name;
    case Type::Kind::Optional: return type_str(*type.elem, alias) + "?";
    case Type::Kind::List:
      return type_str(*type.elem, alias) + "[" + (type.size ? std::to_string(*type.size) : "") + "]";
  }
  return "";
}

std::string AliasInfo::str() const {
  std::string out = "(" + join(before_set, "|");
  if (is_write) out += "!";
  if (!after_set.empty()) out += " -> " + join(after_set, "|");
  return out + ")";
}

std::string Argument::str() const {
  std::string out = type_str(type, alias) + " " + name;
  if (default_value) out += "=" + *default_value;
  return out;
}

std::string Return::str() const {
  std::string out = type_str(type, alias);
  if (!name.empty()) out += " " + name;
  return out;
}

std::string FunctionSchema::full_name() const { return overload_name.empty() ? name : name + "." + overload_name; }

// torchgen's rule: a name ending in '_' is in-place; a dunder method (`__name__`, no '_'
// inside) is in-place when it is an augmented assignment (__iadd__, __iand__, __ilshift__ ...).
bool FunctionSchema::is_inplace() const {
  std::string_view n = unqualified(name);
  if (n.size() > 4 && n.starts_with("__") && n.ends_with("__")) {
    const std::string_view base = n.substr(2, n.size() - 4);
    if (base.find('_') == std::string_view::npos) {
      static constexpr std::string_view kAugmented[] = {"add",    "sub",    "mul", "div", "mod", "pow",
                                                        "lshift", "rshift", "and", "xor", "or"};
      for (std::string_view a : kAugmented)
        if (base.size() == a.size() + 1 && base[0] == 'i' && base.substr(1) == a) return true;
      return false;
    }
  }
  return !n.empty() && n.back() == '_';
}

bool FunctionSchema::is_out() const {
  for (const auto& a : arguments)
    if (a.is_out) return true;
  return false;
}

FunctionSchema::Kind FunctionSchema::kind() const {
  if (is_inplace()) return Kind::Inplace;
  if (is_out()) return Kind::Out;
  // torchgen looks at the positional arguments after self (and the keyword-only ones that are
  // not out= buffers): a written self without an in-place name is an error there.
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Argument& a = arguments[i];
    if (a.alias && a.alias->is_write && !(i == 0 && a.name == "self")) return Kind::Mutable;
  }
  return Kind::Functional;
}

const char* kind_name(FunctionSchema::Kind k) {
  switch (k) {
    case FunctionSchema::Kind::Functional: return "functional";
    case FunctionSchema::Kind::Inplace: return "inplace";
    case FunctionSchema::Kind::Out: return "out";
    case FunctionSchema::Kind::Mutable: return "mutable";
  }
  return "functional";
}

bool FunctionSchema::is_mutable() const {
  for (const auto& a : arguments)
    if (a.alias && a.alias->is_write) return true;
  return false;
}

std::string FunctionSchema::str() const {
  std::vector<std::string> args;
  bool in_kwargs = false;
  for (const auto& a : arguments) {
    if (a.kwarg_only && !in_kwargs) {
      args.push_back("*");
      in_kwargs = true;
    }
    args.push_back(a.str());
  }
  if (is_vararg) args.push_back("...");

  std::vector<std::string> rets;
  for (const auto& r : returns) rets.push_back(r.str());
  if (is_varret) rets.push_back("...");

  std::string ret_text;
  if (returns.size() == 1 && !is_varret) ret_text = rets[0];  // a single return goes bare
  else if (returns.empty() && is_varret) ret_text = "...";
  else ret_text = "(" + join(rets, ", ") + ")";

  return full_name() + "(" + join(args, ", ") + ") -> " + ret_text;
}

}  // namespace ipt::schema
