// See Note [The simulated GPU] in sim_gpu.h.
#include "backends/sim/sim_gpu.h"

#include <algorithm>
#include <cmath>

#include "core/util/error.h"

namespace ipt::sim {

GpuSpec GpuSpec::h200() {
  GpuSpec s;
  s.name = "NVIDIA H200 (simulated)";
  s.fp32_flops = 66.9e12;
  s.tf32_flops = 494.7e12;
  s.bf16_flops = 989.4e12;
  s.bytes_per_s = 4.8e12;
  s.total_memory = uint64_t(141) * 1000 * 1000 * 1000;
  s.sm_count = 132;
  s.kernel_latency_ns = 2000;
  s.host_call_ns = 5000;
  // Model assumptions, not datasheet figures: a cudaMalloc of a segment, and the first
  // matmul's cuBLAS setup (handle, workspace), as one-time host costs of a fresh process.
  s.malloc_ns = 20000;
  s.blas_init_ns = 250000;
  s.pcie_bytes_per_s = 64e9;
  return s;
}

int64_t modeled_duration_ns(const GpuSpec& spec, const KernelCost& cost) {
  const double peak = cost.math == MathMode::TF32   ? spec.tf32_flops
                      : cost.math == MathMode::BF16 ? spec.bf16_flops
                                                    : spec.fp32_flops;
  const double compute_s = peak > 0 ? cost.flops / peak : 0;
  const double rate = cost.over_pcie ? spec.pcie_bytes_per_s : spec.bytes_per_s;
  const double memory_s = rate > 0 ? cost.bytes / rate : 0;
  return static_cast<int64_t>(std::ceil(std::max(compute_s, memory_s) * 1e9)) + spec.kernel_latency_ns;
}

namespace {
// The Gpu's own host clock: modeled, from 0.
class ModeledHostClock : public HostClock {
 public:
  int64_t now_ns() override { return now_; }
  void spend(int64_t ns) override { now_ += ns > 0 ? ns : 0; }
  void reach(int64_t t) override { now_ = std::max(now_, t); }

 private:
  int64_t now_ = 0;
};
}  // namespace

Gpu::Gpu(GpuSpec spec, std::function<void()> worker_init, std::function<void(const DeviceOp&)> on_op, HostClock* clock)
    : spec_(std::move(spec)),
      worker_init_(std::move(worker_init)),
      on_op_(std::move(on_op)),
      own_clock_(clock ? nullptr : std::make_unique<ModeledHostClock>()),
      clock_(clock ? clock : own_clock_.get()) {
  std::lock_guard<std::mutex> lock(mu_);
  add_stream_locked(true);  // the legacy default stream
}

Gpu::~Gpu() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] {
      for (auto& s : streams_)
        if (s->done != s->enqueued) return false;
      return true;
    });
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& s : streams_)
    if (s->worker.joinable()) s->worker.join();
}

StreamId Gpu::add_stream_locked(bool blocking) {
  auto s = std::make_unique<Stream>();
  s->blocking = blocking;
  s->tail_ns = clock_->now_ns();
  streams_.push_back(std::move(s));
  return static_cast<StreamId>(streams_.size() - 1);
}

StreamId Gpu::create_stream(bool blocking) {
  std::lock_guard<std::mutex> lock(mu_);
  return add_stream_locked(blocking);
}

StreamId Gpu::pool_stream(bool high_priority) {
  constexpr size_t kPoolSize = 32;
  std::lock_guard<std::mutex> lock(mu_);
  auto& pool = pool_[high_priority ? 1 : 0];
  if (pool.empty())
    for (size_t i = 0; i < kPoolSize; ++i) pool.push_back(add_stream_locked(false));
  size_t& next = pool_next_[high_priority ? 1 : 0];
  const StreamId s = pool[next];
  next = (next + 1) % kPoolSize;
  return s;
}

void Gpu::restart_stream_pool() {
  std::lock_guard<std::mutex> lock(mu_);
  pool_next_[0] = pool_next_[1] = 0;
}

void Gpu::check_stream(StreamId s) const {
  if (s < 0 || static_cast<size_t>(s) >= streams_.size()) IPT_FAIL(RuntimeError, "CUDA error: invalid resource handle");
}

void Gpu::check_event(EventId e) const {
  if (e < 0 || static_cast<size_t>(e) >= events_.size()) IPT_FAIL(RuntimeError, "CUDA error: invalid resource handle");
}

