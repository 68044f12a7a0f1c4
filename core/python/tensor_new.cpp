// torch.tensor(data): a new tensor from nested Python sequences of numbers, tensors and NumPy
// scalars, or from a NumPy array, with PyTorch's dtype inference: each element's type (a Python
// bool, int or float is bool, int64 or the default float32; a tensor or a NumPy scalar its own
// dtype), promoted together.
#include <pybind11/numpy.h>

#include "core/python/arg_parser.h"
#include "core/python/bindings.h"
#include "core/python/generated_support.h"
#include "core/python/py_types.h"
#include "core/tensor/tensor_trace.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "generated/ops.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

struct Inferred {
  std::vector<int64_t> shape;
  std::vector<Scalar> values;  // exact: an int64 past 2^53 stays itself
  std::optional<ScalarType> type;
  py::object numpy_generic;  // numpy.generic once NumPy is imported (no NumPy object exists before)
  void add(ScalarType t) { type = type ? promote_types(*type, t) : t; }
};

// numpy.generic and numpy.ndarray, or None while NumPy is not imported.
py::object numpy_attr(const char* name) {
  PyObject* np = PyImport_GetModule(py::str("numpy").ptr());
  if (!np) {
    PyErr_Clear();
    return py::none();
  }
  return py::reinterpret_steal<py::object>(np).attr(name);
}

bool is_instance(py::handle v, const py::object& type) {
  return !type.is_none() && PyObject_IsInstance(v.ptr(), type.ptr()) == 1;
}

void infer(py::handle v, size_t depth, Inferred& out) {
  const bool numpy_array = py::isinstance<py::array>(v);
  if (PyList_Check(v.ptr()) || PyTuple_Check(v.ptr()) ||
      (numpy_array && py::reinterpret_borrow<py::array>(v).ndim() > 0)) {
    auto seq = py::reinterpret_borrow<py::sequence>(v);
    const auto n = static_cast<int64_t>(py::len(seq));
    IPT_CHECK(depth < 128, ValueError, "too many dimensions '", py_type_name(v.ptr()), "'");  // PyTorch's 128
    if (depth == out.shape.size()) {
      IPT_CHECK(out.values.empty(), ValueError, "expected a number at depth ", depth);
      out.shape.push_back(n);
    } else {
      IPT_CHECK(out.shape[depth] == n, ValueError, "expected sequence of length ", out.shape[depth], " at dim ", depth,
                " (got ", n, ")");
    }
    for (auto item : seq) infer(item, depth + 1, out);
    return;
  }
  IPT_CHECK(depth == out.shape.size(), ValueError, "expected sequence of length ", out.shape[depth], " at dim ", depth,
            " (got ", py_type_name(v.ptr()), ")");
  if (is_tensor_object(v.ptr())) {
    const Tensor& t = unpack(v.ptr());
    IPT_CHECK(t.numel() == 1, ValueError, "only one element tensors can be converted to Python scalars");
    out.add(t.dtype());
    out.values.push_back(ops::item(t));
    return;
  }
  // A NumPy scalar (or 0-d array) brings its dtype (np.float64 is also a Python float).
  if (numpy_array || is_instance(v, out.numpy_generic)) {
    const py::object dtype = v.attr("dtype");
    const std::optional<ScalarType> t = numpy_scalar_type(dtype);
    if (!t) throw py::type_error("new(): invalid data type '" + py_type_name(v.ptr()) + "'");
    out.add(*t);
    out.values.push_back(to_scalar(v.attr("item")().ptr()));
    return;
  }
  if (!PyLong_Check(v.ptr()) && !PyFloat_Check(v.ptr()))
    throw py::type_error("new(): invalid data type '" + py_type_name(v.ptr()) + "'");
  out.add(PyBool_Check(v.ptr()) ? ScalarType::Bool : PyFloat_Check(v.ptr()) ? kDefaultFloat : ScalarType::Long);
  out.values.push_back(to_scalar(v.ptr()));  // PyTorch's "Overflow when unpacking long long" past int64
}

}  // namespace

