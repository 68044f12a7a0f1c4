// The simulated GPU as this program's CUDA device: memory from the caching allocator on the
// current stream, copies between host and device as stream work, and torch.cuda's runtime
// (streams, events, memory statistics) through the DeviceRuntime interface.
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "backends/cpu/copy_kernels.h"
#include "backends/sim/sim_runtime.h"
#include "backends/sim/sim_trace.h"
#include "core/tensor/backend.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt {

void register_CUDA_kernels(Dispatcher& d);  // generated RegisterCUDA.cpp

namespace sim {

namespace {
thread_local StreamId t_current = 0;
std::atomic<bool> g_allow_tf32{false};  // PyTorch 2.15's default for matmuls
}  // namespace

Gpu& gpu() {
  // Never destroyed: worker threads may still be parked when the process exits.
  static Gpu* g = new Gpu(
      GpuSpec::h200(), [] { trace::mute_this_thread(); }, trace_device_op, &trace_host_clock());
  return *g;
}

CachingAllocator& allocator() {
  static CachingAllocator* a = new CachingAllocator(gpu(), trace_memory_action);
  return *a;
}

StreamId current_stream() { return t_current; }
void set_current_stream(StreamId s) {
  if (s < 0 || s >= gpu().stream_count()) IPT_FAIL(RuntimeError, "CUDA error: invalid resource handle");
  t_current = s;
}
bool allow_tf32() { return g_allow_tf32.load(std::memory_order_relaxed); }

HostView::HostView(const Tensor& t)
    : dtype(t.dtype()), sizes(t.sizes()), strides(t.strides()), offset(t.storage_offset()) {
  if (t.device().type == DeviceType::CPU) {
    cpu = t;
    return;
  }
  data = t.impl()->storage()->data();
  nbytes = t.impl()->storage()->nbytes();
}

Tensor HostView::tensor() const {
  if (cpu.defined()) return cpu;
  auto storage = std::make_shared<Storage>(data, nbytes, Device(DeviceType::CPU), nullptr);
  return Tensor(std::make_shared<TensorImpl>(std::move(storage), dtype, sizes, strides, offset,
                                             std::make_shared<VersionCounter>(),
                                             tensor_key_set(BackendComponent::CPU, false)));
}

void raise_async_error() {
  const std::string e = gpu().take_async_error();
  if (!e.empty()) IPT_FAIL(RuntimeError, "CUDA error: ", e);
}

void synchronize_stream(StreamId s) {
  gpu().stream_synchronize(s);
  raise_async_error();
}

double bytes_of(const Tensor& t) {
  return static_cast<double>(t.numel()) * static_cast<double>(element_size(t.dtype()));
}

void launch(const char* name, const KernelCost& cost, std::function<void()> work, DeviceOp::Kind kind,
            std::vector<Access> accesses) {
  raise_async_error();
  try {
    gpu().launch(current_stream(), name, cost, std::move(work), kind, accesses);
  } catch (const Error& e) {
    // A race the hazard check found: on the timeline too, where the second access would be.
    if (trace::tracing_enabled())
      trace::Recorder::current().instant(trace::Category::CudaSync, "data race", trace::Text{e.what()});
    throw;
  }
}

namespace {
Access access(const Tensor& t, bool write, const char* arg) {
  if (t.device().type != DeviceType::CUDA) return {};
  const void* p = t.impl()->storage()->data();
  // The address, for the race report and the trace (which ties work to the block it writes).
  const bool wanted = gpu().hazard_check() || trace::tracing_enabled();
  return {p, wanted ? allocator().device_address(p) : 0, write, arg};
}
}  // namespace

Access reads(const Tensor& t, const char* arg) { return access(t, false, arg); }
Access writes(const Tensor& t, const char* arg) { return access(t, true, arg); }

namespace {

void* sim_allocate(size_t nbytes) { return allocator().allocate(nbytes, current_stream()); }
void sim_deallocate(void* p) { allocator().deallocate(p); }

// copy_ with a simulated-GPU side: a memcpy on the current stream (PCIe's rate to or from the
// host); with non_blocking=False the host then waits for the stream, as PyTorch's copy does.
void sim_copy(const Tensor& self, const Tensor& src, bool non_blocking) {
  const bool to_host = self.device().type == DeviceType::CPU;
  const bool from_host = src.device().type == DeviceType::CPU;
  const Tensor& host = to_host ? self : src;
  const bool pinned = (to_host || from_host) && host.impl()->storage() && host.impl()->storage()->pinned();
  const char* name = to_host     ? (pinned ? "Memcpy DtoH (Device -> Pinned)" : "Memcpy DtoH (Device -> Pageable)")
                     : from_host ? (pinned ? "Memcpy HtoD (Pinned -> Device)" : "Memcpy HtoD (Pageable -> Device)")
                                 : "Memcpy DtoD (Device -> Device)";
  KernelCost cost;
  cost.bytes = bytes_of(self) * (to_host || from_host ? 1 : 2);
  cost.over_pcie = to_host || from_host;
  launch(name, cost,
         [dst = HostView(self), from = HostView(src)] { native::copy_cpu_(dst.tensor(), from.tensor(), false); },
         DeviceOp::Kind::Memcpy, {reads(src, "src"), writes(self, "self")});
  // Pageable host memory is staged by the host, so such a copy is synchronous even with
  // non_blocking=True; pinned memory is read by the device while the host goes on.
  if (!non_blocking || ((to_host || from_host) && !pinned)) synchronize_stream(current_stream());
}

class SimRuntime final : public DeviceRuntime {
 public:
  bool simulated() const override { return true; }
  int device_count() const override { return 1; }
  std::string device_name(int) const override { return gpu().spec().name; }
  uint64_t total_memory(int) const override { return gpu().spec().total_memory; }
  int64_t default_stream() const override { return 0; }
  int64_t current_stream() const override { return sim::current_stream(); }
  void set_current_stream(int64_t s) override { sim::set_current_stream(static_cast<StreamId>(s)); }
  int64_t pool_stream(bool high) override { return gpu().pool_stream(high); }
  bool stream_query(int64_t s) override { return gpu().stream_query(static_cast<StreamId>(s)); }
  void stream_synchronize(int64_t s) override { synchronize_stream(static_cast<StreamId>(s)); }
  void synchronize() override {
    gpu().synchronize();
    raise_async_error();
  }
  int64_t event_create(bool timing) override { return gpu().create_event(timing); }
  void event_record(int64_t e, int64_t s) override {
    gpu().record_event(static_cast<EventId>(e), static_cast<StreamId>(s));
  }
  void stream_wait_event(int64_t s, int64_t e) override {
    gpu().stream_wait_event(static_cast<StreamId>(s), static_cast<EventId>(e));
  }
  bool event_query(int64_t e) override { return gpu().event_query(static_cast<EventId>(e)); }
  void event_synchronize(int64_t e) override { gpu().event_synchronize(static_cast<EventId>(e)); }
  double elapsed_time_ms(int64_t a, int64_t b) override {
    return gpu().elapsed_time_ms(static_cast<EventId>(a), static_cast<EventId>(b));
  }
  void record_stream(const void* data, int64_t s) override {
    allocator().record_stream(const_cast<void*>(data), static_cast<StreamId>(s));
  }
  uint64_t device_address(const void* data) const override { return allocator().device_address(data); }
  DeviceMemoryStats memory_stats() const override { return allocator().stats(); }
  void reset_peak_memory_stats() override { allocator().reset_peak_stats(); }
  void empty_cache() override { allocator().empty_cache(); }
  // Note [Each run on a fresh device]
  // Each run of the window, like each command, is a program of its own: a new interpreter,
  // and, as PyTorch would see it in a new process, a device with nothing cached, no cuBLAS
  // handle yet and the stream pool at its first stream. Without this a lesson run a second
  // time in the window would find its segments cached and cuBLAS set up, and print other
  // times than the first run (and the lesson's narration) give.
  void begin_program() override {  // after start_recording's synchronize
    allocator().begin_program();
    gpu().restart_stream_pool();
    forget_blas_setup();
  }
  std::vector<DeviceSegment> memory_snapshot() const override { return allocator().snapshot(); }
  std::vector<DeviceTraceEntry> memory_trace() const override { return allocator().trace(); }
  void set_hazard_check(bool on) override { gpu().set_hazard_check(on); }
  bool launch_generated(const char* name, double flops, double bytes, std::function<void()> work,
                        const std::vector<const void*>& reads, const std::vector<const void*>& writes) override {
    KernelCost cost;
    cost.flops = flops;
    cost.bytes = bytes;
    std::vector<Access> accesses;
    const bool wanted = gpu().hazard_check() || trace::tracing_enabled();
    for (const void* p : reads) accesses.push_back({p, wanted ? allocator().device_address(p) : 0, false, "in_ptr"});
    for (const void* p : writes) accesses.push_back({p, wanted ? allocator().device_address(p) : 0, true, "out_ptr"});
    launch(name, cost, std::move(work), DeviceOp::Kind::Kernel, std::move(accesses));
    return true;
  }
  void set_allow_tf32(bool on) override { g_allow_tf32 = on; }
  bool allow_tf32() const override { return sim::allow_tf32(); }
};

SimRuntime g_runtime;

const BackendInterface kSimBackend = {
    "cuda",  DeviceType::CUDA, sim_allocate, sim_deallocate, register_CUDA_kernels,
    nullptr, nullptr,          sim_copy,     &g_runtime,
};

}  // namespace
}  // namespace sim

// IPT_GPU=off: no GPU at all, as on a CPU-only PyTorch.
bool sim_gpu_enabled() {
  const char* v = std::getenv("IPT_GPU");
  return !(v && std::strcmp(v, "off") == 0);
}

void register_sim_backend() {
  if (sim_gpu_enabled()) register_backend(&sim::kSimBackend);
}

}  // namespace ipt
