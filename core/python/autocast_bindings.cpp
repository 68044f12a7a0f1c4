// torch._C's autocast state: the functions torch.autocast's __enter__/__exit__ call
// (torch.set_autocast_cpu_enabled, torch.get_autocast_cpu_dtype, ...), with PyTorch's names.
#include "core/ops/autocast.h"
#include "core/python/bindings.h"
#include "core/python/py_types.h"
#include "core/util/error.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

ScalarType dtype_arg(py::handle o) {
  auto t = as_dtype(o.ptr());
  IPT_CHECK(t.has_value(), TypeError, "dtype must be a torch.dtype (got ", std::string(py::str(py::type::of(o).attr("__name__"))), ")");
  return *t;
}

py::object dtype_obj(ScalarType t) { return py::reinterpret_steal<py::object>(dtype_object(t)); }

}  // namespace

void init_autocast(py::module_& m) {
  using autocast::is_enabled;
  // CUDA's functions keep PyTorch's older names (no "gpu"/"cuda" in is_autocast_enabled).
  m.def("is_autocast_enabled", [] { return is_enabled(DeviceType::CUDA); });
  m.def("set_autocast_enabled", [](bool on) { autocast::set_enabled(DeviceType::CUDA, on); });
  m.def("is_autocast_cpu_enabled", [] { return is_enabled(DeviceType::CPU); });
  m.def("set_autocast_cpu_enabled", [](bool on) { autocast::set_enabled(DeviceType::CPU, on); });
  m.def("get_autocast_cpu_dtype", [] { return dtype_obj(autocast::lower_precision_dtype(DeviceType::CPU)); });
  m.def("set_autocast_cpu_dtype", [](py::handle t) { autocast::set_lower_precision_dtype(DeviceType::CPU, dtype_arg(t)); });
  m.def("get_autocast_gpu_dtype", [] { return dtype_obj(autocast::lower_precision_dtype(DeviceType::CUDA)); });
  m.def("set_autocast_gpu_dtype", [](py::handle t) { autocast::set_lower_precision_dtype(DeviceType::CUDA, dtype_arg(t)); });
  m.def("autocast_increment_nesting", [] { return autocast::increment_nesting(); });
  m.def("autocast_decrement_nesting", [] { return autocast::decrement_nesting(); });
  m.def("is_autocast_cache_enabled", [] { return autocast::is_cache_enabled(); });
  m.def("set_autocast_cache_enabled", [](bool on) { autocast::set_cache_enabled(on); });
  m.def("clear_autocast_cache", [] { autocast::clear_cache(); });
}

}  // namespace ipt::python