bool Gpu::is_blocking(StreamId s) const {
  std::lock_guard<std::mutex> lock(mu_);
  check_stream(s);
  return streams_[s]->blocking;
}

int Gpu::stream_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(streams_.size());
}

std::vector<Gpu::Marker> Gpu::implicit_deps_locked(StreamId s, int64_t& after_ns) const {
  std::vector<Marker> deps;
  if (!streams_[s]->blocking) return deps;
  if (s == 0) {  // the legacy default stream waits for every blocking stream
    for (size_t k = 1; k < streams_.size(); ++k) {
      const Stream& o = *streams_[k];
      if (!o.blocking || o.enqueued == 0) continue;
      deps.push_back({static_cast<StreamId>(k), o.enqueued});
      after_ns = std::max(after_ns, o.tail_ns);
    }
  } else if (streams_[0]->enqueued) {  // and blocking streams wait for it
    deps.push_back({0, streams_[0]->enqueued});
    after_ns = std::max(after_ns, streams_[0]->tail_ns);
  }
  return deps;
}

void Gpu::push_locked(StreamId s, Item item) {
  Stream& st = *streams_[s];
  st.queue.push_back(std::move(item));
  st.enqueued++;
  if (!st.worker.joinable()) st.worker = std::thread([this, s] { worker_loop(s); });
}

namespace {
void merge(VectorClock& into, const VectorClock& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}
void bump(VectorClock& vc, StreamId s, uint64_t count) {
  if (vc.size() <= static_cast<size_t>(s)) vc.resize(static_cast<size_t>(s) + 1, 0);
  vc[static_cast<size_t>(s)] = std::max(vc[static_cast<size_t>(s)], count);
}
}  // namespace

void Gpu::order_locked(StreamId s, const std::vector<Marker>& implicit) {
  Stream& st = *streams_[s];
  merge(st.vc, host_vc_);
  for (const Marker& m : implicit) {
    merge(st.vc, streams_[m.stream]->vc);
    bump(st.vc, m.stream, m.count);
  }
}

void Gpu::host_waited_locked(StreamId s, uint64_t count) {
  merge(host_vc_, streams_[s]->vc);
  bump(host_vc_, s, count);
}

void Gpu::set_hazard_check(bool on) {
  std::lock_guard<std::mutex> lock(mu_);
  if (on && !check_hazards_) hazards_.clear();
  check_hazards_ = on;
}

bool Gpu::hazard_check() const {
  std::lock_guard<std::mutex> lock(mu_);
  return check_hazards_;
}

DeviceOp Gpu::launch(StreamId s, std::string name, const KernelCost& cost, std::function<void()> work,
                     DeviceOp::Kind kind, const std::vector<Access>& accesses) {
  DeviceOp op;
  {
    std::lock_guard<std::mutex> lock(mu_);
    check_stream(s);
    op.host_start_ns = clock_->now_ns();
    clock_->spend(spec_.host_call_ns);
    op.host_ns = clock_->now_ns();
    Stream& st = *streams_[s];
    int64_t start = std::max(op.host_ns, st.tail_ns);
    std::vector<Marker> deps = implicit_deps_locked(s, start);
    order_locked(s, deps);
    if (check_hazards_) {
      std::string race = hazards_.check(s, st.enqueued + 1, st.vc, name, accesses);
      if (!race.empty()) IPT_FAIL(RuntimeError, race);
    }
    op.kind = kind;
    op.name = std::move(name);
    op.stream = s;
    op.start_ns = start;
    op.end_ns = start + modeled_duration_ns(spec_, cost);
    op.cost = cost;
    for (const Access& a : accesses)
      if (a.write && a.addr) {
        op.writes_addr = a.addr;
        break;
      }
    st.tail_ns = op.end_ns;
    op.id = add_op_locked(op);
    push_locked(s, Item{std::move(work), std::move(deps)});
  }
  cv_.notify_all();
  return op;
}

EventId Gpu::create_event(bool enable_timing) {
  std::lock_guard<std::mutex> lock(mu_);
  Event e;
  e.timing = enable_timing;
  events_.push_back(e);
  return static_cast<EventId>(events_.size() - 1);
}

