#pragma once
// The Timeline's device memory, from a trace's GpuMemory and device-work events (no GUI):
// allocated and reserved bytes over time, and each block's lifetime with the moments
// lesson 5 tells apart (Note [Three moments of a device tensor] in device_memory_model.cpp).

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/events.h"
#include "core/trace/trace_index.h"

namespace ipt::views {

// memory_allocated() and memory_reserved() after one allocator action (ns on the trace's clock).
struct MemorySample {
  int64_t t = 0;
  int64_t allocated = 0, reserved = 0;
};

// One block handed out by the caching allocator, from "alloc" to "free_completed". A moment
// that did not happen in the trace is -1.
struct BlockLife {
  uint64_t addr = 0;
  int64_t size = 0;
  int32_t stream = 0;
  int64_t alloc_ns = 0;            // the allocator handed it out (on the host)
  int64_t host_returned_ns = -1;   // the call that first wrote it (a launch, a copy) returned
  int64_t work_done_ns = -1;       // ... and that work ended on the device
  int64_t free_requested_ns = -1;  // the host freed it
  int64_t reusable_ns = -1;        // free_completed: the allocator may hand it out again
  uint32_t work_event = 0;         // the first writing work's Begin on its stream (valid if work_done_ns >= 0)
  uint32_t row = 0;                // lane of the lifetime bars (bars in one lane do not overlap)
};

struct DeviceMemoryModel {
  std::vector<MemorySample> samples;  // in time order
  int64_t peak = 0;                   // the largest reserved (or allocated) value
  std::vector<BlockLife> blocks;      // by alloc time
  uint32_t rows = 0;                  // lanes used by `blocks`
  bool empty() const { return samples.empty() && blocks.empty(); }
};

// Blocks beyond `max_rows` lanes share the last one (drawn over each other).
DeviceMemoryModel device_memory_model(const std::vector<trace::Event>& events, const trace::TraceIndex& index,
                                      uint32_t max_rows = 12);

// The sample in force at time t (the last one at or before t), or nullptr before the first.
const MemorySample* sample_at(const DeviceMemoryModel& m, int64_t t);

}  // namespace ipt::views
