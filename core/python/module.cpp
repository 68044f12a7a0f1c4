// torch._C: the extension module the Python package `torch` is built on.
#include "core/python/bindings.h"
#include "core/python/generator_bindings.h"
#include "core/python/py_types.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

PyModuleDef g_def = {PyModuleDef_HEAD_INIT,
                     "torch._C",
                     "Inside PyTorch's C++ runtime, bound for Python.",
                     -1,
                     nullptr,
                     nullptr,
                     nullptr,
                     nullptr,
                     nullptr};

}  // namespace

PyObject* init_torch_c() {
  PyObject* raw = PyModule_Create(&g_def);
  if (!raw) return nullptr;
  try {
    auto m = py::reinterpret_steal<py::module_>(raw);
    py::register_exception_translator([](std::exception_ptr p) {
      try {
        if (p) std::rethrow_exception(p);
      } catch (...) {
        set_python_error_from_current_exception();
      }
    });
    install_warning_handler();
    init_tensor_type(m.ptr());
    init_value_types(m);
    init_type_promotion(m);
    init_dispatch(m);
    init_schema(m);
    init_autograd(m);
    init_runtime_control(m);
    init_generator(m);
    init_generated_functions(m);
    init_tensor_methods(m);  // after the generated ones: Tensor.item etc. are PyTorch's hand-written bindings
    init_tensor_new(m);
    init_numpy(m);
    init_autocast(m);
    init_cuda(m);
    dynamo::init_dynamo(m);
    return m.release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  } catch (...) {
    set_python_error_from_current_exception();
    return nullptr;
  }
}

}  // namespace ipt::python