void Gpu::record_event(EventId e, StreamId s) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    check_event(e);
    check_stream(s);
    clock_->spend(spec_.host_call_ns);
    Stream& st = *streams_[s];
    int64_t at = std::max(clock_->now_ns(), st.tail_ns);
    std::vector<Marker> after = implicit_deps_locked(s, at);
    order_locked(s, after);
    // The record is an item of the stream: it completes when what was enqueued before it has run.
    push_locked(s, Item{{}, after});
    after.push_back({s, st.enqueued});
    st.tail_ns = at;
    Event& ev = events_[e];
    ev.vc = st.vc;
    bump(ev.vc, s, st.enqueued);
    ev.recorded = true;
    ev.time_ns = at;
    ev.after = std::move(after);
    add_marker_op_locked(DeviceOp::Kind::EventRecord, "cudaEventRecord", s, at, at, e);
  }
  cv_.notify_all();
}

void Gpu::stream_wait_event(StreamId s, EventId e) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    check_event(e);
    check_stream(s);
    clock_->spend(spec_.host_call_ns);
    const Event& ev = events_[e];
    if (!ev.recorded) return;  // waiting on an event never recorded is a no-op, as in CUDA
    Stream& st = *streams_[s];
    const int64_t free_at = std::max(st.tail_ns, clock_->now_ns());
    int64_t at = std::max(free_at, ev.time_ns);
    std::vector<Marker> deps = implicit_deps_locked(s, at);
    order_locked(s, deps);
    merge(st.vc, ev.vc);
    deps.insert(deps.end(), ev.after.begin(), ev.after.end());
    push_locked(s, Item{{}, std::move(deps)});
    st.tail_ns = at;
    // The stream stalls from when it was free until the event.
    add_marker_op_locked(DeviceOp::Kind::StreamWait, "cudaStreamWaitEvent", s, free_at, at, e);
  }
  cv_.notify_all();
}

void Gpu::add_marker_op_locked(DeviceOp::Kind kind, const char* name, StreamId s, int64_t start, int64_t end,
                               EventId e) {
  DeviceOp op;
  op.kind = kind;
  op.name = name;
  op.stream = s;
  op.host_ns = clock_->now_ns();
  op.host_start_ns = op.host_ns - spec_.host_call_ns;
  op.start_ns = start;
  op.end_ns = end;
  op.event = e;
  add_op_locked(std::move(op));
}

uint64_t Gpu::add_op_locked(DeviceOp op) {
  op.id = next_op_id_++;
  ops_.push_back(std::move(op));
  if (ops_.size() > kKeptOps) ops_.pop_front();
  if (on_op_) on_op_(ops_.back());
  return ops_.back().id;
}

void Gpu::add_sync_op_locked(const char* name, StreamId s, EventId e, int64_t host_start, int64_t until) {
  DeviceOp op;
  op.kind = DeviceOp::Kind::Synchronize;
  op.name = name;
  op.stream = s;
  op.event = e;
  op.host_start_ns = host_start;
  op.host_ns = clock_->now_ns();
  op.start_ns = host_start;
  op.end_ns = until;
  add_op_locked(std::move(op));
}

bool Gpu::event_recorded(EventId e) const {
  std::lock_guard<std::mutex> lock(mu_);
  check_event(e);
  return events_[e].recorded;
}

bool Gpu::event_query(EventId e) const {
  std::lock_guard<std::mutex> lock(mu_);
  check_event(e);
  const Event& ev = events_[e];
  return !ev.recorded || ev.time_ns <= clock_->now_ns();  // an event never recorded counts as complete
}

void Gpu::event_synchronize(EventId e) {
  std::unique_lock<std::mutex> lock(mu_);
  check_event(e);
  const Event ev = events_[e];
  if (!ev.recorded) return;
  const int64_t start = clock_->now_ns();
  wait_for_locked(lock, ev.after);
  merge(host_vc_, ev.vc);
  clock_->reach(ev.time_ns);
  add_sync_op_locked("cudaEventSynchronize", -1, e, start, ev.time_ns);
}

void Gpu::event_wait_workers(EventId e) {
  std::unique_lock<std::mutex> lock(mu_);
  check_event(e);
  const std::vector<Marker> after = events_[e].after;
  wait_for_locked(lock, after);
}

