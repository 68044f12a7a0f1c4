// Operator schemas from Python, under PyTorch's names: torch._C.parse_schema, FunctionSchema,
// Argument, _AliasInfo and the TorchScript type of each argument (str(arg.type) is "number"
// for Scalar, "List[int]" for int[], "Optional[Tensor]" for Tensor?); and what torch.ops
// needs: the registered schema of an operator and the overloads of a name.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/dispatch/dispatcher.h"
#include "core/ops/generated_sources.h"
#include "core/ops/op_sources.h"
#include "core/util/error.h"
#include "core/ops/schema_check.h"
#include "core/python/bindings.h"
#include "core/schema/schema_parser.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

using schema::AliasInfo;
using schema::Argument;
using schema::FunctionSchema;
using schema::Type;

// A schema type as TorchScript spells it.
std::string script_type(const Type& t) {
  if (t.is_optional()) return "Optional[" + script_type(t.element()) + "]";
  if (t.is_list()) return "List[" + script_type(t.element()) + "]";
  const std::string& n = t.name;
  if (n == "SymInt") return "int";
  if (n == "Scalar") return "number";
  if (n == "ScalarType" || n == "Layout" || n == "MemoryFormat" || n == "QScheme") return "int";
  if (n == "Dimname") return "str";
  return n;
}

// An argument's alias annotation as PyTorch reports it: on a list (`Tensor(a!)[]`) the
// annotation belongs to the elements, so the list's own sets are empty and only is_write shows.
struct PyAlias {
  AliasInfo info;
  bool on_list_elements = false;
};

struct PyType {
  Type t;
  std::string str() const { return script_type(t); }
};

py::object literal_value(std::string_view text, const Type& leaf);

// One element of a list default, or a whole default, read as the type's Python value.
py::object scalar_literal(std::string_view s, const std::string& base) {
  if (s == "None") return py::none();
  if (s == "True") return py::bool_(true);
  if (s == "False") return py::bool_(false);
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"')) return py::str(std::string(s.substr(1, s.size() - 2)));
  if (s == "inf") return py::float_(INFINITY);
  if (s == "-inf") return py::float_(-INFINITY);
  if (s == "nan") return py::float_(NAN);
  // Enum spellings of the YAML, as the integers PyTorch's schemas hold.
  if (s == "contiguous_format") return py::int_(0);
  if (s == "preserve_format") return py::int_(1);
  if (s == "channels_last") return py::int_(2);
  if (s == "Mean") return py::int_(1);
  if (s == "Sum") return py::int_(2);
  if (s == "long") return py::int_(4);
  if (s == "float") return py::int_(6);
  const std::string text(s);
  const bool floating = text.find_first_of(".eE") != std::string::npos && base != "str";
  try {
    size_t used = 0;
    if (floating || base == "float") {
      double v = std::stod(text, &used);
      if (used == text.size()) return py::float_(v);
    } else {
      long long v = std::stoll(text, &used);
      if (used == text.size()) return py::int_(v);
    }
  } catch (const std::exception&) {}
  return py::str(text);
}

