#pragma once
// pybind11 with the project's conversions: ipt::Tensor <-> its one Python object (see
// Note [One Python object per tensor]), and the error translation every binding uses.
//
// Note [C++ errors become Python exceptions]
// A binding never lets a C++ exception reach CPython. ipt::Error carries the Python kind
// PyTorch raises for the same mistake (RuntimeError, IndexError, TypeError, ValueError,
// NotImplementedError); std::bad_alloc becomes MemoryError; any other std::exception a
// RuntimeError. IPT_PY_BEGIN / IPT_PY_END wrap the raw PyCFunction bindings; the pybind11
// ones get the same mapping from a registered exception translator.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/python/tensor_object.h"
#include "core/util/error.h"

namespace ipt::python {

// Sets the Python error for the exception being handled (call inside a catch block).
void set_python_error_from_current_exception();
PyObject* python_exception_type(ErrorKind k);
// Makes the runtime's warnings (IPT_WARN) Python UserWarnings.
void install_warning_handler();

}  // namespace ipt::python

#define IPT_PY_BEGIN try {
#define IPT_PY_END                                            \
  }                                                           \
  catch (...) {                                               \
    ::ipt::python::set_python_error_from_current_exception(); \
    return nullptr;                                           \
  }

namespace pybind11::detail {
template <>
struct type_caster<ipt::Tensor> {
  PYBIND11_TYPE_CASTER(ipt::Tensor, const_name("Tensor"));
  bool load(handle src, bool) {
    if (!ipt::python::is_tensor_object(src.ptr())) return false;
    value = ipt::python::unpack(src.ptr());
    return true;
  }
  static handle cast(const ipt::Tensor& t, return_value_policy, handle) { return ipt::python::wrap(t); }
};
}  // namespace pybind11::detail
