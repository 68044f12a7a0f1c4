#pragma once
// What the generated bindings (build/generated/python_functions.cpp) call: the argument
// parser, result conversion, the factory guard and the tables that install the bindings.

#include <tuple>
#include <vector>

#include "core/dispatch/local_dispatch_key_set.h"
#include "core/ops/scalar_tensor.h"
#include "core/python/arg_parser.h"
#include "core/python/pybind.h"
#include "core/tensor/scalar.h"

namespace ipt::python {

inline PyObject* to_py(Tensor t) { return wrap(std::move(t)); }
inline PyObject* to_py(bool b) { return PyBool_FromLong(b); }
inline PyObject* to_py(int64_t v) { return PyLong_FromLongLong(v); }
inline PyObject* to_py(double v) { return PyFloat_FromDouble(v); }
PyObject* to_py(const Scalar& s);
PyObject* to_py(const std::vector<Tensor>& v);  // a tuple, as PyTorch returns Tensor[]
template <typename... T>
PyObject* to_py(const std::tuple<T...>& t) {
  PyObject* out = PyTuple_New(sizeof...(T));
  size_t i = 0;
  std::apply([&](const auto&... x) { ((PyTuple_SET_ITEM(out, i++, to_py(x))), ...); }, t);
  return out;
}

// Note [Python factories run below ADInplaceOrView]
// Like torch::ones and friends (variable_factories.h), the Python-level factories build
// their tensor with the Autograd and ADInplaceOrView keys excluded, so the fill_ inside
// ones() is neither an autograd operation nor a version bump; requires_grad is set after.
struct FactoryGuard {
  ExcludeDispatchKeyGuard g{keysets::autograd_dispatch_keyset | DispatchKeySet(Functionality::ADInplaceOrView)};
};
PyObject* finish_factory(Tensor t, bool requires_grad);

// A binary dunder's TypeError becomes NotImplemented (Python then tries the other operand).
PyObject* type_error_to_not_implemented(PyObject* result);

// torch.return_types.<name>: a structseq with these fields (PyTorch's named-tuple returns).
struct ReturnTypeDef {
  const char* name;
  std::vector<const char*> fields;
};
// Creates the types as torch._C._return_types.<name> (torch.return_types re-exports them).
void add_return_types(pybind11::module_& m, const ReturnTypeDef* defs);
// Steals `tuple`; returns an instance of the return type `name`.
PyObject* to_named_tuple(const char* name, PyObject* tuple);

void add_function_module(pybind11::module_& m, const char* name, PyMethodDef* defs);
void add_tensor_methods(PyMethodDef* defs);

}  // namespace ipt::python
