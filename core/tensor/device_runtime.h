#pragma once
// What a device with streams (CUDA, real or simulated) offers beyond memory and kernels:
// PyTorch's torch.cuda API (streams, events, synchronization, the caching allocator's
// statistics). A backend that has one points BackendInterface::runtime at it; torch.cuda's
// bindings only ever talk to this interface, never to a backend by name.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ipt {

struct DeviceMemoryStats {
  uint64_t allocated = 0, max_allocated = 0;  // bytes in blocks handed out (rounded sizes)
  uint64_t reserved = 0, max_reserved = 0;    // bytes in segments
  uint64_t active = 0;                        // allocated + pending free
  uint64_t requested = 0;                     // bytes asked for (unrounded)
  uint64_t num_allocs = 0, num_frees = 0, num_segment_allocs = 0, num_segment_frees = 0;
};

struct DeviceBlock {
  uint64_t address = 0, size = 0, requested = 0;
  std::string state;  // active_allocated, active_pending_free, inactive
};

struct DeviceSegment {
  uint64_t address = 0, total_size = 0, allocated_size = 0, active_size = 0;
  int64_t stream = 0;
  std::string segment_type;  // small, large
  std::vector<DeviceBlock> blocks;
};

struct DeviceTraceEntry {
  std::string action;  // alloc, free_requested, free_completed, segment_alloc, segment_free
  uint64_t addr = 0, size = 0;
  int64_t stream = 0;
  int64_t time_ns = 0;  // on the device's host clock (the simulator's modeled one)
};

// Streams and events are small integers (a stream's id is what torch.cuda.Stream shows).
class DeviceRuntime {
 public:
  virtual ~DeviceRuntime() = default;
  virtual bool simulated() const = 0;
  virtual int device_count() const = 0;
  virtual std::string device_name(int device) const = 0;
  virtual uint64_t total_memory(int device) const = 0;

  virtual int64_t default_stream() const = 0;
  virtual int64_t current_stream() const = 0;  // this thread's, as in PyTorch
  virtual void set_current_stream(int64_t s) = 0;
  virtual int64_t pool_stream(bool high_priority) = 0;
  virtual bool stream_query(int64_t s) = 0;
  virtual void stream_synchronize(int64_t s) = 0;
  virtual void synchronize() = 0;

  virtual int64_t event_create(bool enable_timing) = 0;
  virtual void event_record(int64_t e, int64_t s) = 0;
  virtual void stream_wait_event(int64_t s, int64_t e) = 0;
  virtual bool event_query(int64_t e) = 0;
  virtual void event_synchronize(int64_t e) = 0;
  virtual double elapsed_time_ms(int64_t start, int64_t end) = 0;

  virtual void record_stream(const void* data, int64_t s) = 0;
  // The device address of memory this device handed out (Tensor.data_ptr(), the snapshot's
  // addresses).
  virtual uint64_t device_address(const void* data) const = 0;
  virtual DeviceMemoryStats memory_stats() const = 0;
  virtual void reset_peak_memory_stats() = 0;
  virtual void empty_cache() = 0;
  // A new program starts on this device (start_recording calls it): the device looks as a
  // new process finds it, for what the process may tell apart (cached memory, peaks and the
  // allocator's history, the stream pool's order, one-time library setup).
  virtual void begin_program() = 0;
  virtual std::vector<DeviceSegment> memory_snapshot() const = 0;
  virtual std::vector<DeviceTraceEntry> memory_trace() const = 0;

  // torch.cuda._sanitizer: report kernels that race on memory (Note [Streams, vector clocks
  // and races] in backends/sim/hazard_check.h). Off by default.
  virtual void set_hazard_check(bool on) = 0;

  // torch.backends.cuda.matmul.allow_tf32 / torch.set_float32_matmul_precision.
  // A kernel generated at run time (torch.compile's inductor) launched on the current stream:
  // `work` runs on the device, reading and writing the memory at `reads` / `writes` (what the
  // race check sees); its modeled time follows from flops and bytes. Optional: a device that
  // cannot run host code (a real GPU, whose generated kernels would be Triton's) returns false.
  virtual bool launch_generated(const char* /*name*/, double /*flops*/, double /*bytes*/,
                                std::function<void()> /*work*/, const std::vector<const void*>& /*reads*/,
                                const std::vector<const void*>& /*writes*/) {
    return false;
  }
  virtual void set_allow_tf32(bool on) = 0;
  virtual bool allow_tf32() const = 0;
};

}  // namespace ipt
