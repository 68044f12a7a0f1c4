#pragma once
// The small value types of torch._C: dtype, layout, memory_format and device objects.
// dtype, layout and memory_format objects are singletons (`t.dtype is torch.float32`).

#include <Python.h>

#include <optional>

#include "core/tensor/device.h"
#include "core/tensor/scalar_type.h"
#include "core/tensor/tensor_options.h"

namespace pybind11 {
class module_;
}

namespace ipt::python {

struct DtypeObj {
  ScalarType type;
};
struct LayoutObj {
  Layout layout;
};
struct MemoryFormatObj {
  MemoryFormat format;
};
struct DeviceObj {
  Device device;
};

void init_value_types(pybind11::module_& m);

PyObject* dtype_object(ScalarType t);  // new reference to the singleton
std::optional<ScalarType> as_dtype(PyObject* o);
std::optional<Layout> as_layout(PyObject* o);
std::optional<MemoryFormat> as_memory_format(PyObject* o);
// torch.device, "cuda:0", or an int (a CUDA device index), as PyTorch accepts.
std::optional<Device> as_device(PyObject* o);
PyObject* device_object(Device d);

}  // namespace ipt::python
