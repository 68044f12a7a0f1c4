// torch.promote_types, torch.result_type and torch.can_cast: the type promotion rules the
// operators follow (core/ops/shape_rules.h), asked directly, with PyTorch's signatures.
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/python/arg_parser.h"
#include "core/python/bindings.h"
#include "core/python/py_types.h"

namespace ipt::python {

namespace {

PyObject* promote_types_py(PyObject*, PyObject* args, PyObject* kwargs) {
  IPT_PY_BEGIN
  static const PythonArgParser parser({"promote_types(ScalarType type1, ScalarType type2)"});
  PyObject* parsed[2] = {};
  PythonArgs r = parser.parse(nullptr, args, kwargs, parsed);
  return dtype_object(promote_types(*r.scalartype(0), *r.scalartype(1)));
  IPT_PY_END
}

PyObject* can_cast_py(PyObject*, PyObject* args, PyObject* kwargs) {
  IPT_PY_BEGIN
  static const PythonArgParser parser({"can_cast(ScalarType from_, ScalarType to)"});
  PyObject* parsed[2] = {};
  PythonArgs r = parser.parse(nullptr, args, kwargs, parsed);
  return PyBool_FromLong(can_cast(*r.scalartype(0), *r.scalartype(1)));
  IPT_PY_END
}

PyObject* result_type_py(PyObject*, PyObject* args, PyObject* kwargs) {
  IPT_PY_BEGIN
  static const PythonArgParser parser({
      "result_type(Tensor tensor, Tensor other)",
      "result_type(Scalar scalar, Tensor tensor)",
      "result_type(Tensor tensor, Scalar other)",
      "result_type(Scalar scalar1, Scalar scalar2)",
  });
  PyObject* parsed[2] = {};
  PythonArgs r = parser.parse(nullptr, args, kwargs, parsed);
  // A Python number takes part as a wrapped number, below every tensor of its category.
  auto operand = [&](int i, bool number) { return number ? native::wrapped_scalar_tensor(r.scalar(i)) : r.tensor(i); };
  const Tensor a = operand(0, r.idx == 1 || r.idx == 3), b = operand(1, r.idx >= 2);
  return dtype_object(result_type({&a, &b}));
  IPT_PY_END
}

PyMethodDef g_methods[] = {
    {"promote_types", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(promote_types_py)),
     METH_VARARGS | METH_KEYWORDS, nullptr},
    {"can_cast", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(can_cast_py)), METH_VARARGS | METH_KEYWORDS,
     nullptr},
    {"result_type", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(result_type_py)),
     METH_VARARGS | METH_KEYWORDS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void init_type_promotion(pybind11::module_& m) {
  for (PyMethodDef* d = g_methods; d->ml_name; ++d) {
    PyObject* f = PyCFunction_NewEx(d, nullptr, nullptr);
    if (!f || PyModule_AddObject(m.ptr(), d->ml_name, f) < 0) {
      Py_XDECREF(f);
      throw pybind11::error_already_set();
    }
  }
}

}  // namespace ipt::python
