#include "core/python/tensor_object.h"

#include <Python.h>
#include <structmember.h>

#include <new>

#include "core/python/pybind.h"

namespace ipt::python {

namespace {

PyTypeObject* g_base = nullptr;          // torch._C._TensorBase
PyTypeObject* g_tensor_class = nullptr;  // torch.Tensor (strong reference once set)

int tensor_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(reinterpret_cast<PyTensor*>(self)->dict);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

int tensor_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<PyTensor*>(self)->dict);
  return 0;
}

void tensor_dealloc(PyObject* self) {
  auto* p = reinterpret_cast<PyTensor*>(self);
  PyTypeObject* tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (p->weakrefs) PyObject_ClearWeakRefs(self);
  tensor_clear(self);
  if (p->t.defined() && p->t.impl()->pyobj() == self) p->t.impl()->set_pyobj(nullptr);
  p->t.~Tensor();
  tp->tp_free(self);
  Py_DECREF(tp);
}

PyObject* tensor_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_SetString(PyExc_TypeError, "cannot create torch._C._TensorBase instances directly; use torch.tensor()");
  return nullptr;
}

PyMemberDef tensor_members[] = {{"__dictoffset__", T_PYSSIZET, offsetof(PyTensor, dict), READONLY, nullptr},
                                {"__weaklistoffset__", T_PYSSIZET, offsetof(PyTensor, weakrefs), READONLY, nullptr},
                                {nullptr, 0, 0, 0, nullptr}};

PyType_Slot tensor_slots[] = {{Py_tp_dealloc, reinterpret_cast<void*>(tensor_dealloc)},
                              {Py_tp_traverse, reinterpret_cast<void*>(tensor_traverse)},
                              {Py_tp_clear, reinterpret_cast<void*>(tensor_clear)},
                              {Py_tp_new, reinterpret_cast<void*>(tensor_new)},
                              {Py_tp_members, tensor_members},
                              {Py_tp_doc, const_cast<char*>("The C part of torch.Tensor: one runtime tensor handle.")},
                              {0, nullptr}};

PyType_Spec tensor_spec = {"torch._C._TensorBase", sizeof(PyTensor), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, tensor_slots};

}  // namespace

PyTypeObject* tensor_base_type() { return g_base; }

void init_tensor_type(PyObject* module) {
  if (!g_base) g_base = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&tensor_spec));
  if (!g_base) throw pybind11::error_already_set();
  Py_INCREF(g_base);
  PyModule_AddObject(module, "_TensorBase", reinterpret_cast<PyObject*>(g_base));
  pybind11::module_ m = pybind11::reinterpret_borrow<pybind11::module_>(module);
  m.def("_set_tensor_class", [](pybind11::object cls) {
    if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), g_base))
      throw pybind11::type_error("_set_tensor_class: expected a subclass of torch._C._TensorBase");
    Py_XDECREF(g_tensor_class);
    g_tensor_class = reinterpret_cast<PyTypeObject*>(cls.release().ptr());
  });
}

PyObject* wrap_as(Tensor t, PyTypeObject* cls) {
  if (!t.defined()) Py_RETURN_NONE;
  if (auto* existing = static_cast<PyObject*>(t.impl()->pyobj())) {
    Py_INCREF(existing);
    return existing;
  }
  PyObject* obj = cls->tp_alloc(cls, 0);
  if (!obj) throw pybind11::error_already_set();
  auto* p = reinterpret_cast<PyTensor*>(obj);
  new (&p->t) Tensor(std::move(t));
  p->dict = nullptr;
  p->weakrefs = nullptr;
  p->t.impl()->set_pyobj(obj);
  return obj;
}

PyObject* wrap(Tensor t) { return wrap_as(std::move(t), g_tensor_class ? g_tensor_class : g_base); }

}  // namespace ipt::python
