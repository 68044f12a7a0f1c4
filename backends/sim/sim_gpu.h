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

// One thing the device did, on the modeled clock.
struct DeviceOp {
  enum class Kind : uint8_t { Kernel, Memcpy, EventRecord, StreamWait };
  Kind kind = Kind::Kernel;
  std::string name;
  StreamId stream = 0;
  uint64_t id = 0;         // in enqueue order, from 1; the correlation id of its launch
  int64_t host_ns = 0;     // when the host call that enqueued it returned
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  EventId event = -1;      // for EventRecord and StreamWait
};

class Gpu {
 public:
  // `worker_init` runs first on every stream's worker thread.
  explicit Gpu(GpuSpec spec = GpuSpec::h200(), std::function<void()> worker_init = {});
  ~Gpu();  // waits for all work, then stops the workers
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const GpuSpec& spec() const { return spec_; }

  // Streams. The legacy default stream (0) exists from the start.
  StreamId create_stream(bool blocking);
  // PyTorch's stream pool: 32 non-blocking streams per priority, created on first use and
  // handed out round-robin (the 33rd request gets the first stream again).
  StreamId pool_stream(bool high_priority = false);
  bool is_blocking(StreamId s) const;
  int stream_count() const;

  // Enqueues `work` on stream s and returns at once, with the op as modeled (its times).
  DeviceOp launch(StreamId s, std::string name, const KernelCost& cost, std::function<void()> work,
                  DeviceOp::Kind kind = DeviceOp::Kind::Kernel);

  // Events (cudaEventCreate / Record / StreamWaitEvent / Query / Synchronize / ElapsedTime).
  EventId create_event(bool enable_timing);
  void record_event(EventId e, StreamId s);
  void stream_wait_event(StreamId s, EventId e);  // later work on s waits for e
  bool event_recorded(EventId e) const;
  bool event_query(EventId e) const;              // completed, on the modeled clock
  void event_synchronize(EventId e);
  // Waits until the workers have really run up to e, leaving the modeled host clock alone
  // (for the allocator, which decides on the modeled clock and must not reuse memory early).
  void event_wait_workers(EventId e);
  // Milliseconds from start to end, as cudaEventElapsedTime: RuntimeError if either was never
  // recorded ("Both events must be recorded ..."), was created without timing ("CUDA error:
  // invalid resource handle") or has not completed ("CUDA error: device not ready").
  float elapsed_time_ms(EventId start, EventId end) const;

  // Synchronization: the host waits (for real) and its modeled clock moves to the device's.
  void stream_synchronize(StreamId s);
  bool stream_query(StreamId s) const;  // all its work completed, on the modeled clock
  void synchronize();                   // cudaDeviceSynchronize

  int64_t host_now_ns() const;
  // Moves the modeled host clock forward (host work between runtime calls, when measured).
  void advance_host(int64_t ns);
  // Every op so far, in enqueue order.
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
    int64_t tail_ns = 0;        // modeled end of its last work
    uint64_t enqueued = 0;      // items pushed
    uint64_t done = 0;          // items run (guarded by mu_)
    std::deque<Item> queue;
    std::thread worker;
  };
  struct Event {
    bool timing = false;
    bool recorded = false;
    int64_t time_ns = 0;        // modeled completion
    std::vector<Marker> after;  // what must have run for it to complete
  };

  StreamId add_stream_locked(bool blocking);
  void worker_loop(StreamId s);
  bool ready_locked(const std::vector<Marker>& deps) const;
  // The implicit dependencies of new work on s (legacy default stream semantics), and the
  // modeled time they allow it to start.
  std::vector<Marker> implicit_deps_locked(StreamId s, int64_t& after_ns) const;
  void push_locked(StreamId s, Item item);
  // An event record or wait, as an op at modeled time `at`.
  void add_marker_op_locked(DeviceOp::Kind kind, const char* name, StreamId s, int64_t at, EventId e);
  void wait_for_locked(std::unique_lock<std::mutex>& lock, const std::vector<Marker>& markers);
  void check_stream(StreamId s) const;
  void check_event(EventId e) const;

  const GpuSpec spec_;
  const std::function<void()> worker_init_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::vector<std::unique_ptr<Stream>> streams_;
  std::vector<Event> events_;
  std::vector<DeviceOp> ops_;
  std::vector<StreamId> pool_[2];
  size_t pool_next_[2] = {0, 0};
  int64_t host_ns_ = 0;
  std::string async_error_;
};

}  // namespace ipt::sim
