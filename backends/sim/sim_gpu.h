#pragma once
// The simulated GPU: streams, kernels, events and synchronization with CUDA's semantics, on
// the CPU.
//
// Note [The simulated GPU]
// Each stream is a FIFO queue drained by its own worker thread, so a launch returns to the
// host at once and the kernel's work (a C++ function that really computes) runs later, in
// stream order. Work waits for other streams only where CUDA makes it: an event waited on
// (cudaStreamWaitEvent), and the legacy default stream, which waits for the work before it on
// every *blocking* stream and makes blocking streams wait for the work before them on it
// (the NVIDIA programming guide's k_1/k_2/k_3 example). Streams from PyTorch's pool (32,
// handed out round-robin) are created non-blocking, so they never wait for the default stream.
//
// Time is a *model*, computed when work is enqueued: a host clock that moves by a fixed cost
// per runtime call (and to the device's time when the host synchronizes), and for every
// kernel a start (after its stream's previous work, its dependencies and its launch) and a
// duration max(FLOPs / peak, bytes / bandwidth) + launch latency, with a named GPU's
// documented figures (GpuSpec). The model depends only on the sequence of calls, never on
// how fast the worker threads run, so two runs give the same times. Queries (is this event
// complete?) are answered on the same modeled clock; anything that reads the results on the
// host (synchronize, a copy to the host) also waits for the worker threads for real.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/sim/hazard_check.h"

namespace ipt::sim {

// The documented figures of one GPU, and the two costs of the model.
struct GpuSpec {
  std::string name;
  double fp32_flops = 0;   // FLOP/s on the CUDA cores
  double tf32_flops = 0;   // FLOP/s on the tensor cores, dense
  double bf16_flops = 0;   // FLOP/s on the tensor cores, dense (FP16 the same)
  double bytes_per_s = 0;  // memory bandwidth
  uint64_t total_memory = 0;
  int sm_count = 0;
  int64_t kernel_latency_ns = 0;  // added to every kernel's duration
  int64_t host_call_ns = 0;       // the host's cost of one runtime call (a launch, a record)
  int64_t malloc_ns = 0;          // the host's cost of a cudaMalloc (a new allocator segment)
  int64_t blas_init_ns = 0;       // the host's cost of the first matmul's cuBLAS handle and workspace
  double pcie_bytes_per_s = 0;    // host <-> device copies
  // NVIDIA H200 SXM: 66.9 TFLOP/s FP32, 494.7 TF32 and 989.4 BF16 dense, 4.8 TB/s, 141 GB,
  // PCIe Gen5 x16 (64 GB/s each way).
  static GpuSpec h200();
};

// What a kernel's arithmetic runs on.
enum class MathMode : uint8_t { FP32, TF32, BF16 };

struct KernelCost {
  double flops = 0;
  double bytes = 0;  // read and written
  MathMode math = MathMode::FP32;
  bool over_pcie = false;  // a copy between host and device: bytes move at PCIe's rate
};

// max(flops / peak, bytes / bandwidth) + latency, in whole nanoseconds (rounded up).
int64_t modeled_duration_ns(const GpuSpec& spec, const KernelCost& cost);

using StreamId = int;  // 0: the legacy default stream
using EventId = int;

// One runtime call and what the device did for it, on the modeled clock. A synchronize does
// nothing on the device: its host call spans until the work it waited for was done.
struct DeviceOp {
  enum class Kind : uint8_t { Kernel, Memcpy, EventRecord, StreamWait, Synchronize, HostCall };
  Kind kind = Kind::Kernel;
  std::string name;           // the kernel's; for the others the runtime call's ("cudaEventRecord")
  StreamId stream = 0;        // -1: a device-wide synchronize
  uint64_t id = 0;            // in call order, from 1; the correlation id of its launch
  int64_t host_start_ns = 0;  // when the host call began
  int64_t host_ns = 0;        // when it returned
  int64_t start_ns = 0;       // on the device (a StreamWait: from the stream's previous work...
  int64_t end_ns = 0;         // ... to the event's completion; a Synchronize: the time waited for)
  EventId event = -1;         // for EventRecord, StreamWait and an event's Synchronize
  uint64_t writes_addr = 0;   // the address of what a Kernel or Memcpy writes (its first written
                              // access's), when known; 0 otherwise
  KernelCost cost;            // Kernel and Memcpy
};

// The host's clock as the model sees it. The Gpu keeps its own modeled one unless given one
// (the runtime gives it the trace's: Note [The modeled clock] in core/trace/trace_clock.h).
class HostClock {
 public:
  virtual ~HostClock() = default;
  virtual int64_t now_ns() = 0;
  virtual void spend(int64_t ns) = 0;  // the host spent ns in a runtime call
  virtual void reach(int64_t t) = 0;   // the host waited for the device until time t
};

class Gpu {
 public:
  // `worker_init` runs first on every stream's worker thread; `on_op` sees every op as it is
  // made (under the Gpu's lock: it must not call the Gpu); `clock` must outlive the Gpu.
  explicit Gpu(GpuSpec spec = GpuSpec::h200(), std::function<void()> worker_init = {},
               std::function<void(const DeviceOp&)> on_op = {}, HostClock* clock = nullptr);
  ~Gpu();  // waits for all work, then stops the workers
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const GpuSpec& spec() const { return spec_; }

  // Streams. The legacy default stream (0) exists from the start.
  StreamId create_stream(bool blocking);
  // PyTorch's stream pool: 32 non-blocking streams per priority, created on first use and
  // handed out round-robin (the 33rd request gets the first stream again).
  StreamId pool_stream(bool high_priority = false);
  // The next pool_stream() requests get the pool's first streams again, as in a new process.
  void restart_stream_pool();
  bool is_blocking(StreamId s) const;
  int stream_count() const;

