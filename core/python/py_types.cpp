// torch.dtype, torch.layout, torch.memory_format and torch.device as pybind11 classes.
#include "core/python/py_types.h"

#include <pybind11/operators.h>

#include "core/python/pybind.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

// One object per dtype, indexed by ScalarType (so `t.dtype is torch.int32` holds).
DtypeObj g_dtypes[kNumScalarTypes] = {
    {ScalarType::Bool}, {ScalarType::Byte}, {ScalarType::Char},     {ScalarType::Short}, {ScalarType::Int},
    {ScalarType::Long}, {ScalarType::Half}, {ScalarType::BFloat16}, {ScalarType::Float}, {ScalarType::Double}};
LayoutObj g_strided{Layout::Strided};
MemoryFormatObj g_formats[2] = {{MemoryFormat::Contiguous}, {MemoryFormat::Preserve}};

PyTypeObject* g_dtype_type = nullptr;
PyTypeObject* g_layout_type = nullptr;
PyTypeObject* g_format_type = nullptr;
PyTypeObject* g_device_type = nullptr;

template <typename T>
T* unpack_as(PyObject* o, PyTypeObject* type) {
  if (!type || !PyObject_TypeCheck(o, type)) return nullptr;
  return &py::reinterpret_borrow<py::object>(o).cast<T&>();
}

}  // namespace

PyObject* dtype_object(ScalarType t) {
  return py::cast(&g_dtypes[static_cast<int>(t)], py::return_value_policy::reference).release().ptr();
}

std::optional<ScalarType> as_dtype(PyObject* o) {
  if (auto* d = unpack_as<DtypeObj>(o, g_dtype_type)) return d->type;
  return std::nullopt;
}
std::optional<Layout> as_layout(PyObject* o) {
  if (auto* l = unpack_as<LayoutObj>(o, g_layout_type)) return l->layout;
  return std::nullopt;
}
std::optional<MemoryFormat> as_memory_format(PyObject* o) {
  if (auto* f = unpack_as<MemoryFormatObj>(o, g_format_type)) return f->format;
  return std::nullopt;
}
// torch.device("cuda") has no index (PyTorch prints device(type='cuda') and compares it unequal to
// cuda:0); where a tensor is placed on it, the index is the current device's, 0 here.
std::optional<Device> as_device(PyObject* o) {
  if (auto* d = unpack_as<DeviceObj>(o, g_device_type)) {
    Device dev = d->device;
    if (dev.type == DeviceType::CUDA && dev.index < 0) dev.index = 0;
    return dev;
  }
  return std::nullopt;
}
PyObject* device_object(Device d) { return py::cast(DeviceObj{d}).release().ptr(); }

void init_value_types(py::module_& m) {
  auto dtype = py::class_<DtypeObj>(m, "dtype")
                   .def("__repr__", [](const DtypeObj& d) { return dtype_repr(d.type); })
                   .def("__reduce__", [](const DtypeObj& d) { return std::string(dtype_short_name(d.type)); })
                   .def_property_readonly("is_floating_point", [](const DtypeObj& d) { return is_floating(d.type); })
                   .def_property_readonly("is_complex", [](const DtypeObj&) { return false; })
                   .def_property_readonly("is_signed", [](const DtypeObj& d) { return is_signed(d.type); })
                   .def_property_readonly("itemsize", [](const DtypeObj& d) { return element_size(d.type); });
  g_dtype_type = reinterpret_cast<PyTypeObject*>(dtype.ptr());
  for (const DtypeObj& d : g_dtypes)
    m.attr(("_dtype_" + std::string(dtype_short_name(d.type))).c_str()) =
        py::reinterpret_steal<py::object>(dtype_object(d.type));

  auto layout = py::class_<LayoutObj>(m, "layout").def("__repr__", [](const LayoutObj&) { return "torch.strided"; });
  g_layout_type = reinterpret_cast<PyTypeObject*>(layout.ptr());
  m.attr("_strided") = py::cast(&g_strided, py::return_value_policy::reference);

  auto fmt = py::class_<MemoryFormatObj>(m, "memory_format").def("__repr__", [](const MemoryFormatObj& f) {
    return f.format == MemoryFormat::Contiguous ? "torch.contiguous_format" : "torch.preserve_format";
  });
  g_format_type = reinterpret_cast<PyTypeObject*>(fmt.ptr());
  m.attr("_contiguous_format") = py::cast(&g_formats[0], py::return_value_policy::reference);
  m.attr("_preserve_format") = py::cast(&g_formats[1], py::return_value_policy::reference);

  auto device = py::class_<DeviceObj>(m, "device")
                    .def(py::init([](py::object spec, py::object index) {
                           Device d;
                           if (auto* existing = unpack_as<DeviceObj>(spec.ptr(), g_device_type)) return *existing;
                           if (PyLong_Check(spec.ptr())) return DeviceObj{Device(DeviceType::CUDA, spec.cast<int>())};
                           if (!PyUnicode_Check(spec.ptr()))
                             throw py::type_error("device() received an invalid combination of arguments");
                           const std::string text = spec.cast<std::string>();
                           try {
                             d = Device::parse(text);
                           } catch (const Error& e) {
                             throw std::runtime_error(e.what());
                           }
                           if (text == "cuda") d.index = -1;  // no index, as PyTorch's
                           if (!index.is_none()) {
                             if (d.index >= 0)
                               throw std::runtime_error(
                                   "type (string) must not include an index because index was passed explicitly: " +
                                   spec.cast<std::string>());
                             d.index = index.cast<int>();
                           }
                           return DeviceObj{d};
                         }),
                         py::arg("type"), py::arg("index") = py::none())
                    .def_property_readonly("type",
                                           [](const DeviceObj& d) {
                                             std::string s = d.device.str();
                                             return s.substr(0, s.find(':'));
                                           })
                    .def_property_readonly("index",
                                           [](const DeviceObj& d) -> py::object {
                                             if (d.device.index < 0) return py::none();
                                             return py::int_(d.device.index);
                                           })
                    .def("__str__", [](const DeviceObj& d) { return d.device.str(); })
                    .def("__repr__",
                         [](const DeviceObj& d) {
                           std::string s = d.device.str();
                           std::string type = s.substr(0, s.find(':'));
                           std::string r = "device(type='" + type + "'";
                           if (d.device.index >= 0) r += ", index=" + std::to_string(d.device.index);
                           return r + ")";
                         })
                    .def("__eq__",
                         [](const DeviceObj& a, py::object b) {
                           auto* o = unpack_as<DeviceObj>(b.ptr(), g_device_type);
                           return o && o->device == a.device;
                         })
                    .def("__hash__", [](const DeviceObj& d) { return std::hash<std::string>()(d.device.str()); });
  g_device_type = reinterpret_cast<PyTypeObject*>(device.ptr());
}

}  // namespace ipt::python
