// See Note [C++ errors become Python exceptions] in pybind.h and Note [Warnings reach Python
// as warnings] in core/util/warning.h.
#include <cstdio>
#include <new>

#include "core/python/pybind.h"
#include "core/util/warning.h"

namespace ipt::python {

PyObject* python_exception_type(ErrorKind k) {
  switch (k) {
    case ErrorKind::RuntimeError: return PyExc_RuntimeError;
    case ErrorKind::IndexError: return PyExc_IndexError;
    case ErrorKind::TypeError: return PyExc_TypeError;
    case ErrorKind::ValueError: return PyExc_ValueError;
    case ErrorKind::NotImplementedError: return PyExc_NotImplementedError;
    case ErrorKind::KeyboardInterrupt: return PyExc_KeyboardInterrupt;
    case ErrorKind::RecursionError: return PyExc_RecursionError;
  }
  return PyExc_RuntimeError;
}

void set_python_error_from_current_exception() {
  try {
    throw;
  } catch (pybind11::error_already_set& e) {
    e.restore();
  } catch (const pybind11::builtin_exception& e) {
    e.set_error();
  } catch (const Error& e) {
    PyErr_SetString(python_exception_type(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    PyErr_SetString(PyExc_MemoryError, "out of memory");
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
  }
}

namespace {
// warnings.warn(message, UserWarning or DeprecationWarning) from the operation's caller, as
// PyTorch's PyWarningHandler maps c10's warning types; an error a filter makes of it propagates
// out of the operation. Without the GIL (a worker thread) it goes to stderr.
void warn_in_python(const std::string& message, WarningKind kind) {
  if (!PyGILState_Check()) {
    std::fprintf(stderr, "Warning: %s\n", message.c_str());
    return;
  }
  PyObject* category = kind == WarningKind::DeprecationWarning ? PyExc_DeprecationWarning : PyExc_UserWarning;
  if (PyErr_WarnEx(category, message.c_str(), 1) < 0) throw pybind11::error_already_set();
}
}  // namespace

void install_warning_handler() { set_warning_handler(warn_in_python); }

}  // namespace ipt::python
