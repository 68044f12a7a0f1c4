// torch._C's autocast state: the functions torch.autocast's __enter__/__exit__ call
// (torch.set_autocast_enabled('cpu', ...), torch.get_autocast_dtype('cpu'), ...), with PyTorch 2.15's
// names, and the older per-device functions it deprecates.
#include <optional>
#include <string>

#include "core/ops/autocast.h"
#include "core/python/bindings.h"
#include "core/python/py_types.h"
#include "core/util/error.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

ScalarType dtype_arg(py::handle o) {
  auto t = as_dtype(o.ptr());
  IPT_CHECK(t.has_value(), TypeError, "dtype must be a torch.dtype (got ",
            std::string(py::str(py::type::of(o).attr("__name__"))), ")");
  return *t;
}

py::object dtype_obj(ScalarType t) { return py::reinterpret_steal<py::object>(dtype_object(t)); }

}  // namespace

// Note [Autocast's device names and deprecated functions]
// PyTorch 2.15 names the device of every autocast function: torch.is_autocast_enabled('cpu'),
// torch.get_autocast_dtype('cuda'), torch.set_autocast_enabled('cpu', True) (without a name,
// is_autocast_enabled() and set_autocast_enabled(b) still mean CUDA). A name is parsed as
// c10::Device parses a device type, so "tpu" is refused with its message. This runtime has
// autocast state for CPU and CUDA only; the other device types 2.15 knows report autocast as
// off and unavailable. The older per-device functions (is_autocast_cpu_enabled, ...) still work
// and raise 2.15's DeprecationWarning; its text ends with the place in PyTorch's own build that
// raises it, as 2.15 prints it.
namespace {

// c10's device type names, in the order its parse error lists them.
constexpr const char* kDeviceTypeNames[] = {"cpu",    "cuda", "ipu",  "xpu",  "mkldnn", "opengl",       "opencl",
                                            "ideep",  "hip",  "ve",   "fpga", "maia",   "xla",          "lazy",
                                            "vulkan", "mps",  "meta", "hpu",  "mtia",   "privateuseone"};

// The device an autocast function was asked about: CPU or CUDA, or nullopt for a device type
// 2.15 knows but this runtime has no autocast for.
std::optional<DeviceType> autocast_device(const std::string& name) {
  bool known = false;
  for (const char* n : kDeviceTypeNames) known = known || name == n;
  if (!known) {
    std::string list;
    for (const char* n : kDeviceTypeNames) list += std::string(list.empty() ? "" : ", ") + n;
    IPT_FAIL(RuntimeError, "Expected one of ", list, " device type at start of device string: ", name);
  }
  if (name == "cpu") return DeviceType::CPU;
  if (name == "cuda") return DeviceType::CUDA;
  return std::nullopt;
}

std::string device_type_arg(py::handle o, const char* fn) {
  if (!py::isinstance<py::str>(o))
    IPT_FAIL(TypeError, fn, "(): argument 'device_type' (position 1) must be str, not ",
             std::string(py::str(py::type::of(o).attr("__name__"))));
  return o.cast<std::string>();
}

DeviceType supported_device(const std::string& name) {
  auto d = autocast_device(name);
  IPT_CHECK(d.has_value(), RuntimeError, "User specified an unsupported autocast device_type '", name, "'");
  return *d;
}

void deprecated(const char* old_call, const char* new_call, int line) {
  std::string msg =
      std::string("torch.") + old_call + " is deprecated. Please use torch." + new_call +
      " instead. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:" + std::to_string(line) +
      ".)";
  if (PyErr_WarnEx(PyExc_DeprecationWarning, msg.c_str(), 1) != 0) throw py::error_already_set();
}

}  // namespace

void init_autocast(py::module_& m) {
  using autocast::is_enabled;
  m.def(
      "is_autocast_enabled",
      [](py::object device_type) {
        if (device_type.is_none()) return is_enabled(DeviceType::CUDA);
        auto d = autocast_device(device_type_arg(device_type, "is_autocast_enabled"));
        return d ? is_enabled(*d) : false;
      },
      py::arg("device_type") = py::none());
  m.def(
      "set_autocast_enabled",
      [](py::object a, py::object b) {
        if (b.is_none()) return autocast::set_enabled(DeviceType::CUDA, a.cast<bool>());  // the older form: CUDA
        autocast::set_enabled(supported_device(device_type_arg(a, "set_autocast_enabled")), b.cast<bool>());
      },
      py::arg("device_type"), py::arg("enabled") = py::none());
  m.def("get_autocast_dtype", [](py::handle device_type) {
    return dtype_obj(
        autocast::lower_precision_dtype(supported_device(device_type_arg(device_type, "get_autocast_dtype"))));
  });
  m.def("set_autocast_dtype", [](py::handle device_type, py::handle t) {
    autocast::set_lower_precision_dtype(supported_device(device_type_arg(device_type, "set_autocast_dtype")),
                                        dtype_arg(t));
  });
  m.def("_is_autocast_available", [](py::handle device_type) {
    return autocast_device(device_type_arg(device_type, "_is_autocast_available")).has_value();
  });
  m.def("is_autocast_cpu_enabled", [] {
    deprecated("is_autocast_cpu_enabled()", "is_autocast_enabled('cpu')", 901);
    return is_enabled(DeviceType::CPU);
  });
  m.def("set_autocast_cpu_enabled", [](bool on) {
    deprecated("set_autocast_cpu_enabled(enabled)", "set_autocast_enabled('cpu', enabled)", 892);
    autocast::set_enabled(DeviceType::CPU, on);
  });
  m.def("get_autocast_cpu_dtype", [] {
    deprecated("get_autocast_cpu_dtype()", "get_autocast_dtype('cpu')", 1034);
    return dtype_obj(autocast::lower_precision_dtype(DeviceType::CPU));
  });
  m.def("set_autocast_cpu_dtype", [](py::handle t) {
    deprecated("set_autocast_cpu_dtype(dtype)", "set_autocast_dtype('cpu', dtype)", 985);
    autocast::set_lower_precision_dtype(DeviceType::CPU, dtype_arg(t));
  });
  m.def("get_autocast_gpu_dtype", [] {
    deprecated("get_autocast_gpu_dtype()", "get_autocast_dtype('cuda')", 1025);
    return dtype_obj(autocast::lower_precision_dtype(DeviceType::CUDA));
  });
  m.def("set_autocast_gpu_dtype", [](py::handle t) {
    deprecated("set_autocast_gpu_dtype(dtype)", "set_autocast_dtype('cuda', dtype)", 970);
    autocast::set_lower_precision_dtype(DeviceType::CUDA, dtype_arg(t));
  });
  m.def("autocast_increment_nesting", [] { return autocast::increment_nesting(); });
  m.def("autocast_decrement_nesting", [] { return autocast::decrement_nesting(); });
  m.def("is_autocast_cache_enabled", [] { return autocast::is_cache_enabled(); });
  m.def("set_autocast_cache_enabled", [](bool on) { autocast::set_cache_enabled(on); });
  m.def("clear_autocast_cache", [] { autocast::clear_cache(); });
}

}  // namespace ipt::python
