// torch.cuda's runtime from Python (torch._C._cuda_*): streams, events, synchronization and
// the caching allocator's state, through the CUDA backend's DeviceRuntime (the simulated GPU
// or, where it has kernels, the real one). With no CUDA backend, torch.cuda sees no device.
#include "core/python/bindings.h"
#include "core/tensor/backend.h"
#include "core/trace/events.h"
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

// Calls a generated kernel `void kernel(T0*, T1*, ...)` whose parameters are all pointers.
void call_with_pointers(uintptr_t fn, const std::vector<void*>& a) {
  using P = void*;
  switch (a.size()) {
#define IPT_CALL_N(N, ...) \
  case N: reinterpret_cast<void (*)(__VA_ARGS__)>(fn)
    IPT_CALL_N(1, P)(a[0]);
    break;
    IPT_CALL_N(2, P, P)(a[0], a[1]);
    break;
    IPT_CALL_N(3, P, P, P)(a[0], a[1], a[2]);
    break;
    IPT_CALL_N(4, P, P, P, P)(a[0], a[1], a[2], a[3]);
    break;
    IPT_CALL_N(5, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4]);
    break;
    IPT_CALL_N(6, P, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4], a[5]);
    break;
    IPT_CALL_N(7, P, P, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    break;
    IPT_CALL_N(8, P, P, P, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    break;
    IPT_CALL_N(9, P, P, P, P, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
    break;
    IPT_CALL_N(10, P, P, P, P, P, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
    break;
#undef IPT_CALL_N
    default: break;  // refused before launching
  }
}

}  // namespace

void init_cuda(py::module_& m) {
  m.def("_cuda_is_available", [] { return runtime_or_null() != nullptr; });
  // torch.compile's generated kernels on the device (python/torch/_inductor/sim_kernels.py): the
  // kernel at `fn` (loaded from the generated library) runs on the current stream over the
  // tensors' memory, timed by the device model.
  m.def("_cuda_launch_generated", [](const std::string& name, uintptr_t fn, const std::vector<Tensor>& inputs,
                                     const std::vector<Tensor>& outputs, double flops) {
    DeviceRuntime& rt = runtime();
    IPT_CHECK(fn != 0, ValueError, "a generated kernel needs its address");
    IPT_CHECK(inputs.size() + outputs.size() <= 10, ValueError, "a generated kernel takes at most 10 tensors, got ",
              inputs.size() + outputs.size());
    std::vector<void*> args;
    std::vector<const void*> reads, writes;
    double bytes = 0;
    auto add = [&](const Tensor& t, std::vector<const void*>& to) {
      IPT_CHECK(t.device().type == DeviceType::CUDA, ValueError, "a generated kernel's tensors must be on cuda");
      void* base = t.impl()->storage()->data();
      args.push_back(static_cast<char*>(base) + t.storage_offset() * static_cast<int64_t>(element_size(t.dtype())));
      to.push_back(base);
      bytes += static_cast<double>(t.numel()) * static_cast<double>(element_size(t.dtype()));
    };
    for (const Tensor& t : inputs) add(t, reads);
    for (const Tensor& t : outputs) add(t, writes);
    const bool ok = rt.launch_generated(
        trace::intern(name), flops, bytes, [fn, args] { call_with_pointers(fn, args); }, reads, writes);
    IPT_CHECK(ok, RuntimeError, "this CUDA device cannot run kernels generated for the CPU; the simulated GPU can");
  });
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
