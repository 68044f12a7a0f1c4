#pragma once
// The simulated GPU's memory: a caching allocator with the rules of PyTorch's
// CUDACachingAllocator.
//
// Note [The caching allocator]
// Requests are rounded up to a multiple of 512 bytes. Requests up to 1 MiB come from the
// small pool, whose segments are 2 MiB; larger ones from the large pool, whose segments are
// 20 MiB for requests under 10 MiB and otherwise the request rounded up to 2 MiB. A free
// block is found best-fit among the free blocks *of the same stream* and split when what is
// left is worth keeping (at least 512 bytes in the small pool, more than 1 MiB in the large).
// A block belongs to the stream that allocated it: freeing it makes it reusable at once by
// later work on that stream (stream order keeps that safe), but if other streams used it
// (record_stream), the free only *requests* the reuse: an event is recorded on each of those
// streams, the block stays "active_pending_free", and it becomes free ("inactive") when those
// events have completed. Freed neighbours merge. empty_cache() returns whole free segments.
// Device addresses are modeled (segments laid out from a fixed base), so snapshots and
// traces are the same on every run; the bytes themselves live in host memory.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/sim/sim_gpu.h"
#include "core/tensor/device_runtime.h"

namespace ipt::sim {

// Statistics, segments and history are reported in torch.cuda's terms (DeviceMemoryStats,
// DeviceSegment, DeviceTraceEntry: core/tensor/device_runtime.h).
class CachingAllocator {
 public:
  static constexpr uint64_t kMinBlockSize = 512;
  static constexpr uint64_t kSmallSize = uint64_t(1) << 20;
  static constexpr uint64_t kSmallBuffer = uint64_t(2) << 20;
  static constexpr uint64_t kLargeBuffer = uint64_t(20) << 20;
  static constexpr uint64_t kMinLargeAlloc = uint64_t(10) << 20;
  static constexpr uint64_t kRoundLarge = uint64_t(2) << 20;
  static constexpr uint64_t kBaseAddress = 0x7f0000000000;

  // `on_action` sees every action as it is recorded, with the statistics after it (under the
  // allocator's lock: it must not call the allocator).
  using Observer = std::function<void(const DeviceTraceEntry&, const DeviceMemoryStats&)>;
  explicit CachingAllocator(Gpu& gpu, Observer on_action = {});
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  static uint64_t round_size(uint64_t nbytes);
  static uint64_t segment_size(uint64_t rounded);

  // Host memory standing for nbytes of device memory, used in stream order on `stream`;
  // null for 0 bytes. Throws RuntimeError "CUDA out of memory. ..." past the GPU's memory.
  void* allocate(uint64_t nbytes, StreamId stream);
  void deallocate(void* ptr);
  // Tensor.record_stream: `ptr`'s block is also used by work on `stream`.
  void record_stream(void* ptr, StreamId stream);
  // torch.cuda.empty_cache(): waits for pending frees, returns whole free segments.
  void empty_cache();

  // A new program starts (Note [Each run on a fresh device] in sim_backend.cpp): empty_cache(),
  // peaks and history cleared, and with no segment left, addresses start where a new
  // process's do.
  void begin_program();

  DeviceMemoryStats stats() const;
  void reset_peak_stats();
  std::vector<DeviceSegment> snapshot() const;
  // The latest actions (at most kKeptTrace), oldest first.
  static constexpr size_t kKeptTrace = 16384;
  std::vector<DeviceTraceEntry> trace() const;
  // The modeled device address of a pointer this allocator handed out (or into its block).
  uint64_t device_address(const void* ptr) const;
  bool owns(const void* ptr) const;

 private:
  struct Segment;
  struct Block {
    Segment* segment = nullptr;
    uint64_t offset = 0, size = 0, requested = 0;
    StreamId stream = 0;
    bool allocated = false;
    bool pending = false;  // freed, waiting for other streams' events
    std::set<StreamId> stream_uses;
    std::vector<EventId> events;  // while pending
    Block* prev = nullptr;
    Block* next = nullptr;
    uint64_t addr() const;
    char* host() const;
  };
  struct Segment {
    char* host = nullptr;
    uint64_t addr = 0, size = 0;
    StreamId stream = 0;
    bool small = false;
    Block* first = nullptr;
  };
  struct FreeOrder {  // best fit: same stream, smallest size, lowest address
    bool operator()(const Block* a, const Block* b) const;
  };
  using Pool = std::set<Block*, FreeOrder>;

  Pool& pool_of(bool small) { return small ? small_free_ : large_free_; }
  void process_events();
  void free_block(Block* b);
  Block* new_segment(uint64_t size, StreamId stream, bool small);
  void release_free_segments();
  void record(const char* action, uint64_t addr, uint64_t size, StreamId stream);
  const Block* find_locked(const void* ptr) const;

  Gpu& gpu_;
  const Observer on_action_;
  mutable std::mutex mu_;  // kernels on worker threads allocate too
  std::vector<std::unique_ptr<Segment>> segments_;
  Pool small_free_, large_free_;
  std::unordered_map<const void*, Block*> live_;  // by host pointer: allocated or pending
  std::vector<Block*> pending_;
  DeviceMemoryStats stats_;
  uint64_t next_addr_ = kBaseAddress;
  std::deque<DeviceTraceEntry> trace_;
};

}  // namespace ipt::sim