void init_tensor_new(py::module_& m) {
  // A Python number as the "wrapped number" 0-dim tensor PyTorch passes to operators (number ** t).
  m.def("_wrap_number", [](py::handle x) { return native::wrapped_scalar_tensor(to_scalar(x.ptr())); });
  m.def(
      "tensor",
      [](py::handle data, py::object dtype, py::object device, bool requires_grad, bool) {
        Inferred in;
        if (is_tensor_object(data.ptr())) {
          // As PyTorch 2.15's tensor constructor, a Python warning of its own (no "Triggered internally").
          if (PyErr_WarnEx(
                  PyExc_UserWarning,
                  "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                  "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                  1) < 0)
            throw py::error_already_set();
          const Tensor& src = unpack(data.ptr());
          in.shape = src.sizes();
          if (is_floating(src.dtype()))
            for (double v : to_double_vector(src)) in.values.emplace_back(v);
          else if (src.dtype() == ScalarType::Bool)
            for (int64_t v : to_int64_vector(src)) in.values.emplace_back(v != 0);
          else
            for (int64_t v : to_int64_vector(src)) in.values.emplace_back(v);
          in.type = src.dtype();
        } else if (py::isinstance<py::array>(data) && py::reinterpret_borrow<py::array>(data).ndim() > 0) {
          // A whole array is copied from its memory, as from_numpy reads it (its dtype and stride checks).
          const Tensor src = unpack(py::module_::import("torch").attr("from_numpy")(data).ptr());
          std::optional<ScalarType> dt = dtype.is_none() ? std::nullopt : as_dtype(dtype.ptr());
          if (!dtype.is_none() && !dt) throw py::type_error("tensor(): argument 'dtype' must be torch.dtype");
          Device dev(DeviceType::CPU);
          if (!device.is_none()) {
            if (auto d = as_device(device.ptr())) dev = *d;
            else dev = Device::parse(device.cast<std::string>());
          }
          FactoryGuard below_autograd;
          Tensor t = ops::empty_memory_format(src.sizes(), dt.value_or(src.dtype()), std::nullopt, dev);
          if (dev.type != DeviceType::Meta) ops::copy_(t, src, false);
          trace_tensor(t, "torch.tensor");
          return py::reinterpret_steal<py::object>(finish_factory(t, requires_grad));
        } else {
          in.numpy_generic = numpy_attr("generic");
          infer(data, 0, in);
        }
        std::optional<ScalarType> dt = dtype.is_none() ? std::nullopt : as_dtype(dtype.ptr());
        if (!dtype.is_none() && !dt) throw py::type_error("tensor(): argument 'dtype' must be torch.dtype");
        const ScalarType type = dt.value_or(in.type.value_or(kDefaultFloat));
        Device dev(DeviceType::CPU);
        if (!device.is_none()) {
          if (auto d = as_device(device.ptr())) dev = *d;
          else dev = Device::parse(device.cast<std::string>());
        }
        FactoryGuard below_autograd;
        Tensor cpu = make_empty(in.shape, type, Device(DeviceType::CPU));
        visit_dtype(type, [&]<typename T>() {
          T* p = cpu.data_ptr<T>();
          for (size_t i = 0; i < in.values.size(); ++i) p[i] = in.values[i].template to<T>();
        });
        Tensor t = cpu;
        if (dev.type != DeviceType::CPU) {
          t = ops::empty_memory_format(in.shape, type, std::nullopt, dev);
          if (dev.type != DeviceType::Meta) ops::copy_(t, cpu, false);
        }
        trace_tensor(t, "torch.tensor");
        return py::reinterpret_steal<py::object>(finish_factory(t, requires_grad));
      },
      py::arg("data"), py::kw_only(), py::arg("dtype") = py::none(), py::arg("device") = py::none(),
      py::arg("requires_grad") = false, py::arg("pin_memory") = false);
}

}  // namespace ipt::python