// The items of a list literal `[a, b, c]`, trimmed; empty items are dropped.
std::vector<std::string> list_items(std::string_view text) {
  std::vector<std::string> out;
  std::string_view body = text.substr(1, text.size() - 2);
  while (!body.empty()) {
    size_t comma = body.find(',');
    std::string_view item = body.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return out;
}

py::object literal_value(std::string_view text, const Type& type) {
  const Type* t = &type;
  if (t->is_optional()) t = &t->element();
  if (!t->is_list()) return scalar_literal(text, t->base_name());
  if (text == "None") return py::none();
  py::list out;
  const std::string base = t->base_name();
  if (text.empty() || text.front() != '[') {  // `int[2] stride=1`: the number repeated
    py::object v = scalar_literal(text, base);
    for (int64_t i = 0; i < t->size.value_or(1); ++i) out.append(v);
    return out;
  }
  for (const std::string& item : list_items(text)) out.append(scalar_literal(item, base));
  return out;
}

// ---- printing as PyTorch prints a parsed schema ---------------------------------------
//
// Note [Printed schema defaults]: PyTorch's parser turns a default into a value and prints the
// value, not the text: 1e-05 is 1.0000000000000001e-05 (17 significant digits), a float 1 is
// "1.", Mean is 1, contiguous_format 0, long 4, 'fro' is "fro", and an int list whose N elements
// are one number prints as that number (int[2] stride=[1, 1] is stride=1) while other lists print
// every element (SymInt[2] stride=1 is [1, 1]). DeviceIndex and ConstQuantizerPtr are ints. The project's own str()
// keeps the YAML's text, so the two are separate.

std::string printed_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string out = buf;
  if (out.find_first_of(".eEn") == std::string::npos) out += ".";  // "1." ("inf"/"nan" have an n)
  return out;
}

std::string quoted(const std::string& raw) {
  // raw is the literal with its quotes; the value is printed in double quotes, escaped.
  std::string value;
  for (size_t i = 1; i + 1 < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 2 < raw.size()) ++i;
    value += raw[i];
  }
  std::string out = "\"";
  for (char c : value) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '"' || c == '\'' || c == '\\') out += '\\', out += c;
    else out += c;
  }
  return out + "\"";
}

// One element or a whole non-list default; `floating`: the argument's type is float.
std::string printed_scalar(std::string_view s, bool floating) {
  if (s == "None" || s == "True" || s == "False") return std::string(s);
  if (!s.empty() && (s.front() == '\'' || s.front() == '"')) return quoted(std::string(s));
  if (s == "contiguous_format" || s == "strided") return "0";
  if (s == "Mean") return "1";
  if (s == "long") return "4";
  if (s == "float") return "6";
  if (s == "complex") return "9";
  const std::string text(s);
  try {
    if (floating || text.find_first_of(".e") != std::string::npos) return printed_double(std::stod(text));
    return std::to_string(std::stoll(text));
  } catch (const std::exception&) {
    return text;
  }
}

std::string printed_default(const std::string& text, const Type& type) {
  if (type.kind == Type::Kind::Base && type.name == "Device" && text.size() >= 2 && (text[0] == '"' || text[0] == '\''))
    return text.substr(1, text.size() - 2);  // a Device prints bare: cpu
  if (!type.is_list() || text == "None") {
    return printed_scalar(text, type.kind == Type::Kind::Base && type.name == "float");
  }
  const std::string& elem = type.element().kind == Type::Kind::Base ? type.element().name : "";
  std::vector<std::string> items;
  if (!text.empty() && text.front() == '[') {
    for (const auto& i : list_items(text)) items.push_back(printed_scalar(i, elem == "float"));
  } else {
    items.assign(static_cast<size_t>(type.size.value_or(1)), printed_scalar(text, elem == "float"));
  }
  if (elem == "int" && items.size() > 1 &&
      std::all_of(items.begin(), items.end(), [&](auto& i) { return i == items[0]; }))
    return items[0];
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

Type printed_type(const Type& t) {
  if (t.kind == Type::Kind::Base)
    return Type::base(t.name == "DeviceIndex" || t.name == "ConstQuantizerPtr" ? "int" : t.name);
  if (t.is_optional()) return Type::optional(printed_type(t.element()));
  return Type::list(printed_type(t.element()), t.size);
}

Argument printed_argument(const Argument& a) {
  Argument out = a;
  out.type = printed_type(a.type);
  if (a.default_value) out.default_value = printed_default(*a.default_value, a.type);
  return out;
}

// str(torch._C.parse_schema(text)) as PyTorch prints it.
std::string printed_schema(const FunctionSchema& s) {
  FunctionSchema out = s;
  for (auto& a : out.arguments) a = printed_argument(a);
  for (auto& r : out.returns) r.type = printed_type(r.type);
  return out.str();
}

py::set name_set(const std::vector<std::string>& names) {
  py::set s;
  for (const auto& n : names) s.add(py::str(n));
  return s;
}

}  // namespace

