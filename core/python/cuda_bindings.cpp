// torch.cuda's runtime from Python (torch._C._cuda_*): streams, events, synchronization and
// the caching allocator's state, through the CUDA backend's DeviceRuntime (the simulated GPU
// or, where it has kernels, the real one). With no CUDA backend, torch.cuda sees no device.
#include "core/python/bindings.h"
#include "core/tensor/backend.h"
#include "generated/ops.h"
#include "core/tensor/tensor.h"
#include "core/util/error.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

DeviceRuntime* runtime_or_null() {
  if (!has_backend(DeviceType::CUDA)) return nullptr;
  return backend_for(DeviceType::CUDA).runtime;
}

DeviceRuntime& runtime() {
  DeviceRuntime* r = runtime_or_null();
  // What a CPU-only PyTorch says when torch.cuda is used.
  IPT_CHECK(r, RuntimeError, "Torch not compiled with CUDA enabled");
  return *r;
}

py::dict stats_dict(const DeviceMemoryStats& m) {
  py::dict d;
  d["allocated_bytes.all.current"] = m.allocated;
  d["allocated_bytes.all.peak"] = m.max_allocated;
  d["reserved_bytes.all.current"] = m.reserved;
  d["reserved_bytes.all.peak"] = m.max_reserved;
  d["active_bytes.all.current"] = m.active;
  d["requested_bytes.all.current"] = m.requested;
  d["allocation.all.allocated"] = m.num_allocs;
  d["allocation.all.freed"] = m.num_frees;
  d["segment.all.allocated"] = m.num_segment_allocs;
  d["segment.all.freed"] = m.num_segment_frees;
  return d;
}

}  // namespace

void init_cuda(py::module_& m) {
  m.def("_cuda_is_available", [] { return runtime_or_null() != nullptr; });
  m.def("_cuda_is_simulated", [] { return runtime_or_null() && runtime_or_null()->simulated(); });
  m.def("_cuda_getDeviceCount", [] { return runtime_or_null() ? runtime_or_null()->device_count() : 0; });
  m.def("_cuda_getDeviceName", [](int d) { return runtime().device_name(d); });
  m.def("_cuda_getTotalMemory", [](int d) { return runtime().total_memory(d); });
  m.def("_cuda_synchronize", [] {
    py::gil_scoped_release nogil;
    runtime().synchronize();
  });
  m.def("_cuda_getDefaultStream", [] { return runtime().default_stream(); });
  m.def("_cuda_getCurrentStream", [] { return runtime().current_stream(); });
  m.def("_cuda_setStream", [](int64_t s) { runtime().set_current_stream(s); });
  m.def("_cuda_newStream", [](int priority) { return runtime().pool_stream(priority < 0); });
  m.def("_cuda_streamQuery", [](int64_t s) { return runtime().stream_query(s); });
  m.def("_cuda_streamSynchronize", [](int64_t s) {
    py::gil_scoped_release nogil;
    runtime().stream_synchronize(s);
  });
  m.def("_cuda_eventCreate", [](bool timing) { return runtime().event_create(timing); });
  m.def("_cuda_eventRecord", [](int64_t e, int64_t s) { runtime().event_record(e, s); });
  m.def("_cuda_streamWaitEvent", [](int64_t s, int64_t e) { runtime().stream_wait_event(s, e); });
  m.def("_cuda_eventQuery", [](int64_t e) { return runtime().event_query(e); });
  m.def("_cuda_eventSynchronize", [](int64_t e) {
    py::gil_scoped_release nogil;
    runtime().event_synchronize(e);
  });
  m.def("_cuda_eventElapsedTime", [](int64_t a, int64_t b) { return runtime().elapsed_time_ms(a, b); });
  m.def("_cuda_recordStream", [](const Tensor& t, int64_t s) {
    IPT_CHECK(t.device().type == DeviceType::CUDA, RuntimeError, "record_stream expects a CUDA tensor, got ",
              t.device().str());
    runtime().record_stream(t.impl()->storage()->data(), s);
  });
  m.def("_cuda_setHazardCheck", [](bool on) { runtime().set_hazard_check(on); });
  m.def("_pin_memory", [](const Tensor& t) {
    if (!runtime_or_null())  // what a CPU-only PyTorch says
      IPT_FAIL(NotImplementedError, "Could not run 'aten::_pin_memory' with arguments from the 'CUDA' backend.");
    IPT_CHECK(t.device().type == DeviceType::CPU, RuntimeError, "cannot pin '", t.device().str(),
              "' memory: only dense CPU tensors can be pinned");
    Tensor out = ops::clone(t, MemoryFormat::Contiguous);
    out.impl()->storage()->set_pinned();
    return out;
  });
  m.def("_is_pinned", [](const Tensor& t) {
    return t.device().type == DeviceType::CPU && t.impl()->storage() && t.impl()->storage()->pinned();
  });
  m.def("_cuda_memoryStats", [] { return stats_dict(runtime().memory_stats()); });
  m.def("_cuda_resetPeakMemoryStats", [] { runtime().reset_peak_memory_stats(); });
  m.def("_cuda_emptyCache", [] {
    py::gil_scoped_release nogil;
    runtime().empty_cache();
  });
  m.def("_cuda_memorySnapshot", [] {
    py::list segments;
    for (const DeviceSegment& s : runtime().memory_snapshot()) {
      py::dict d;
      d["device"] = 0;
      d["address"] = s.address;
      d["total_size"] = s.total_size;
      d["allocated_size"] = s.allocated_size;
      d["active_size"] = s.active_size;
      d["stream"] = s.stream;
      d["segment_type"] = s.segment_type;
      py::list blocks;
      for (const DeviceBlock& b : s.blocks) {
        py::dict bd;
        bd["address"] = b.address;
        bd["size"] = b.size;
        bd["requested_size"] = b.requested;
        bd["state"] = b.state;
        blocks.append(bd);
      }
      d["blocks"] = blocks;
      segments.append(d);
    }
    py::list trace;
    for (const DeviceTraceEntry& t : runtime().memory_trace()) {
      py::dict d;
      d["action"] = t.action;
      d["addr"] = t.addr;
      d["size"] = t.size;
      d["stream"] = t.stream;
      trace.append(d);
    }
    py::dict snap;
    snap["segments"] = segments;
    py::list traces;
    traces.append(trace);
    snap["device_traces"] = traces;
    return snap;
  });
  m.def("_cuda_setAllowTF32", [](bool on) { runtime().set_allow_tf32(on); });
  m.def("_cuda_getAllowTF32", [] { return runtime_or_null() && runtime_or_null()->allow_tf32(); });
}

}  // namespace ipt::python
