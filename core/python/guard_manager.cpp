#include "core/python/guard_manager.h"

#include "core/dispatch/local_dispatch_key_set.h"

namespace py = pybind11;

namespace ipt::python::dynamo {

GuardManager& GuardManager::child(Access access, py::object key, const std::string& source) {
  for (auto& c : children_)
    if (c->access_ == access && c->key_.equal(key)) return *c;
  children_.push_back(std::make_unique<GuardManager>(access, std::move(key), source));
  return *children_.back();
}

PyObject* GuardManager::reach(PyObject* parent, PyObject* globals) const {
  switch (access_) {
    case Access::Root:
      return nullptr;
    case Access::Globals:
      Py_XINCREF(globals);
      return globals;
    case Access::DictGetItem: {
      PyObject* v = PyDict_Check(parent) ? PyDict_GetItemWithError(parent, key_.ptr()) : nullptr;
      Py_XINCREF(v);
      return v;
    }
    case Access::Attr:
      return PyObject_GetAttr(parent, key_.ptr());
    case Access::Item:
      return PyObject_GetItem(parent, key_.ptr());
  }
  return nullptr;
}

namespace {
std::string leaf_failure(const LeafGuard& g, PyObject* v, const std::string& source, bool verbose) {
  switch (g.kind) {
    case LeafGuard::Kind::TensorMatch: {
      if (!is_tensor_object(v)) return verbose ? "'" + source + "' is not a tensor" : "x";
      if (!verbose) return g.tensor.matches(unpack(v)) ? "" : "x";
      std::string why = g.tensor.mismatch(unpack(v));
      return why.empty() ? "" : "tensor '" + source + "' " + why;
    }
    case LeafGuard::Kind::Equals: {
      // Same type first, as Dynamo's EQUALS_MATCH does (True == 1 must not hit).
      if (Py_TYPE(v) != Py_TYPE(g.value.ptr())) return g.text;
      int eq = PyObject_RichCompareBool(v, g.value.ptr(), Py_EQ);
      if (eq < 0) PyErr_Clear();
      return eq == 1 ? "" : g.text;
    }
    case LeafGuard::Kind::TypeMatch:
      return reinterpret_cast<PyObject*>(Py_TYPE(v)) == g.value.ptr() ? "" : g.text;
    case LeafGuard::Kind::IdMatch:
      return v == g.value.ptr() ? "" : g.text;
    case LeafGuard::Kind::IsNone:
      return v == Py_None ? "" : g.text;
    case LeafGuard::Kind::NotNone:
      return v != Py_None ? "" : g.text;
    case LeafGuard::Kind::Length: {
      Py_ssize_t n = PyObject_Length(v);
      if (n < 0) PyErr_Clear();
      return n == g.length ? "" : g.text;
    }
  }
  return "";
}
}  // namespace

std::string GuardManager::check(PyObject* value, PyObject* globals, bool verbose) {
  for (const LeafGuard& g : leaves_) {
    std::string why = leaf_failure(g, value, source_, verbose);
    if (!why.empty()) return why;
  }
  for (auto& c : children_) {
    std::string why = c->check_child(value, globals, verbose);
    if (!why.empty()) return why;
  }
  return "";
}

std::string GuardManager::check_child(PyObject* parent, PyObject* globals, bool verbose) {
  held_ = py::reinterpret_steal<py::object>(reach(parent, globals));
  if (!held_) {
    PyErr_Clear();
    return verbose ? "'" + source_ + "' could not be read" : "x";
  }
  return check(held_.ptr(), globals, verbose);
}

void GuardManager::release() {
  held_ = py::object();
  for (auto& c : children_) c->release();
}

std::string RootGuardManager::check_frame(PyObject* locals, PyObject* globals, bool verbose) {
  std::string why = check_all(locals, globals, verbose);
  release();  // the values reached are the caller's, not the guards' to keep alive
  return why;
}

std::string RootGuardManager::check_all(PyObject* locals, PyObject* globals, bool verbose) {
  if (has_global_state_ && grad_mode_enabled() != grad_mode_) return "GLOBAL_STATE changed: grad_mode ";
  for (auto& c : children_) {
    std::string why = c->check_child(locals, globals, verbose);
    if (!why.empty()) return why;
  }
  for (const SizeRelation& r : relations_) {
    int64_t first = -1;
    for (const auto& [node, dim] : r.dims) {
      PyObject* v = node->last_value();
      if (!v || !is_tensor_object(v)) return r.text;
      const auto& sizes = unpack(v).sizes();
      if (dim >= static_cast<int64_t>(sizes.size())) return r.text;
      const int64_t s = sizes[static_cast<size_t>(dim)];
      if (s < r.min || (first >= 0 && s != first)) return r.text;
      first = s;
    }
  }
  return "";
}

namespace {
const char* access_name(GuardManager::Access a) {
  switch (a) {
    case GuardManager::Access::Globals: return "GlobalsGuardAccessor";
    case GuardManager::Access::DictGetItem: return "DictGetItemGuardAccessor";
    case GuardManager::Access::Attr: return "GetAttrGuardAccessor";
    case GuardManager::Access::Item: return "GetItemGuardAccessor";
    case GuardManager::Access::Root: break;
  }
  return "";
}
std::string bars(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "| ";
  return s + "+- ";
}
}  // namespace

void GuardManager::print(std::string& out, int depth) const {
  if (access_ != Access::Root) {
    out += bars(depth) + "GuardManager: source=" + source_ + ", accessed_by=" + access_name(access_);
    if (access_ != Access::Globals) out += "(" + py::str(key_).cast<std::string>() + ")";
    out += "\n";
  }
  for (const LeafGuard& g : leaves_) {
    // TorchDynamo pads the check to 60 columns before the user's line.
    std::string line = g.text;
    if (!g.comment.empty()) {
      if (line.size() < 60) line.resize(60, ' ');
      line += g.comment;
    }
    out += bars(depth + 1) + g.label + ": " + line + "\n";
  }
  for (const auto& c : children_) c->print(out, depth + 1);
}

std::string RootGuardManager::tree() const {
  std::string out = "TREE_GUARD_MANAGER:\n+- RootGuardManager\n";
  if (has_global_state_) out += "| +- GLOBAL_STATE: ___check_global_state()\n";
  print(out, 0);
  // Shape guards come last, at the root (TorchDynamo adds them after every other guard).
  for (const SizeRelation& r : relations_) out += "+- LAMBDA_GUARD: " + r.text + "\n";
  return out;
}

void init_guard_manager(py::module_& m) {
  using GM = GuardManager;
  py::class_<GM, std::shared_ptr<GM>>(m, "GuardManager")
      .def_property_readonly("source", &GM::source)
      .def("attr", [](GM& g, const std::string& name, const std::string& source) -> GM& {
             return g.child(GM::Access::Attr, py::str(name), source);
           }, py::return_value_policy::reference_internal)
      .def("item", [](GM& g, py::object key, const std::string& source) -> GM& {
             return g.child(GM::Access::Item, std::move(key), source);
           }, py::return_value_policy::reference_internal)
      .def("dict_item", [](GM& g, const std::string& key, const std::string& source) -> GM& {
             return g.child(GM::Access::DictGetItem, py::str(key), source);
           }, py::return_value_policy::reference_internal)
      .def("add_tensor_match", [](GM& g, const Tensor& t, const std::vector<int64_t>& dynamic_dims, const std::string& comment) {
             LeafGuard l{LeafGuard::Kind::TensorMatch, "TENSOR_MATCH", "", comment, compile::TensorGuard::of(t, dynamic_dims), {}, 0};
             l.text = l.tensor.repr(g.source());
             std::string text = l.text;
             g.add(std::move(l));
             return text;  // its check_tensor(...) text
           })
      .def("add_leaf", [](GM& g, const std::string& kind, py::object value, const std::string& text, const std::string& comment) {
             static const std::pair<const char*, LeafGuard::Kind> kinds[] = {
                 {"EQUALS_MATCH", LeafGuard::Kind::Equals}, {"TYPE_MATCH", LeafGuard::Kind::TypeMatch},
                 {"ID_MATCH", LeafGuard::Kind::IdMatch},    {"NONE_MATCH", LeafGuard::Kind::IsNone},
                 {"NOT_NONE", LeafGuard::Kind::NotNone},    {"LENGTH_CHECK", LeafGuard::Kind::Length}};
             for (const auto& [name, k] : kinds)
               if (kind == name) {
                 LeafGuard l{k, kind, text, comment, {}, value, 0};
                 if (k == LeafGuard::Kind::Length) l.length = value.cast<Py_ssize_t>();
                 g.add(std::move(l));
                 return;
               }
             IPT_FAIL(ValueError, "unknown guard kind '", kind, "'");
           });
  py::class_<RootGuardManager, GM, std::shared_ptr<RootGuardManager>>(m, "RootGuardManager")
      .def(py::init<>())
      .def("local", [](RootGuardManager& g, const std::string& name) -> GM& {
             return g.child(GM::Access::DictGetItem, py::str(name), "L['" + name + "']");
           }, py::return_value_policy::reference_internal)
      .def("global_", [](RootGuardManager& g, const std::string& name) -> GM& {
             return g.child(GM::Access::Globals, py::none(), "G").child(GM::Access::DictGetItem, py::str(name),
                                                                        "G['" + name + "']");
           }, py::return_value_policy::reference_internal)
      .def("add_global_state", [](RootGuardManager& g) { g.set_grad_mode(grad_mode_enabled()); })
      .def("add_size_relation", [](RootGuardManager& g, const std::vector<std::pair<GM*, int64_t>>& dims, int64_t min,
                                   const std::string& text) { g.add_size_relation({dims, min, text}); })
      .def("check", [](RootGuardManager& g, py::dict locals, py::dict globals) {
             return g.check_frame(locals.ptr(), globals.ptr(), false).empty();
           })
      .def("check_verbose", [](RootGuardManager& g, py::dict locals, py::dict globals) {
             return g.check_frame(locals.ptr(), globals.ptr(), true);
           })
      .def("__str__", &RootGuardManager::tree);
}

}  // namespace ipt::python::dynamo
