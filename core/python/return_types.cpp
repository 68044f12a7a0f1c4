// torch.return_types: the named tuples of operators with named returns (torch.max(x, 0) is a
// torch.return_types.max with .values and .indices), as PyTorch's structseq types.
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "core/python/generated_support.h"

namespace ipt::python {

namespace {

std::map<std::string, PyTypeObject*>& types() {
  static std::map<std::string, PyTypeObject*> t;
  return t;
}
struct Description {
  std::string name;
  std::vector<PyStructSequence_Field> fields;
  PyStructSequence_Desc desc{};
};
std::deque<Description>& descriptions() {  // a deque: adding one never moves the others
  static std::deque<Description> d;
  return d;
}
std::map<PyTypeObject*, std::vector<const char*>>& fields_of() {
  static std::map<PyTypeObject*, std::vector<const char*>> f;
  return f;
}

// PyTorch prints one field per line: "torch.return_types.max(\nvalues=...,\nindices=...)".
PyObject* structseq_repr(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  std::string out = std::string(type->tp_name) + "(\n";
  const auto& fields = fields_of().at(type);
  const Py_ssize_t n = PyTuple_GET_SIZE(self);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* r = PyObject_Repr(PyTuple_GET_ITEM(self, i));
    if (!r) return nullptr;
    const char* text = PyUnicode_AsUTF8(r);
    if (!text) {
      Py_DECREF(r);
      return nullptr;
    }
    out += std::string(fields[static_cast<size_t>(i)]) + "=" + text + (i + 1 < n ? ",\n" : "");
    Py_DECREF(r);
  }
  return PyUnicode_FromString((out + ")").c_str());
}

}  // namespace

void add_return_types(pybind11::module_& m, const ReturnTypeDef* defs) {
  PyObject* mod = PyModule_New("torch._C._return_types");
  if (!mod) throw pybind11::error_already_set();
  for (const ReturnTypeDef* d = defs; d->name; ++d) {
    // The descriptions must outlive the types, which live as long as the interpreter: they are
    // kept here (reachable, so no leak checker reports them).
    Description& desc = descriptions().emplace_back();
    desc.name = "torch.return_types." + std::string(d->name);
    for (const char* f : d->fields) desc.fields.push_back({f, nullptr});
    desc.fields.push_back({nullptr, nullptr});
    desc.desc = {desc.name.c_str(), nullptr, desc.fields.data(), static_cast<int>(d->fields.size())};
    PyTypeObject* type = PyStructSequence_NewType(&desc.desc);
    if (!type) throw pybind11::error_already_set();
    type->tp_repr = structseq_repr;
    PyType_Modified(type);
    types()[d->name] = type;
    fields_of()[type] = d->fields;
    Py_INCREF(type);
    PyModule_AddObject(mod, d->name, reinterpret_cast<PyObject*>(type));
  }
  PyModule_AddObject(m.ptr(), "_return_types", mod);
}

PyObject* to_named_tuple(const char* name, PyObject* tuple) {
  if (!tuple) return nullptr;
  PyTypeObject* type = types().at(name);
  PyObject* out = PyStructSequence_New(type);
  if (!out) {
    Py_DECREF(tuple);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); ++i) {
    PyObject* item = PyTuple_GET_ITEM(tuple, i);
    Py_INCREF(item);
    PyStructSequence_SetItem(out, i, item);
  }
  Py_DECREF(tuple);
  return out;
}

}  // namespace ipt::python
