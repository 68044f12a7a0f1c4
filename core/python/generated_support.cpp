#include "core/python/generated_support.h"

namespace ipt::python {

PyObject* to_py(const Scalar& s) {
  if (s.is_bool()) return PyBool_FromLong(s.to_bool());
  if (s.is_floating()) return PyFloat_FromDouble(s.to_double());
  return PyLong_FromLongLong(s.to_long());
}

PyObject* to_py(const std::vector<Tensor>& v) {
  PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), wrap(v[i]));
  return out;
}

PyObject* finish_factory(Tensor t, bool requires_grad) {
  if (requires_grad) {
    IPT_CHECK(is_floating(t.dtype()), RuntimeError,
              "Only Tensors of floating point and complex dtype can require gradients");
    t.impl()->set_requires_grad(true);
  }
  return wrap(std::move(t));
}

PyObject* type_error_to_not_implemented(PyObject* result) {
  if (!result && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    Py_RETURN_NOTIMPLEMENTED;
  }
  return result;
}

void add_function_module(pybind11::module_& m, const char* name, PyMethodDef* defs) {
  std::string full = std::string("torch._C.") + name;
  PyObject* mod = PyModule_New(full.c_str());
  if (!mod || PyModule_AddFunctions(mod, defs) < 0) throw pybind11::error_already_set();
  PyModule_AddObject(m.ptr(), name, mod);
}

void add_tensor_methods(PyMethodDef* defs) {
  auto* type = tensor_base_type();
  for (PyMethodDef* d = defs; d->ml_name; ++d) {
    PyObject* descr = PyDescr_NewMethod(type, d);
    if (!descr || PyObject_SetAttrString(reinterpret_cast<PyObject*>(type), d->ml_name, descr) < 0)
      throw pybind11::error_already_set();
    Py_DECREF(descr);
  }
}

}  // namespace ipt::python
