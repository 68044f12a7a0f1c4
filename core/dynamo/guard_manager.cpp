#include "core/dynamo/guard_manager.h"

#include <algorithm>
#include <cstdint>

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
    case Access::Root: return nullptr;
    case Access::Globals: Py_XINCREF(globals); return globals;
    case Access::DictGetItem: {
      PyObject* v = PyDict_Check(parent) ? PyDict_GetItemWithError(parent, key_.ptr()) : nullptr;
      Py_XINCREF(v);
      return v;
    }
    case Access::Attr: return PyObject_GetAttr(parent, key_.ptr());
    case Access::Item: return PyObject_GetItem(parent, key_.ptr());
  }
  return nullptr;
}

namespace {
bool call_predicate(const py::object& fn, PyObject* v) {
  PyObject* r = v ? PyObject_CallOneArg(fn.ptr(), v) : PyObject_CallNoArgs(fn.ptr());
  if (!r) {
    PyErr_Clear();  // a predicate that raises fails its guard
    return false;
  }
  int ok = PyObject_IsTrue(r);
  Py_DECREF(r);
  if (ok < 0) PyErr_Clear();
  return ok == 1;
}

// A failed guard as TORCH_LOGS=recompiles words it: its check, and where it came from (the
// comment, after the check padded to 60 columns as the tree prints it).
std::string code_part(const LeafGuard& g, bool verbose) {
  if (!verbose || g.comment.empty()) return g.text;
  std::string line = g.text;
  if (line.size() < 60) line.resize(60, ' ');
  return line + g.comment;
}

// repr() of a value for a failure's expected or actual, at most 200 characters.
std::string short_repr(PyObject* v) {
  if (!v) return "missing";
  PyObject* r = PyObject_Repr(v);
  if (!r) {
    PyErr_Clear();
    return "?";
  }
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(r, &n);
  std::string out = s ? std::string(s, static_cast<size_t>(n)) : "?";
  if (!s) PyErr_Clear();
  Py_DECREF(r);
  if (out.size() > 200) out = out.substr(0, 197) + "...";
  return out;
}

// The expected and actual values of a failed leaf guard (verbose checks only).
void describe_failure(const LeafGuard& g, PyObject* v, bool grad_mode, FailedGuard& parts) {
  auto set = [&](std::string expected, std::string actual) {
    parts.expected = std::move(expected);
    parts.actual = std::move(actual);
  };
  switch (g.kind) {
    case LeafGuard::Kind::Lambda: set("True", "False"); break;
    case LeafGuard::Kind::GlobalState:
      if (grad_mode_enabled() != grad_mode)
        set(std::string("grad_mode=") + (grad_mode ? "True" : "False"),
            std::string("grad_mode=") + (grad_mode ? "False" : "True"));
      break;
    case LeafGuard::Kind::Shown: break;
    case LeafGuard::Kind::TensorMatch:
      if (!is_tensor_object(v)) set("a tensor", short_repr(reinterpret_cast<PyObject*>(Py_TYPE(v))));
      else {
        compile::TensorMismatch m = g.tensor.explain(unpack(v));
        set(m.expected, m.actual);
      }
      break;
    case LeafGuard::Kind::Equals: set(short_repr(g.value.ptr()), short_repr(v)); break;
    case LeafGuard::Kind::TypeMatch:
      set(short_repr(g.value.ptr()), short_repr(reinterpret_cast<PyObject*>(Py_TYPE(v))));
      break;
    case LeafGuard::Kind::IdMatch:
      set("id " + std::to_string(reinterpret_cast<uintptr_t>(g.value.ptr())),
          "id " + std::to_string(reinterpret_cast<uintptr_t>(v)));
      break;
    case LeafGuard::Kind::IsNone: set("None", short_repr(v)); break;
    case LeafGuard::Kind::NotNone: set("not None", "None"); break;
    case LeafGuard::Kind::Length: {
      Py_ssize_t n = PyObject_Length(v);
      if (n < 0) PyErr_Clear();
      set(std::to_string(g.length), n < 0 ? std::string("no length") : std::to_string(n));
      break;
    }
  }
}

std::string leaf_check(const LeafGuard& g, PyObject* v, const std::string& source, bool verbose, bool grad_mode) {
  switch (g.kind) {
    case LeafGuard::Kind::Lambda: return call_predicate(g.value, v) ? "" : code_part(g, verbose);
    case LeafGuard::Kind::GlobalState:
      if (grad_mode_enabled() != grad_mode) return "GLOBAL_STATE changed: grad_mode ";
      return g.value.is_none() || call_predicate(g.value, nullptr) ? "" : "GLOBAL_STATE changed";
    case LeafGuard::Kind::Shown: return "";
    case LeafGuard::Kind::TensorMatch: {
      if (!is_tensor_object(v)) return verbose ? "'" + source + "' is not a tensor" : "x";
      if (!verbose) return g.tensor.matches(unpack(v)) ? "" : "x";
      std::string why = g.tensor.mismatch(unpack(v));
      return why.empty() ? "" : "tensor '" + source + "' " + why;
    }
    case LeafGuard::Kind::Equals: {
      // Same type first, as Dynamo's EQUALS_MATCH does (True == 1 must not hit).
      if (Py_TYPE(v) != Py_TYPE(g.value.ptr())) return code_part(g, verbose);
      int eq = PyObject_RichCompareBool(v, g.value.ptr(), Py_EQ);
      if (eq < 0) PyErr_Clear();
      return eq == 1 ? "" : code_part(g, verbose);
    }
    case LeafGuard::Kind::TypeMatch:
      return reinterpret_cast<PyObject*>(Py_TYPE(v)) == g.value.ptr() ? "" : code_part(g, verbose);
    case LeafGuard::Kind::IdMatch: return v == g.value.ptr() ? "" : code_part(g, verbose);
    case LeafGuard::Kind::IsNone: return v == Py_None ? "" : g.text;
    case LeafGuard::Kind::NotNone: return v != Py_None ? "" : g.text;
    case LeafGuard::Kind::Length: {
      Py_ssize_t n = PyObject_Length(v);
      if (n < 0) PyErr_Clear();
      return n == g.length ? "" : g.text;
    }
  }
  return "";
}

// The leaf's check; on a failure in verbose mode, its parts into `parts` when given.
std::string leaf_failure(const LeafGuard& g, PyObject* v, const std::string& source, bool verbose, bool grad_mode,
                         FailedGuard* parts) {
  std::string why = leaf_check(g, v, source, verbose, grad_mode);
  if (!why.empty() && verbose && parts) {
    parts->reason = why;
    parts->guard = g.label;
    parts->source = source;
    parts->item = &g;
    describe_failure(g, v, grad_mode, *parts);
  }
  return why;
}
}  // namespace

