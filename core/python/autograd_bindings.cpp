// Autograd from Python: backward nodes as Python objects (one Python type per node name,
// as PyTorch has AddBackward0 and friends), backward(), grad mode and inference mode, and
// the graph node behind torch.autograd.Function (see python/torch/autograd/function.py).
#include <Python.h>
#include <structmember.h>

#include <deque>
#include <functional>
#include <map>
#include <unordered_map>

#include "core/autograd/engine.h"
#include "core/autograd/node.h"
#include "core/autograd/recording.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/python/arg_parser.h"
#include "core/python/bindings.h"
#include "generated/ops.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

struct PyNode {
  PyObject_HEAD std::shared_ptr<autograd::Node> fn;
  PyObject* weakrefs;
};

PyTypeObject* g_node_base = nullptr;
std::unordered_map<const autograd::Node*, PyObject*> g_live_nodes;  // Note [One Python object per tensor], for nodes
std::map<std::string, PyTypeObject*> g_node_types;
std::deque<std::string> g_type_names;  // PyType_Spec keeps a pointer to its name

void node_dealloc(PyObject* self) {
  auto* p = reinterpret_cast<PyNode*>(self);
  PyTypeObject* tp = Py_TYPE(self);
  if (p->weakrefs) PyObject_ClearWeakRefs(self);
  g_live_nodes.erase(p->fn.get());
  p->fn.~shared_ptr();
  tp->tp_free(self);
  Py_DECREF(tp);
}

// <AddBackward0 object at 0x...>, as PyTorch prints its nodes.
PyObject* node_repr(PyObject* self) {
  PyObject* name = PyType_GetName(Py_TYPE(self));
  if (!name) return nullptr;
  PyObject* r = PyUnicode_FromFormat("<%U object at %p>", name, self);
  Py_DECREF(name);
  return r;
}

PyMemberDef node_members[] = {{"__weaklistoffset__", T_PYSSIZET, offsetof(PyNode, weakrefs), READONLY, nullptr},
                              {nullptr, 0, 0, 0, nullptr}};
PyType_Slot node_slots[] = {{Py_tp_dealloc, reinterpret_cast<void*>(node_dealloc)},
                            {Py_tp_repr, reinterpret_cast<void*>(node_repr)},
                            {Py_tp_members, node_members},
                            {0, nullptr}};

PyTypeObject* node_type(const std::string& name) {
  auto it = g_node_types.find(name);
  if (it != g_node_types.end()) return it->second;
  g_type_names.push_back("builtins." + name);  // __module__ "builtins": repr reads <AddBackward0 object at 0x...>
  PyType_Slot slots[] = {{0, nullptr}};
  PyType_Spec spec = {g_type_names.back().c_str(), sizeof(PyNode), 0, Py_TPFLAGS_DEFAULT, slots};
  PyObject* bases = PyTuple_Pack(1, reinterpret_cast<PyObject*>(g_node_base));
  auto* tp = reinterpret_cast<PyTypeObject*>(PyType_FromSpecWithBases(&spec, bases));
  Py_DECREF(bases);
  if (!tp) throw py::error_already_set();
  g_node_types[name] = tp;
  return tp;
}

const std::shared_ptr<autograd::Node>& unpack_node(py::handle h) {
  if (!PyObject_TypeCheck(h.ptr(), g_node_base)) throw py::type_error("expected a backward node");
  return reinterpret_cast<PyNode*>(h.ptr())->fn;
}

