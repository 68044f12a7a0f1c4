#include "core/views/schema_model.h"

#include <algorithm>
#include <sstream>

#include "core/schema/schema_parser.h"

namespace ipt::views {

using schema::AliasInfo;
using schema::FunctionSchema;

const char* kind_reason_text(KindReason r) {
  switch (r) {
    case KindReason::InplaceName: return "Its name ends in '_': an in-place operator writes self and returns it.";
    case KindReason::InplaceDunder: return "An augmented assignment (__iadd__, __iand__, ...): in place on self.";
    case KindReason::OutArguments:
      return "It has out= arguments (keyword-only and written): the result goes into a tensor the caller passes, which is returned.";
    case KindReason::WrittenArguments:
      return "It writes arguments other than self without being in-place or out= (running statistics, helpers).";
    case KindReason::FunctionalView: return "Nothing is written, but a result may alias an input: a view of it.";
    case KindReason::Functional: return "Nothing is written and no result aliases an input: it returns new tensors.";
  }
  return "";
}

std::string qualified_name(const FunctionSchema& s) {
  const std::string full = s.full_name();
  return full.find("::") == std::string::npos ? "aten::" + full : full;
}

namespace {

SchemaRow row_of(const std::string& name, const schema::Type& type, const std::optional<AliasInfo>& alias) {
  SchemaRow r;
  r.name = name;
  r.type = schema::type_str(type, alias);
  if (alias) {
    r.write = alias->is_write;
    r.sets = alias->before_set;
    r.after = alias->after_set;
  }
  return r;
}

bool shares(const SchemaRow& a, const SchemaRow& r, std::string& set) {
  for (const auto& s : a.sets)
    for (const auto& t : r.sets)
      if (s == t || s == "*" || t == "*") {
        set = s == "*" ? t : s;
        return true;
      }
  // `Tensor(a -> *)`: after the call the argument may alias anything a result holds.
  if (!r.sets.empty() && std::find(a.after.begin(), a.after.end(), "*") != a.after.end()) {
    set = a.sets.empty() ? "*" : a.sets.front();
    return true;
  }
  return false;
}

bool is_dunder(std::string_view n) {
  const size_t c = n.rfind("::");
  if (c != std::string_view::npos) n.remove_prefix(c + 2);
  return n.size() > 4 && n.starts_with("__") && n.ends_with("__");
}

}  // namespace

SchemaModel schema_model(std::string_view text) {
  SchemaModel m;
  try {
    m.schema = schema::parse_schema(text);
  } catch (const schema::SchemaParseError& e) {
    m.error = e.what();
    m.error_column = e.column();
    m.error_detail = e.detail();
    return m;
  }
  m.ok = true;
  const FunctionSchema& s = m.schema;
  m.canonical = s.str();
  for (const auto& a : s.arguments) {
    SchemaRow r = row_of(a.name, a.type, a.alias);
    r.default_value = a.default_value.value_or("");
    r.kwarg_only = a.kwarg_only;
    r.is_out = a.is_out;
    m.args.push_back(std::move(r));
  }
  for (const auto& ret : s.returns) m.returns.push_back(row_of(ret.name, ret.type, ret.alias));
  for (size_t i = 0; i < m.args.size(); ++i)
    for (size_t j = 0; j < m.returns.size(); ++j) {
      std::string set;
      if (shares(m.args[i], m.returns[j], set)) m.links.push_back({i, j, set, m.args[i].write});
    }

  m.kind = s.kind();
  switch (m.kind) {
    case FunctionSchema::Kind::Inplace:
      m.reason = is_dunder(s.name) ? KindReason::InplaceDunder : KindReason::InplaceName;
      for (const auto& a : m.args)
        if (a.write) m.because.push_back(a.name);
      break;
    case FunctionSchema::Kind::Out:
      m.reason = KindReason::OutArguments;
      for (const auto& a : m.args)
        if (a.is_out) m.because.push_back(a.name);
      break;
    case FunctionSchema::Kind::Mutable:
      m.reason = KindReason::WrittenArguments;
      for (const auto& a : m.args)
        if (a.write) m.because.push_back(a.name);
      break;
    case FunctionSchema::Kind::Functional:
      m.reason = m.links.empty() ? KindReason::Functional : KindReason::FunctionalView;
      for (const auto& l : m.links)
        if (std::find(m.because.begin(), m.because.end(), m.args[l.arg].name) == m.because.end())
          m.because.push_back(m.args[l.arg].name);
      break;
  }
  return m;
}

std::string render_schema_text(const SchemaModel& m) {
  std::ostringstream o;
  if (!m.ok) {
    o << "error at column " << m.error_column << ": " << m.error_detail << "\n";
    return o.str();
  }
  o << m.canonical << "\n";
  auto line = [&](const char* what, size_t i, const SchemaRow& r) {
    o << "  " << what << " " << i << "  " << (r.name.empty() ? "-" : r.name) << "  " << r.type;
    if (!r.default_value.empty()) o << "  =" << r.default_value;
    if (r.is_out) o << "  out=";
    else if (r.kwarg_only) o << "  keyword-only";
    if (r.write) o << "  written";
    o << "\n";
  };
  for (size_t i = 0; i < m.args.size(); ++i) line("arg", i, m.args[i]);
  for (size_t i = 0; i < m.returns.size(); ++i) line("return", i, m.returns[i]);
  for (const auto& l : m.links)
    o << "  alias " << m.args[l.arg].name << " -> return " << l.ret << " (set " << l.set << (l.write ? ", written" : "")
      << ")\n";
  o << "  kind " << schema::kind_name(m.kind) << ": " << kind_reason_text(m.reason);
  if (!m.because.empty()) {
    o << " [";
    for (size_t i = 0; i < m.because.size(); ++i) o << (i ? ", " : "") << m.because[i];
    o << "]";
  }
  o << "\n";
  return o.str();
}

}  // namespace ipt::views