std::string GuardManager::check(PyObject* value, PyObject* globals, bool verbose, FailedGuard* parts) {
  for (const LeafGuard& g : leaves_) {
    std::string why = leaf_failure(g, value, source_, verbose, true, parts);
    if (!why.empty()) return why;
  }
  for (auto& c : children_) {
    std::string why = c->check_child(value, globals, verbose, parts);
    if (!why.empty()) return why;
  }
  return "";
}

std::string GuardManager::check_child(PyObject* parent, PyObject* globals, bool verbose, FailedGuard* parts) {
  held_ = py::reinterpret_steal<py::object>(reach(parent, globals));
  if (!held_) {
    PyErr_Clear();
    if (!verbose) return "x";
    const std::string why = "'" + source_ + "' could not be read";
    if (parts) *parts = FailedGuard{why, "", source_, "a value", "missing", nullptr, -1};
    return why;
  }
  return check(held_.ptr(), globals, verbose, parts);
}

void GuardManager::release() {
  held_ = py::object();
  for (auto& c : children_) c->release();
}

std::string RootGuardManager::check_frame(PyObject* locals, PyObject* globals, bool verbose) {
  std::string why = check_all(locals, globals, verbose, nullptr);
  release();  // the values reached are the caller's, not the guards' to keep alive
  return why;
}

FailedGuard RootGuardManager::check_frame_parts(PyObject* locals, PyObject* globals) {
  FailedGuard parts;
  parts.reason = check_all(locals, globals, true, &parts);
  release();
  if (!parts.reason.empty() && parts.item) {
    std::vector<std::pair<const void*, int>> lines;
    tree(&lines);
    for (const auto& [item, line] : lines)
      if (item == parts.item) parts.tree_line = line;
  }
  return parts;
}