// The node of a torch.autograd.Function: its backward is the Python class's backward.
class PythonFunctionNode : public autograd::Node {
 public:
  PythonFunctionNode(std::string name, py::object backward, size_t num_outputs)
      : name_(std::move(name)), backward_(std::move(backward)), num_outputs_(num_outputs) {}
  ~PythonFunctionNode() override {
    py::gil_scoped_acquire gil;
    backward_ = py::object();
  }
  const char* name() const override { return name_.c_str(); }
  uint32_t num_outputs() const override { return static_cast<uint32_t>(num_outputs_); }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override {
    py::gil_scoped_acquire gil;
    py::tuple args(grads.size());
    for (size_t i = 0; i < grads.size(); ++i) args[i] = py::cast(grads[i]);
    py::object r = backward_(*args);
    if (!PyTuple_Check(r.ptr())) r = py::make_tuple(r);
    auto t = py::reinterpret_borrow<py::tuple>(r);
    IPT_CHECK(t.size() >= next_edges.size(), RuntimeError, "function ", name_,
              " returned an incorrect number of gradients (expected ", next_edges.size(), ", got ", t.size(), ")");
    std::vector<Tensor> out(next_edges.size());
    for (size_t i = 0; i < next_edges.size(); ++i)
      if (!t[i].is_none()) out[i] = t[i].cast<Tensor>();
    return out;
  }
  // Without retain_graph: the Python side then refuses a second backward, as PyTorch does.
  void release_variables() override {
    py::gil_scoped_acquire gil;
    if (py::hasattr(backward_, "release")) backward_.attr("release")();
  }

 private:
  std::string name_;
  py::object backward_;
  size_t num_outputs_;
};

template <typename Guard>
struct ScopedGuard {
  std::function<std::unique_ptr<Guard>()> make;
  std::vector<std::unique_ptr<Guard>> active;
  void enter() { active.push_back(make()); }
  void exit() {
    if (!active.empty()) active.pop_back();
  }
};

}  // namespace

std::string node_display_name(const autograd::Node& fn) {
  // The C++-named nodes (AccumulateGrad, CopySlices) show their class name, as in PyTorch.
  std::string n = fn.name();
  const std::string prefix = "torch::autograd::";
  return n.rfind(prefix, 0) == 0 ? n.substr(prefix.size()) : n;
}

py::object node_object(const std::shared_ptr<autograd::Node>& fn) {
  if (!fn) return py::none();
  if (auto it = g_live_nodes.find(fn.get()); it != g_live_nodes.end())
    return py::reinterpret_borrow<py::object>(it->second);
  PyTypeObject* tp = node_type(node_display_name(*fn));
  PyObject* obj = tp->tp_alloc(tp, 0);
  if (!obj) throw py::error_already_set();
  auto* p = reinterpret_cast<PyNode*>(obj);
  new (&p->fn) std::shared_ptr<autograd::Node>(fn);
  p->weakrefs = nullptr;
  g_live_nodes[fn.get()] = obj;
  return py::reinterpret_steal<py::object>(obj);
}

