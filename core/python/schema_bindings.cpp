// Operator schemas from Python, under PyTorch's names: torch._C.parse_schema, FunctionSchema,
// Argument, _AliasInfo and the TorchScript type of each argument (str(arg.type) is "number"
// for Scalar, "List[int]" for int[], "Optional[Tensor]" for Tensor?); and what torch.ops
// needs: the registered schema of an operator and the overloads of a name.
#include <cmath>
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
  } catch (const std::exception&) {
  }
  return py::str(text);
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
  std::string_view body = text.substr(1, text.size() - 2);
  while (!body.empty()) {
    size_t comma = body.find(',');
    std::string_view item = body.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.append(scalar_literal(item, base));
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return out;
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
      .def("__eq__", [](const PyType& a, py::object b) { return py::isinstance<PyType>(b) && b.cast<PyType>().t == a.t; });

  py::class_<PyAlias>(m, "_AliasInfo")
      .def_property_readonly("before_set",
                             [](const PyAlias& a) { return a.on_list_elements ? py::set() : name_set(a.info.before_set); })
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
      .def_property_readonly("N", [](const Argument& a) -> py::object {
        const Type& t = a.type.is_optional() ? a.type.element() : a.type;
        if (t.is_list() && t.size) return py::int_(*t.size);
        return py::none();
      })
      .def_property_readonly("default_value", [](const Argument& a) -> py::object {
        if (!a.default_value) return py::none();
        return literal_value(*a.default_value, a.type);
      })
      .def("has_default_value", [](const Argument& a) { return a.default_value.has_value(); })
      .def_property_readonly("kwarg_only", [](const Argument& a) { return a.kwarg_only; })
      .def_property_readonly("is_out", [](const Argument& a) { return a.is_out; })
      .def_property_readonly("alias_info", [](const Argument& a) -> py::object {
        if (!a.alias) return py::none();
        return py::cast(PyAlias{*a.alias, a.type.is_list()});
      })
      .def("__str__", [](const Argument& a) { return a.str(); });

  // A return is an Argument in PyTorch too (name empty when the schema gives none).
  py::class_<FunctionSchema>(m, "FunctionSchema")
      .def_property_readonly("name", [](const FunctionSchema& s) { return s.name; })
      .def_property_readonly("overload_name", [](const FunctionSchema& s) { return s.overload_name; })
      .def_property_readonly("arguments", [](const FunctionSchema& s) { return s.arguments; })
      .def_property_readonly("returns", [](const FunctionSchema& s) {
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
      .def("__str__", [](const FunctionSchema& s) { return s.str(); })
      .def("__repr__", [](const FunctionSchema& s) { return s.str(); })
      .def("__eq__", [](const FunctionSchema& a, py::object b) {
        return py::isinstance<FunctionSchema>(b) && b.cast<FunctionSchema>() == a;
      });

  // A malformed schema raises RuntimeError naming the column and what was expected there.
  m.def("parse_schema", [](const std::string& text) { return schema::parse_schema(text); });

  // torch.ops: the registered schema of "aten::add.Tensor"; the overloads of "aten::add".
  m.def("_schema_of", [](const std::string& full_name) {
    OperatorEntry* e = Dispatcher::singleton().find(full_name);
    if (!e) throw py::key_error(full_name);
    return schema::parse_schema(e->schema());
  });
  // The schema check mode (Note [Schema check mode]); torch.utils.schema_check_mode wraps it.
  m.def("_schema_check_set", [](bool on, bool raise_on_violation) { schema_check::set_enabled(on, raise_on_violation); },
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
  m.def("_generated_source_lines", [](const std::string& name, int first, int last) {
    if (!generated_source(name)) IPT_FAIL(RuntimeError, "no generated source named '", name, "' is embedded in this build");
    SourceLines sl = generated_source_lines(name, first, last);
    std::vector<std::string> out(sl.lines.begin(), sl.lines.end());
    return out;
  }, py::arg("name"), py::arg("first") = 1, py::arg("last") = 1 << 30);
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
    if (!generated_source(file)) IPT_FAIL(RuntimeError, "no generated source named '", file, "' is embedded in this build");
    Definition d = generated_definition(file, name);
    if (d.first == 0) return py::none();
    std::string text;
    for (std::string_view l : d.lines) text.append(l).push_back('\n');
    text.pop_back();
    return py::str(text);
  });
}

}  // namespace ipt::python
