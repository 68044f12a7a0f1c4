// See backends/sim/sim_trace.h.
#include "backends/sim/sim_trace.h"

#include "core/trace/recorder.h"

namespace ipt::sim {

namespace {

using trace::Category;
using trace::Phase;
using trace::Recorder;

class TraceHostClock final : public HostClock {
 public:
  int64_t now_ns() override { return Recorder::current().now_ns(); }
  void spend(int64_t ns) override {
    if (modeled()) trace::modeled_spend(ns);  // measured: the call really took its time
  }
  void reach(int64_t t) override {
    if (modeled()) trace::modeled_reach(t);
  }

 private:
  static bool modeled() { return Recorder::current().clock() == trace::ClockKind::Modeled; }
};

const char* math_name(MathMode m) {
  switch (m) {
    case MathMode::FP32: return "FP32";
    case MathMode::TF32: return "TF32";
    case MathMode::BF16: return "BF16";
  }
  return "";
}

// The runtime call's name on the host, and the device slice's name and category.
struct Names {
  const char* call;
  const char* work;
  Category category;
};

Names names_of(const DeviceOp& op) {
  switch (op.kind) {
    case DeviceOp::Kind::Kernel: return {"cudaLaunchKernel", trace::intern(op.name), Category::Kernel};
    case DeviceOp::Kind::Memcpy: return {"cudaMemcpyAsync", trace::intern(op.name), Category::GpuMemcpy};
    case DeviceOp::Kind::EventRecord: return {"cudaEventRecord", "Event Record", Category::CudaSync};
    case DeviceOp::Kind::StreamWait: return {"cudaStreamWaitEvent", "Stream Wait Event", Category::CudaSync};
    case DeviceOp::Kind::Synchronize:
    case DeviceOp::Kind::HostCall: return {trace::intern(op.name), "", Category::CudaSync};
  }
  return {"", "", Category::Note};
}

}  // namespace

HostClock& trace_host_clock() {
  static TraceHostClock* c = new TraceHostClock();  // never destroyed, as the Gpu
  return *c;
}

void trace_device_op(const DeviceOp& op) {
  if (!trace::tracing_enabled()) return;
  Recorder& r = Recorder::current();
  const Names n = names_of(op);
  trace::DeviceWork w;
  const bool host_only = op.kind == DeviceOp::Kind::Synchronize || op.kind == DeviceOp::Kind::HostCall;
  w.correlation = host_only ? 0 : op.id;
  w.stream = op.stream;
  w.event = op.event;
  if (op.kind == DeviceOp::Kind::Kernel || op.kind == DeviceOp::Kind::Memcpy) {
    w.bytes = static_cast<int64_t>(op.cost.bytes);
    w.flops = op.cost.flops;
    if (op.kind == DeviceOp::Kind::Kernel && op.cost.flops > 0) w.math = math_name(op.cost.math);
    w.addr = op.writes_addr;
  }
  r.record_here_at(op.host_start_ns, Phase::Begin, Category::CudaRuntime, n.call, w);
  r.record_here_at(op.host_ns, Phase::End, Category::CudaRuntime, n.call);
  if (host_only) return;  // the host's slice is the whole story
  const uint32_t track = trace::device_track(0, op.stream);
  r.record_at(op.start_ns, track, Phase::Begin, n.category, n.work, w);
  r.record_at(op.end_ns, track, Phase::End, n.category, n.work);
}

void trace_memory_action(const DeviceTraceEntry& e, const DeviceMemoryStats& after) {
  if (!trace::tracing_enabled()) return;
  trace::DeviceMemory m;
  m.action = trace::intern(e.action);
  m.stream = static_cast<int32_t>(e.stream);
  m.addr = e.addr;
  m.size = static_cast<int64_t>(e.size);
  m.allocated = static_cast<int64_t>(after.allocated);
  m.reserved = static_cast<int64_t>(after.reserved);
  Recorder::current().instant(Category::GpuMemory, m.action, m);
}

}  // namespace ipt::sim