void init_autograd(py::module_& m) {
  PyType_Spec spec = {"torch._C._FunctionBase", sizeof(PyNode), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
                      node_slots};
  g_node_base = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!g_node_base) throw py::error_already_set();
  py::handle base(reinterpret_cast<PyObject*>(g_node_base));
  m.attr("_FunctionBase") = base;
  auto method = [&](const char* name, auto&& f) {
    base.attr(name) = py::cpp_function(f, py::name(name), py::is_method(base));
  };
  static py::object property = py::module_::import("builtins").attr("property");
  method("name", [](py::handle self) { return std::string(unpack_node(self)->name()); });
  base.attr("next_functions") = property(py::cpp_function([](py::handle self) {
    const auto& fn = unpack_node(self);
    py::tuple out(fn->next_edges.size());
    for (size_t i = 0; i < fn->next_edges.size(); ++i) {
      const auto& e = fn->next_edges[i];
      out[i] = py::make_tuple(node_object(e.fn), e.input_nr);
    }
    return out;
  }));
  base.attr("variable") = property(py::cpp_function([](py::handle self) -> py::object {
    if (auto* acc = dynamic_cast<autograd::AccumulateGrad*>(unpack_node(self).get()))
      if (auto v = acc->variable()) return py::cast(Tensor(v));
    throw py::attribute_error("'" + std::string(Py_TYPE(self.ptr())->tp_name) + "' object has no attribute 'variable'");
  }));

  m.def(
      "_backward",
      [](const Tensor& root, py::object gradient, bool retain_graph, bool create_graph) {
        std::optional<Tensor> g;
        if (!gradient.is_none()) g = gradient.cast<Tensor>();
        autograd::backward(root, g, retain_graph, create_graph);
      },
      py::arg("root"), py::arg("gradient"), py::arg("retain_graph"), py::arg("create_graph") = false);
  m.def("_autograd_grad", [](std::vector<Tensor> outputs, py::sequence grad_outputs, std::vector<Tensor> inputs,
                             bool retain_graph, bool allow_unused, bool create_graph) {
    std::vector<std::optional<Tensor>> gs;
    for (auto h : grad_outputs) {
      if (h.is_none()) gs.emplace_back(std::nullopt);
      else gs.emplace_back(h.cast<Tensor>());
    }
    std::vector<Tensor> r = autograd::grad(outputs, gs, inputs, retain_graph, allow_unused, create_graph);
    py::tuple out(r.size());
    for (size_t i = 0; i < r.size(); ++i) out[i] = py::cast(r[i]);
    return out;
  });
  // Tensor.register_hook keeps its hooks in an OrderedDict (so a RemovableHandle can delete
  // one); the runtime holds one hook per tensor that calls the dict's hooks in order, each on
  // the previous one's result, as PyTorch's hook dict does.
  m.def("_register_hook_dict", [](const Tensor& t, py::object hooks) {
    autograd::add_grad_hook(t, [hooks](const Tensor& grad) -> Tensor {
      py::gil_scoped_acquire gil;
      Tensor cur = grad;
      bool changed = false;
      for (py::handle hook : py::list(hooks.attr("values")())) {
        py::object r = hook(py::cast(cur));
        if (r.is_none()) continue;
        if (!is_tensor_object(r.ptr()))
          throw py::type_error("expected Tensor or None (got " + py_type_name(r.ptr()) + ")");
        const Tensor& next = unpack(r.ptr());
        if (next.sizes() != cur.sizes()) {
          py::object name = py::getattr(hook, "__name__", py::str(hook));
          IPT_FAIL(RuntimeError, "hook '", std::string(py::str(name)), "' has changed the size of value");
        }
        cur = next;
        changed = true;
      }
      return changed ? cur : Tensor();
    });
  });
  m.def("is_grad_enabled", [] { return grad_mode_enabled(); });
  m.def("_set_grad_enabled", [](bool on) { set_grad_mode_enabled(on); });
  m.def("is_inference_mode_enabled", [] { return inference_mode_enabled(); });

  using Inference = ScopedGuard<InferenceModeGuard>;
  py::class_<Inference>(m, "_InferenceMode")
      .def(py::init([](bool mode) {
        return Inference{[mode] { return std::make_unique<InferenceModeGuard>(mode); }, {}};
      }))
      .def("__enter__", [](Inference& g) { g.enter(); })
      .def("__exit__", [](Inference& g, py::args) {
        g.exit();
        return false;
      });

  // _make_python_node(name, backward, inputs, outputs): see python/torch/autograd/function.py.
  m.def(
      "_make_python_node",
      [](const std::string& name, py::object backward, py::sequence inputs, py::sequence outputs, py::object dirty) {
        std::vector<Tensor> ins;
        for (auto h : inputs)
          if (is_tensor_object(h.ptr())) ins.push_back(unpack(h.ptr()));
        std::vector<const Tensor*> ptrs;
        for (const auto& t : ins) ptrs.push_back(&t);
        auto node = std::make_shared<PythonFunctionNode>(name, std::move(backward), py::len(outputs));
        node->next_edges = autograd::collect_next_edges(ptrs);
        py::list result;
        uint32_t nr = 0;
        for (auto h : outputs) {
          if (!is_tensor_object(h.ptr())) {
            result.append(h);
            continue;
          }
          Tensor out = unpack(h.ptr());
          const bool is_dirty = !dirty.is_none() && py::len(dirty) > nr && dirty[py::int_(nr)].cast<bool>();
          bool is_input = false;
          for (const auto& in : ins) is_input |= in.is_same(out);
          if (is_dirty) out.impl()->bump_version();
          else if (is_input || !autograd::is_leaf(out) || out.requires_grad()) out = ops::alias(out);
          out.impl()->set_requires_grad(false);
          autograd::set_history(out, node, nr);
          if (nr == 0) autograd::record_node_created(*node, out);
          ++nr;
          result.append(py::cast(out));
        }
        return py::tuple(result);
      },
      py::arg("name"), py::arg("backward"), py::arg("inputs"), py::arg("outputs"), py::arg("dirty") = py::none());
}

}  // namespace ipt::python