std::string RootGuardManager::check_all(PyObject* locals, PyObject* globals, bool verbose, FailedGuard* parts) {
  for (const LeafGuard& g : leaves_) {  // the root's own: global state, ambient guards
    std::string why = leaf_failure(g, nullptr, source_, verbose, grad_mode_, parts);
    if (!why.empty()) return why;
  }
  for (auto& c : children_) {
    std::string why = c->check_child(locals, globals, verbose, parts);
    if (!why.empty()) return why;
  }
  // A size relation fails as a whole: the sizes it found are the actual values.
  auto relation_fails = [&](const SizeRelation& r, std::string found) {
    if (verbose && parts) *parts = FailedGuard{r.text, "LAMBDA_GUARD", "", r.text, std::move(found), &r, -1};
    return r.text;
  };
  for (const SizeRelation& r : relations_) {
    int64_t first = -1;
    std::string found;
    for (const auto& [node, dim] : r.dims) {
      PyObject* v = node->last_value();
      if (!v || !is_tensor_object(v)) return relation_fails(r, node->source() + " is not a tensor");
      const auto& sizes = unpack(v).sizes();
      if (dim >= static_cast<int64_t>(sizes.size()))
        return relation_fails(r, node->source() + " has " + std::to_string(sizes.size()) + " dimensions");
      const int64_t s = sizes[static_cast<size_t>(dim)];
      found +=
          (found.empty() ? "" : ", ") + node->source() + ".size()[" + std::to_string(dim) + "] = " + std::to_string(s);
      if (s < r.min || (first >= 0 && s != first)) return relation_fails(r, found);
      first = s;
    }
  }
  for (const auto& [nodes, text] : aliasing_) {
    for (size_t i = 0; i < nodes.size(); ++i)
      for (size_t j = i + 1; j < nodes.size(); ++j)
        if (nodes[i]->last_value() && nodes[i]->last_value() == nodes[j]->last_value()) {
          if (verbose && parts)
            *parts = FailedGuard{text,
                                 "NO_TENSOR_ALIASING",
                                 nodes[i]->source(),
                                 "distinct tensors",
                                 nodes[i]->source() + " is " + nodes[j]->source(),
                                 nullptr,
                                 -1};
          return text;
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

namespace {
int lines_in(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }
}  // namespace

void GuardManager::print(std::string& out, int depth, std::vector<std::pair<const void*, int>>* lines) const {
  if (access_ != Access::Root && !accessor_.empty()) {
    // TorchDynamo 2.15: "GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x',
    // framelocals_idx=0), type=<class 'torch.Tensor'>, tag_safe=(False, False)".
    out += bars(depth) + "GuardManager: source=" + source_ + ", accessed_by=" + accessor_ + ", type=" + type_ +
           ", tag_safe=(False, False)\n";
  } else if (access_ != Access::Root) {
    out += bars(depth) + "GuardManager: source=" + source_ + ", accessed_by=" + access_name(access_);
    if (access_ != Access::Globals) out += "(" + py::str(key_).cast<std::string>() + ")";
    out += "\n";
  }
  for (const LeafGuard& g : leaves_) {
    if (lines) lines->emplace_back(&g, lines_in(out));
    if (g.text.empty() && g.comment.empty()) {
      out += bars(depth + 1) + g.label + "\n";
      continue;
    }
    // TorchDynamo pads the check to 60 columns before the user's line.
    std::string line = g.text;
    if (!g.comment.empty()) {
      if (line.size() < 60) line.resize(60, ' ');
      line += g.comment;
    }
    out += bars(depth + 1) + g.label + ": " + line + "\n";
  }
  for (const auto& c : children_) c->print(out, depth + 1, lines);
}

std::string RootGuardManager::tree(std::vector<std::pair<const void*, int>>* lines) const {
  std::string out = "TREE_GUARD_MANAGER:\n+- RootGuardManager\n";
  print(out, 0, lines);  // the root's own leaves (ambient guards, GLOBAL_STATE) first, then its children
  // Shape guards come last, at the root (TorchDynamo adds them after every other guard).
  for (const SizeRelation& r : relations_) {
    if (lines) lines->emplace_back(&r, lines_in(out));
    out += "+- LAMBDA_GUARD: " + r.text + "\n";
  }
  return out;
}

void init_guard_manager(py::module_& m) {
  py::class_<EntryFailure>(m, "GuardFailure")
      .def_readonly("compile_id", &EntryFailure::compile_id)
      .def_property_readonly("reason", [](const EntryFailure& f) { return f.failure.reason; })
      .def_property_readonly("guard", [](const EntryFailure& f) { return f.failure.guard; })
      .def_property_readonly("source", [](const EntryFailure& f) { return f.failure.source; })
      .def_property_readonly("expected", [](const EntryFailure& f) { return f.failure.expected; })
      .def_property_readonly("actual", [](const EntryFailure& f) { return f.failure.actual; })
      .def_property_readonly("tree_line", [](const EntryFailure& f) { return f.failure.tree_line; })
      .def("__str__", [](const EntryFailure& f) { return f.compile_id + ": " + f.failure.reason; })
      .def("__repr__", [](const EntryFailure& f) {
        return "GuardFailure(" + py::repr(py::str(f.compile_id)).cast<std::string>() + ", " +
               py::repr(py::str(f.failure.reason)).cast<std::string>() + ")";
      });
  using GM = GuardManager;
  py::class_<GM, std::shared_ptr<GM>>(m, "GuardManager")
      .def_property_readonly("source", &GM::source)
      .def("describe", &GM::describe)
      .def("add_shown",
           [](GM& g, const std::string& label, const std::string& text, const std::string& comment) {
             // A guard printed where TorchDynamo prints it whose state this runtime does not have
             // (Note [Ambient guards] in torch/_dynamo/output_graph.py): nothing to check.
             g.add(LeafGuard{LeafGuard::Kind::Shown, label, text, comment, {}, py::none(), 0});
           })
      .def("add_lambda",
           [](GM& g, const std::string& label, py::object fn, const std::string& text, const std::string& comment) {
             IPT_CHECK(PyCallable_Check(fn.ptr()), TypeError, "add_lambda() expects a callable");
             g.add(LeafGuard{LeafGuard::Kind::Lambda, label, text, comment, {}, std::move(fn), 0});
           })
      .def(
          "attr",
          [](GM& g, const std::string& name, const std::string& source) -> GM& {
            return g.child(GM::Access::Attr, py::str(name), source);
          },
          py::return_value_policy::reference_internal)
      .def(
          "item",
          [](GM& g, py::object key, const std::string& source) -> GM& {
            return g.child(GM::Access::Item, std::move(key), source);
          },
          py::return_value_policy::reference_internal)
      .def(
          "dict_item",
          [](GM& g, const std::string& key, const std::string& source) -> GM& {
            return g.child(GM::Access::DictGetItem, py::str(key), source);
          },
          py::return_value_policy::reference_internal)
      .def("add_tensor_match",
           [](GM& g, const Tensor& t, const std::vector<int64_t>& dynamic_dims, const std::string& comment) {
             LeafGuard l{LeafGuard::Kind::TensorMatch,
                         "TENSOR_MATCH",
                         "",
                         comment,
                         compile::TensorGuard::of(t, dynamic_dims),
                         {},
                         0};
             l.text = l.tensor.repr(g.source());
             std::string text = l.text;
             g.add(std::move(l));
             return text;  // its check_tensor(...) text
           })
      // Typed constructors, one per leaf guard kind: the value the guard compares with, the text
      // TORCH_LOGS=guards prints after the label, and the user's line that needed it.
      .def("add_equals_match",
           [](GM& g, py::object value, const std::string& text, const std::string& comment) {
             g.add(LeafGuard{LeafGuard::Kind::Equals, "EQUALS_MATCH", text, comment, {}, std::move(value), 0});
           })
      .def("add_type_match",
           [](GM& g, py::type type, const std::string& text, const std::string& comment) {
             g.add(LeafGuard{LeafGuard::Kind::TypeMatch, "TYPE_MATCH", text, comment, {}, std::move(type), 0});
           })
      .def("add_id_match",
           [](GM& g, py::object obj, const std::string& text, const std::string& comment) {
             g.add(LeafGuard{LeafGuard::Kind::IdMatch, "ID_MATCH", text, comment, {}, std::move(obj), 0});
           })
      .def("add_none_match",
           [](GM& g, const std::string& text, const std::string& comment) {
             g.add(LeafGuard{LeafGuard::Kind::IsNone, "NONE_MATCH", text, comment, {}, py::none(), 0});
           })
      .def("add_not_none",
           [](GM& g, const std::string& text, const std::string& comment) {
             g.add(LeafGuard{LeafGuard::Kind::NotNone, "NOT_NONE", text, comment, {}, py::none(), 0});
           })
      .def("add_length_check", [](GM& g, Py_ssize_t length, const std::string& text, const std::string& comment) {
        IPT_CHECK(length >= 0, ValueError, "add_length_check() expects a length >= 0, got ", length);
        g.add(LeafGuard{LeafGuard::Kind::Length, "LENGTH_CHECK", text, comment, {}, py::none(), length});
      });
  py::class_<RootGuardManager, GM, std::shared_ptr<RootGuardManager>>(m, "RootGuardManager")
      .def(py::init<>())
      .def(
          "local",
          [](RootGuardManager& g, const std::string& name) -> GM& {
            return g.child(GM::Access::DictGetItem, py::str(name), "L['" + name + "']");
          },
          py::return_value_policy::reference_internal)
      .def(
          "globals_dict", [](RootGuardManager& g) -> GM& { return g.child(GM::Access::Globals, py::none(), "G"); },
          py::return_value_policy::reference_internal)
      .def(
          "global_",
          [](RootGuardManager& g, const std::string& name) -> GM& {
            return g.child(GM::Access::Globals, py::none(), "G")
                .child(GM::Access::DictGetItem, py::str(name), "G['" + name + "']");
          },
          py::return_value_policy::reference_internal)
      .def(
          "add_global_state",
          [](RootGuardManager& g, const std::string& text, py::object rest) {
            // GLOBAL_STATE: the grad mode now (checked here) and the rest of the state (`rest`, a
            // predicate, or None).
            g.set_grad_mode(grad_mode_enabled());
            g.add(LeafGuard{LeafGuard::Kind::GlobalState, "GLOBAL_STATE", text, "", {}, std::move(rest), 0});
          },
          py::arg("text") = "___check_global_state()", py::arg("rest") = py::none())
      .def("add_no_aliasing",
           [](RootGuardManager& g, const std::vector<GM*>& nodes, const std::string& text) {
             IPT_CHECK(nodes.size() >= 2, ValueError, "add_no_aliasing() needs two nodes or more");
             // Shown on each tensor's node (the first with the check's text), checked at the root.
             for (size_t i = 0; i < nodes.size(); ++i)
               nodes[i]->add(
                   LeafGuard{LeafGuard::Kind::Shown, "NO_TENSOR_ALIASING", i == 0 ? text : "", "", {}, py::none(), 0});
             g.add_no_aliasing(nodes, text);
           })
      .def("add_size_relation",
           [](RootGuardManager& g, const std::vector<std::pair<GM*, int64_t>>& dims, int64_t min,
              const std::string& text) {
             g.add_size_relation({dims, min, text});
           })
      .def("check", [](RootGuardManager& g, py::dict locals,
                       py::dict globals) { return g.check_frame(locals.ptr(), globals.ptr(), false).empty(); })
      .def("check_verbose", [](RootGuardManager& g, py::dict locals,
                               py::dict globals) { return g.check_frame(locals.ptr(), globals.ptr(), true); })
      .def("check_failure",  // the first failure in parts (compile_id ""), or None when every guard holds
           [](RootGuardManager& g, py::dict locals, py::dict globals) -> py::object {
             FailedGuard f = g.check_frame_parts(locals.ptr(), globals.ptr());
             if (f.reason.empty()) return py::none();
             return py::cast(EntryFailure{"", std::move(f)});
           })
      .def("__str__", [](const RootGuardManager& g) { return g.tree(); });
}

}  // namespace ipt::python::dynamo