void init_schema(py::module_& m) {
  py::class_<PyType>(m, "Type")
      .def("__str__", &PyType::str)
      .def("__repr__", &PyType::str)
      .def("__eq__",
           [](const PyType& a, py::object b) { return py::isinstance<PyType>(b) && b.cast<PyType>().t == a.t; });

  py::class_<PyAlias>(m, "_AliasInfo")
      .def_property_readonly(
          "before_set", [](const PyAlias& a) { return a.on_list_elements ? py::set() : name_set(a.info.before_set); })
      // Without `->` the set after the call is the one before it, as PyTorch reports it.
      .def_property_readonly("after_set",
                             [](const PyAlias& a) {
                               if (a.on_list_elements) return py::set();
                               return name_set(a.info.after_set.empty() ? a.info.before_set : a.info.after_set);
                             })
      .def_property_readonly("is_write", [](const PyAlias& a) { return a.info.is_write; });

  py::class_<Argument>(m, "Argument")
      .def_property_readonly("name", [](const Argument& a) { return a.name; })
      .def_property_readonly("type", [](const Argument& a) { return PyType{a.type}; })
      .def_property_readonly("N",
                             [](const Argument& a) -> py::object {
                               const Type& t = a.type.is_optional() ? a.type.element() : a.type;
                               if (t.is_list() && t.size) return py::int_(*t.size);
                               return py::none();
                             })
      .def_property_readonly("default_value",
                             [](const Argument& a) -> py::object {
                               if (!a.default_value) return py::none();
                               return literal_value(*a.default_value, a.type);
                             })
      .def("has_default_value", [](const Argument& a) { return a.default_value.has_value(); })
      .def_property_readonly("kwarg_only", [](const Argument& a) { return a.kwarg_only; })
      .def_property_readonly("is_out", [](const Argument& a) { return a.is_out; })
      .def_property_readonly("alias_info",
                             [](const Argument& a) -> py::object {
                               if (!a.alias) return py::none();
                               return py::cast(PyAlias{*a.alias, a.type.is_list()});
                             })
      .def("__str__", [](const Argument& a) { return printed_argument(a).str(); });

  // A return is an Argument in PyTorch too (name empty when the schema gives none).
  py::class_<FunctionSchema>(m, "FunctionSchema")
      .def_property_readonly("name", [](const FunctionSchema& s) { return s.name; })
      .def_property_readonly("overload_name", [](const FunctionSchema& s) { return s.overload_name; })
      .def_property_readonly("arguments", [](const FunctionSchema& s) { return s.arguments; })
      .def_property_readonly("returns",
                             [](const FunctionSchema& s) {
                               std::vector<Argument> out;
                               for (const auto& r : s.returns) {
                                 Argument a;
                                 a.name = r.name;
                                 a.type = r.type;
                                 a.alias = r.alias;
                                 out.push_back(std::move(a));
                               }
                               return out;
                             })
      .def_property_readonly("is_mutable", [](const FunctionSchema& s) { return s.is_mutable(); })
      .def("__str__", [](const FunctionSchema& s) { return printed_schema(s); })
      .def("__repr__", [](const FunctionSchema& s) { return printed_schema(s); })
      .def("__eq__", [](const FunctionSchema& a, py::object b) {
        return py::isinstance<FunctionSchema>(b) && b.cast<FunctionSchema>() == a;
      });

  // A malformed schema raises RuntimeError in PyTorch's words (schema_error.h: the lexer's
  // expected and found tokens, the text and the `~` marker).
  m.def("parse_schema", [](const std::string& text) {
    try {
      return schema::parse_schema_pytorch(text);
    } catch (const schema::SchemaParseError& e) {
      throw ipt::Error(ErrorKind::RuntimeError, e.pytorch_message());
    }
  });

  // torch.ops: the registered schema of "aten::add.Tensor"; the overloads of "aten::add".
  m.def("_schema_of", [](const std::string& full_name) {
    OperatorEntry* e = Dispatcher::singleton().find(full_name);
    if (!e) throw py::key_error(full_name);
    return schema::parse_schema(e->schema());
  });
  // The schema check mode (Note [Schema check mode]); torch.utils.schema_check_mode wraps it.
  m.def(
      "_schema_check_set", [](bool on, bool raise_on_violation) { schema_check::set_enabled(on, raise_on_violation); },
      py::arg("enabled"), py::arg("raise_on_violation") = true);
  m.def("_schema_check_enabled", [] { return schema_check::enabled(); });
  m.def("_schema_check_clear", [] { schema_check::clear(); });
  m.def("_schema_check_ops", [] { return schema_check::ops_seen(); });
  m.def("_schema_check_findings", [] {
    py::list out;
    for (const auto& f : schema_check::findings()) {
      const char* kind = "";
      switch (f.kind) {
        case schema_check::Finding::Kind::MutatedWithoutAnnotation: kind = "mutated_without_annotation"; break;
        case schema_check::Finding::Kind::AliasWithoutAnnotation: kind = "alias_without_annotation"; break;
        case schema_check::Finding::Kind::OutputsAlias: kind = "outputs_alias"; break;
        case schema_check::Finding::Kind::AnnotatedButUnchanged: kind = "annotated_but_unchanged"; break;
        case schema_check::Finding::Kind::Mutated: kind = "mutated"; break;
        case schema_check::Finding::Kind::Aliased: kind = "aliased"; break;
      }
      out.append(py::make_tuple(kind, f.op, f.argument, f.message));
    }
    return out;
  });
  m.def("_overload_names", [](const std::string& name) {
    std::vector<std::string> out;
    for (const auto& op : Dispatcher::singleton().operators())
      if (op->name() == name) out.push_back(op->overload());
    return out;
  });
  // What the generator read and wrote (core/ops/generated_sources.h).
  m.def("_generated_source_names", [] {
    std::vector<std::string> out;
    for (auto n : generated_source_names()) out.emplace_back(n);
    return out;
  });
  m.def(
      "_generated_source_lines",
      [](const std::string& name, int first, int last) {
        if (!generated_source(name))
          IPT_FAIL(RuntimeError, "no generated source named '", name, "' is embedded in this build");
        SourceLines sl = generated_source_lines(name, first, last);
        std::vector<std::string> out(sl.lines.begin(), sl.lines.end());
        return out;
      },
      py::arg("name"), py::arg("first") = 1, py::arg("last") = 1 << 30);
  m.def("_schema_yaml_entry", [](const std::string& name) -> py::object {
    auto e = schema_yaml_entry(name);
    if (!e) return py::none();
    return py::str(*e);
  });
  // op_sources (core/ops/op_sources.h): each generated kernel registration of an operator,
  // "FILE:LINE" -> its statement block (the lines as generated), as the Schema view shows them.
  m.def("_kernel_registration_blocks", [](const std::string& op) {
    py::dict out;
    for (const KernelSite& k : op_sources(op).kernels) {
      std::string block;
      for (std::string_view l : k.block) block.append(l).push_back('\n');
      if (!block.empty()) block.pop_back();
      out[py::str(k.at.str())] = block;
    }
    return out;
  });
  m.def("_generated_definition", [](const std::string& file, const std::string& name) -> py::object {
    if (!generated_source(file))
      IPT_FAIL(RuntimeError, "no generated source named '", file, "' is embedded in this build");
    Definition d = generated_definition(file, name);
    if (d.first == 0) return py::none();
    std::string text;
    for (std::string_view l : d.lines) text.append(l).push_back('\n');
    text.pop_back();
    return py::str(text);
  });
}

}  // namespace ipt::python