  // Enqueues `work` on stream s and returns at once, with the op as modeled (its times).
  // With the hazard check on, `accesses` are checked first (Note [Streams, vector clocks and
  // races]): a race throws RuntimeError with the sanitizer's report, and nothing is enqueued.
  DeviceOp launch(StreamId s, std::string name, const KernelCost& cost, std::function<void()> work,
                  DeviceOp::Kind kind = DeviceOp::Kind::Kernel, const std::vector<Access>& accesses = {});

  // torch.cuda._sanitizer.enable_cuda_sanitizer(): check every launch's accesses from now on.
  void set_hazard_check(bool on);
  bool hazard_check() const;

  // Events (cudaEventCreate / Record / StreamWaitEvent / Query / Synchronize / ElapsedTime).
  EventId create_event(bool enable_timing);
  void record_event(EventId e, StreamId s);
  void stream_wait_event(StreamId s, EventId e);  // later work on s waits for e
  bool event_recorded(EventId e) const;
  bool event_query(EventId e) const;  // completed, on the modeled clock
  void event_synchronize(EventId e);
  // Waits until the workers have really run up to e, leaving the modeled host clock alone
  // (for the allocator, which decides on the modeled clock and must not reuse memory early).
  void event_wait_workers(EventId e);
  // Milliseconds from start to end, as cudaEventElapsedTime: RuntimeError if either was never
  // recorded ("Both events must be recorded ..."), was created without timing ("CUDA error:
  // invalid resource handle") or has not completed ("CUDA error: device not ready").
  float elapsed_time_ms(EventId start, EventId end) const;

  // A runtime call that puts nothing on a stream (cudaMalloc, cublasCreate): the host spends ns.
  void host_call(const char* name, int64_t ns);

  // Synchronization: the host waits (for real) and its modeled clock moves to the device's.
  void stream_synchronize(StreamId s);
  bool stream_query(StreamId s) const;  // all its work completed, on the modeled clock
  void synchronize();                   // cudaDeviceSynchronize

  int64_t host_now_ns() const;
  // Moves the modeled host clock forward (host work between runtime calls, when measured).
  void advance_host(int64_t ns);
  // The latest ops (at most kKeptOps), in call order.
  static constexpr size_t kKeptOps = 4096;
  std::vector<DeviceOp> ops() const;
  // Work that threw on a worker: the first message, reported (and cleared) by the next
  // synchronize as CUDA reports an asynchronous error.
  std::string take_async_error();

 private:
  struct Marker {  // "the first `count` items of stream `stream` have run"
    StreamId stream;
    uint64_t count;
  };
  struct Item {
    std::function<void()> work;
    std::vector<Marker> deps;
  };
  struct Stream {
    bool blocking = true;
    int64_t tail_ns = 0;    // modeled end of its last work
    uint64_t enqueued = 0;  // items pushed
    uint64_t done = 0;      // items run (guarded by mu_)
    VectorClock vc;         // what its next item is ordered after
    std::deque<Item> queue;
    std::thread worker;
  };
  struct Event {
    bool timing = false;
    bool recorded = false;
    int64_t time_ns = 0;        // modeled completion
    std::vector<Marker> after;  // what must have run for it to complete
    VectorClock vc;             // what it is ordered after (its stream's clock, with itself)
  };

  StreamId add_stream_locked(bool blocking);
  void worker_loop(StreamId s);
  bool ready_locked(const std::vector<Marker>& deps) const;
  // The implicit dependencies of new work on s (legacy default stream semantics), and the
  // modeled time they allow it to start.
  std::vector<Marker> implicit_deps_locked(StreamId s, int64_t& after_ns) const;
  void push_locked(StreamId s, Item item);
  // Orders the next item of s after what it implicitly waits for and what the host waited for.
  void order_locked(StreamId s, const std::vector<Marker>& implicit);
  // The host waited for the first `count` items of stream s.
  void host_waited_locked(StreamId s, uint64_t count);
  // An event record (start == end) or wait (from when the stream was free until the event), as
  // an op on the modeled clock.
  void add_marker_op_locked(DeviceOp::Kind kind, const char* name, StreamId s, int64_t start, int64_t end, EventId e);
  // Numbers the op, keeps it, shows it to on_op; returns its id.
  uint64_t add_op_locked(DeviceOp op);
  // A synchronize's op: the host waited from `host_start` until the device's time `until`.
  void add_sync_op_locked(const char* name, StreamId s, EventId e, int64_t host_start, int64_t until);
  void wait_for_locked(std::unique_lock<std::mutex>& lock, const std::vector<Marker>& markers);
  void check_stream(StreamId s) const;
  void check_event(EventId e) const;

  const GpuSpec spec_;
  const std::function<void()> worker_init_;
  const std::function<void(const DeviceOp&)> on_op_;
  std::unique_ptr<HostClock> own_clock_;
  HostClock* clock_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::vector<std::unique_ptr<Stream>> streams_;
  std::vector<Event> events_;
  std::deque<DeviceOp> ops_;
  uint64_t next_op_id_ = 1;
  std::vector<StreamId> pool_[2];
  size_t pool_next_[2] = {0, 0};
  std::string async_error_;
  VectorClock host_vc_;  // what the host has waited for
  bool check_hazards_ = false;
  HazardCheck hazards_;
};

}  // namespace ipt::sim