float Gpu::elapsed_time_ms(EventId start, EventId end) const {
  std::lock_guard<std::mutex> lock(mu_);
  check_event(start);
  check_event(end);
  const Event& a = events_[start];
  const Event& b = events_[end];
  // PyTorch 2.15's CUDAEvent::elapsed_time checks these before it calls cudaEventElapsedTime,
  // in this order and with these kinds (ValueError for the first two).
  if (!a.timing || !b.timing) IPT_FAIL(ValueError, "Both events must be created with argument 'enable_timing=True'.");
  if (!a.recorded || !b.recorded) IPT_FAIL(ValueError, "Both events must be recorded before calculating elapsed time.");
  const int64_t now = clock_->now_ns();
  if (a.time_ns > now || b.time_ns > now)
    IPT_FAIL(RuntimeError, "Both events must be completed before calculating elapsed time.");
  return static_cast<float>(static_cast<double>(b.time_ns - a.time_ns) / 1e6);
}

bool Gpu::ready_locked(const std::vector<Marker>& deps) const {
  for (const Marker& m : deps)
    if (streams_[m.stream]->done < m.count) return false;
  return true;
}

void Gpu::wait_for_locked(std::unique_lock<std::mutex>& lock, const std::vector<Marker>& markers) {
  cv_.wait(lock, [&] { return ready_locked(markers); });
}

void Gpu::stream_synchronize(StreamId s) {
  std::unique_lock<std::mutex> lock(mu_);
  check_stream(s);
  int64_t at = streams_[s]->tail_ns;
  std::vector<Marker> markers = implicit_deps_locked(s, at);  // the default stream: blocking ones too
  markers.push_back({s, streams_[s]->enqueued});
  const int64_t start = clock_->now_ns();
  wait_for_locked(lock, markers);
  for (const Marker& m : markers) host_waited_locked(m.stream, m.count);
  clock_->reach(at);
  add_sync_op_locked("cudaStreamSynchronize", s, -1, start, at);
}

bool Gpu::stream_query(StreamId s) const {
  std::lock_guard<std::mutex> lock(mu_);
  check_stream(s);
  return streams_[s]->tail_ns <= clock_->now_ns();
}

void Gpu::synchronize() {
  std::unique_lock<std::mutex> lock(mu_);
  std::vector<Marker> all;
  const int64_t start = clock_->now_ns();
  int64_t at = start;
  for (size_t k = 0; k < streams_.size(); ++k) {
    all.push_back({static_cast<StreamId>(k), streams_[k]->enqueued});
    at = std::max(at, streams_[k]->tail_ns);
  }
  wait_for_locked(lock, all);
  for (const Marker& m : all) host_waited_locked(m.stream, m.count);
  clock_->reach(at);
  add_sync_op_locked("cudaDeviceSynchronize", -1, -1, start, at);
}

void Gpu::host_call(const char* name, int64_t ns) {
  std::lock_guard<std::mutex> lock(mu_);
  DeviceOp op;
  op.kind = DeviceOp::Kind::HostCall;
  op.name = name;
  op.stream = -1;
  op.host_start_ns = clock_->now_ns();
  clock_->spend(ns);
  op.host_ns = op.start_ns = op.end_ns = clock_->now_ns();
  add_op_locked(std::move(op));
}

int64_t Gpu::host_now_ns() const {
  std::lock_guard<std::mutex> lock(mu_);
  return clock_->now_ns();
}

void Gpu::advance_host(int64_t ns) {
  std::lock_guard<std::mutex> lock(mu_);
  clock_->spend(ns);
}

std::vector<DeviceOp> Gpu::ops() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {ops_.begin(), ops_.end()};
}

std::string Gpu::take_async_error() {
  std::lock_guard<std::mutex> lock(mu_);
  std::string e = std::move(async_error_);
  async_error_.clear();
  return e;
}

void Gpu::worker_loop(StreamId s) {
  if (worker_init_) worker_init_();
  std::unique_lock<std::mutex> lock(mu_);
  Stream& st = *streams_[s];
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || (!st.queue.empty() && ready_locked(st.queue.front().deps)); });
    if (st.queue.empty()) return;  // stopping, and nothing left
    Item item = std::move(st.queue.front());
    st.queue.pop_front();
    lock.unlock();
    std::string error;
    if (item.work) {
      try {
        item.work();
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    lock.lock();
    if (!error.empty() && async_error_.empty()) async_error_ = error;
    st.done++;
    cv_.notify_all();
  }
}

}  // namespace ipt::sim
