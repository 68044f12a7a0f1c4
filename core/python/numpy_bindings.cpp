// Tensor.numpy() and torch.from_numpy(): NumPy arrays and CPU tensors sharing one buffer,
// as in PyTorch (a write through either is seen by the other).
#include <pybind11/numpy.h>

#include "core/python/bindings.h"
#include "core/dispatch/dispatch_key_set.h"
#include "core/tensor/tensor_trace.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

py::dtype numpy_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return py::dtype::of<bool>();
    case ScalarType::Byte: return py::dtype::of<uint8_t>();
    case ScalarType::Char: return py::dtype::of<int8_t>();
    case ScalarType::Short: return py::dtype::of<int16_t>();
    case ScalarType::Int: return py::dtype::of<int32_t>();
    case ScalarType::Long: return py::dtype::of<int64_t>();
    case ScalarType::Half: return py::dtype("float16");
    case ScalarType::BFloat16: break;  // numpy has no bfloat16; refused before this is reached
    case ScalarType::Float: return py::dtype::of<float>();
    case ScalarType::Double: return py::dtype::of<double>();
  }
  return py::dtype::of<float>();
}

std::optional<ScalarType> scalar_type_of(const py::dtype& d) {
  if (d.is(py::dtype::of<float>())) return ScalarType::Float;
  if (d.is(py::dtype::of<double>())) return ScalarType::Double;
  if (d.is(py::dtype::of<int64_t>())) return ScalarType::Long;
  if (d.is(py::dtype::of<bool>())) return ScalarType::Bool;
  const char k = d.kind();
  const auto size = d.itemsize();
  if (k == 'f' && size == 4) return ScalarType::Float;
  if (k == 'f' && size == 8) return ScalarType::Double;
  if (k == 'f' && size == 2) return ScalarType::Half;
  if (k == 'i' && size == 8) return ScalarType::Long;
  if (k == 'i' && size == 4) return ScalarType::Int;
  if (k == 'i' && size == 2) return ScalarType::Short;
  if (k == 'i' && size == 1) return ScalarType::Char;
  if (k == 'u' && size == 1) return ScalarType::Byte;
  if (k == 'b') return ScalarType::Bool;
  return std::nullopt;
}

}  // namespace

std::optional<ScalarType> numpy_scalar_type(py::handle dtype) {
  return scalar_type_of(py::reinterpret_borrow<py::dtype>(dtype));
}

void init_numpy(py::module_& m) {
  py::handle base(reinterpret_cast<PyObject*>(tensor_base_type()));
  base.attr("numpy") = py::cpp_function(
      [](py::handle self) {
        const Tensor& t = unpack(self.ptr());
        IPT_CHECK(t.device().type == DeviceType::CPU, TypeError, "can't convert ", t.device().str(),
                  " device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.");
        IPT_CHECK(!t.requires_grad(), RuntimeError,
                  "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
        IPT_CHECK(t.dtype() != ScalarType::BFloat16, TypeError, "Got unsupported ScalarType BFloat16");
        std::vector<py::ssize_t> shape(t.sizes().begin(), t.sizes().end()), strides;
        for (int64_t s : t.strides())
          strides.push_back(static_cast<py::ssize_t>(s * static_cast<int64_t>(element_size(t.dtype()))));
        // The array keeps the tensor object (and so its storage) alive.
        return py::array(numpy_dtype(t.dtype()), shape, strides, t.impl()->raw_data(), self);
      },
      py::name("numpy"), py::is_method(base));

  m.def("from_numpy", [](py::array a) {
    auto type = scalar_type_of(a.dtype());
    if (!type)
      throw py::type_error(
          "can't convert np.ndarray of type numpy." + std::string(py::str(a.dtype().attr("type").attr("__name__"))) +
          ". The only supported types are: float64, float32, float16, int64, int32, int16, int8, uint8 and bool.");
    const auto esize = static_cast<int64_t>(element_size(*type));
    std::vector<int64_t> sizes, strides;
    int64_t hi = 0;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) {
      sizes.push_back(a.shape(d));
      IPT_CHECK(
          a.strides(d) % esize == 0, ValueError,
          "given numpy array strides not a multiple of the element byte size. Copy the numpy array to reallocate the memory.");
      IPT_CHECK(
          a.strides(d) >= 0, ValueError,
          "At least one stride in the given numpy array is negative, and tensors with negative strides are not "
          "currently supported. (You can probably work around this by making a copy of your array  with array.copy().) ");
      strides.push_back(a.strides(d) / esize);
      if (a.shape(d) > 0) hi += (a.shape(d) - 1) * strides.back();
    }
    const size_t nbytes = a.size() == 0 ? 0 : static_cast<size_t>((hi + 1) * esize);
    // The storage holds a reference to the array; dropping it needs the GIL.
    PyObject* owner = a.ptr();
    Py_INCREF(owner);
    std::shared_ptr<void> hold(owner, [](void* o) {
      py::gil_scoped_acquire gil;
      Py_DECREF(static_cast<PyObject*>(o));
    });
    auto storage =
        std::make_shared<Storage>(const_cast<void*>(a.data()), nbytes, Device(DeviceType::CPU), std::move(hold));
    Tensor t(std::make_shared<TensorImpl>(std::move(storage), *type, sizes, strides, 0,
                                          std::make_shared<VersionCounter>(),
                                          tensor_key_set(BackendComponent::CPU, inference_mode_enabled())));
    trace_tensor(t, "torch.from_numpy");
    return t;
  });
}

}  // namespace ipt::python
