#include "core/python/generator_bindings.h"

#include <cstring>

#include "core/python/bindings.h"
#include "core/python/py_types.h"
#include "core/tensor/tensor.h"
#include "generated/ops.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

struct PyGenerator {
  std::shared_ptr<random::CpuGenerator> impl;
};

// A seed as PyTorch unpacks it: any int in [-2^63, 2^64), negative ones taken modulo 2^64.
uint64_t unpack_seed(const py::handle& seed) {
  IPT_CHECK(PyLong_Check(seed.ptr()) && !PyBool_Check(seed.ptr()), TypeError, "manual_seed expected a long, but got ",
            Py_TYPE(seed.ptr())->tp_name);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(seed.ptr(), &overflow);
  if (overflow == 0) return static_cast<uint64_t>(v);
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(seed.ptr());
    if (!PyErr_Occurred()) return u;
    PyErr_Clear();
  }
  throw Error(ErrorKind::ValueError, "Overflow when unpacking long long");
}

Tensor state_tensor(const std::vector<uint8_t>& bytes) {
  Tensor t =
      make_empty(std::vector<int64_t>{static_cast<int64_t>(bytes.size())}, ScalarType::Byte, Device(DeviceType::CPU));
  std::memcpy(t.impl()->raw_data(), bytes.data(), bytes.size());
  return t;
}

void set_state_from(random::CpuGenerator& gen, const py::handle& state) {
  IPT_CHECK(is_tensor_object(state.ptr()), TypeError, "expected a torch.ByteTensor, but got ",
            Py_TYPE(state.ptr())->tp_name);
  const Tensor& t = unpack(state.ptr());
  IPT_CHECK(t.dtype() == ScalarType::Byte && t.device().type == DeviceType::CPU, TypeError,
            "RNG state must be a torch.ByteTensor");
  const Tensor c = t.is_contiguous() ? t : ops::contiguous(t);
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_state(static_cast<const uint8_t*>(c.impl()->raw_data()), static_cast<size_t>(c.numel()));
}

}  // namespace

bool is_generator_object(PyObject* o) { return py::isinstance<PyGenerator>(py::handle(o)); }

std::optional<Generator> as_generator(PyObject* o) {
  if (o == nullptr || o == Py_None) return std::nullopt;
  return Generator{py::handle(o).cast<PyGenerator&>().impl};
}

void init_generator(py::module_& m) {
  py::class_<PyGenerator>(m, "Generator")
      .def(py::init([](py::object device) {
             if (!device.is_none()) {
               const std::string d = py::str(device);
               IPT_CHECK(d == "cpu", RuntimeError, "Device type ", d,
                         " is not supported for torch.Generator() api: this runtime's generators are CPU generators.");
             }
             return PyGenerator{std::make_shared<random::CpuGenerator>()};
           }),
           py::arg("device") = py::none())
      .def("manual_seed",
           [](py::object self, py::handle seed) {
             const uint64_t s = unpack_seed(seed);
             auto& gen = *self.cast<PyGenerator&>().impl;
             std::lock_guard<std::mutex> lock(gen.mutex());
             gen.set_current_seed(s);
             return self;
           })
      .def("seed",
           [](PyGenerator& g) {
             std::lock_guard<std::mutex> lock(g.impl->mutex());
             return g.impl->seed();
           })
      .def("initial_seed", [](PyGenerator& g) { return g.impl->current_seed(); })
      .def("get_state",
           [](PyGenerator& g) {
             std::lock_guard<std::mutex> lock(g.impl->mutex());
             return state_tensor(g.impl->get_state());
           })
      .def("set_state",
           [](py::object self, py::handle state) {
             set_state_from(*self.cast<PyGenerator&>().impl, state);
             return self;
           })
      .def_property_readonly("device", [](PyGenerator&) {
        return py::reinterpret_steal<py::object>(device_object(Device(DeviceType::CPU)));
      });
  // The default generator is the process's own (a handle that does not own it).
  m.attr("default_generator") = py::cast(PyGenerator{
      std::shared_ptr<random::CpuGenerator>(&random::default_cpu_generator(), [](random::CpuGenerator*) {})});
  // The simulated GPU's (torch.cuda.default_generators[0]).
  m.attr("_cuda_default_generator") = py::cast(PyGenerator{
      std::shared_ptr<random::CpuGenerator>(&random::default_cuda_generator(), [](random::CpuGenerator*) {})});
}

}  // namespace ipt::python
