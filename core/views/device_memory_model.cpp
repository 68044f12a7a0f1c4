#include "core/views/device_memory_model.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <variant>

namespace ipt::views {

// Note [Three moments of a device tensor]
// A tensor made on the GPU has three moments the host's code does not show: the call that
// makes it returns to the host at once (host_returned), the kernel that writes it ends later
// on its stream (work_done), and after `del` the block becomes reusable only when the
// allocator says so (reusable: free_completed, at once for a block used on its own stream
// only, or once the events recorded for record_stream's streams have completed). The trace
// ties them together by address: an allocator action carries the block's address, and the
// work that writes a block carries it too (DeviceWork::addr). A block's life runs from its
// "alloc" to its "free_completed"; the first work that writes it within that life is the one
// that made the tensor.

namespace {

bool is(const char* a, const char* b) { return a == b || std::strcmp(a, b) == 0; }

}  // namespace

DeviceMemoryModel device_memory_model(const std::vector<trace::Event>& events, const trace::TraceIndex& index,
                                      uint32_t max_rows) {
  DeviceMemoryModel m;
  std::unordered_map<uint64_t, size_t> live;  // address -> its block in m.blocks
  for (size_t i = 0; i < events.size(); ++i) {
    const trace::Event& e = events[i];
    if (const auto* a = std::get_if<trace::DeviceMemory>(&e.payload)) {
      m.samples.push_back({e.ts_ns, a->allocated, a->reserved});
      m.peak = std::max({m.peak, a->allocated, a->reserved});
      if (is(a->action, "alloc")) {
        BlockLife b;
        b.addr = a->addr;
        b.size = a->size;
        b.stream = a->stream;
        b.alloc_ns = e.ts_ns;
        live[a->addr] = m.blocks.size();
        m.blocks.push_back(b);
      } else if (auto it = live.find(a->addr); it != live.end()) {
        BlockLife& b = m.blocks[it->second];
        if (is(a->action, "free_requested")) b.free_requested_ns = e.ts_ns;
        if (is(a->action, "free_completed")) {
          b.reusable_ns = e.ts_ns;
          live.erase(it);
        }
      }
      continue;
    }
    const auto* w = std::get_if<trace::DeviceWork>(&e.payload);
    if (!w || !w->addr || e.phase != trace::Phase::Begin || i >= index.size()) continue;
    auto it = live.find(w->addr);
    if (it == live.end()) continue;
    BlockLife& b = m.blocks[it->second];
    const uint32_t end = index.match[i];
    if (end == trace::TraceIndex::kNone) continue;
    if (!trace::is_device_track(e.tid)) {
      if (b.host_returned_ns < 0) b.host_returned_ns = events[end].ts_ns;
    } else if (b.work_done_ns < 0) {
      b.work_done_ns = events[end].ts_ns;
      b.work_event = static_cast<uint32_t>(i);
    }
  }
  std::stable_sort(m.samples.begin(), m.samples.end(),
                   [](const MemorySample& a, const MemorySample& b) { return a.t < b.t; });
  // Lanes: the first whose last bar has ended (a bar ends when its block is reusable, or at
  // the trace's end); past max_rows, the lane that frees first.
  std::vector<int64_t> lane_end;
  for (BlockLife& b : m.blocks) {
    const int64_t end = b.reusable_ns >= 0 ? b.reusable_ns : index.t_max;
    size_t lane = lane_end.size();
    for (size_t k = 0; k < lane_end.size(); ++k)
      if (lane_end[k] <= b.alloc_ns) {
        lane = k;
        break;
      }
    if (lane == lane_end.size()) {
      if (lane_end.size() < std::max<uint32_t>(max_rows, 1)) lane_end.push_back(end);
      else lane = static_cast<size_t>(std::min_element(lane_end.begin(), lane_end.end()) - lane_end.begin());
    }
    lane_end[lane] = std::max(lane_end[lane], end);
    b.row = static_cast<uint32_t>(lane);
  }
  m.rows = static_cast<uint32_t>(lane_end.size());
  return m;
}

const MemorySample* sample_at(const DeviceMemoryModel& m, int64_t t) {
  auto it =
      std::upper_bound(m.samples.begin(), m.samples.end(), t, [](int64_t x, const MemorySample& s) { return x < s.t; });
  return it == m.samples.begin() ? nullptr : &*(it - 1);
}

}  // namespace ipt::views
