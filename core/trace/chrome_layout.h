#pragma once
// Internal to core/trace: where each event goes in a trace file's Chrome part, computed once
// for the writers (see Note [Slices nest strictly] in chrome_layout.cpp).

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/trace/events.h"

namespace ipt::trace {

struct ChromeLayout {
  enum Role : uint8_t {
    Slice,      // a Begin: one complete ("X") slice from ts[i] to end[i]
    Instant,    // an Instant: one "i" event at ts[i]
    Closing,    // an End that closes a slice (written with its Begin)
    Unmatched,  // an End with no open Begin: an instant at ts[i], marked unmatched_end
  };
  static constexpr uint32_t kUnfinished = UINT32_MAX;

  std::vector<Role> role;        // per event
  std::vector<int64_t> ts;       // per event: where it starts, after clamping (ns)
  std::vector<int64_t> end;      // per Slice: where it ends, after clamping (ns)
  std::vector<uint32_t> closer;  // per Slice: the index of its End, or kUnfinished
  std::vector<uint32_t> tids;    // every thread, in the order first seen
};

ChromeLayout chrome_layout(const std::vector<Event>& events);

// One forward-backward flow (Note [Forward-backward flows] in chrome_layout.cpp): from the
// "node created" instant recorded in a forward operator to the first slice of that backward
// node's run in the engine. `node` is the node's id, as recorded.
struct FlowLink {
  uint32_t from = 0;  // the creation instant
  uint32_t to = 0;    // the node's slice
  uint64_t node = 0;  // the backward node's id
};
// Every flow whose both ends were recorded, ordered by `from`.
std::vector<FlowLink> fwdbwd_flows(const std::vector<Event>& events, const ChromeLayout& l);

// Every launch flow (Note [Device tracks] in core/trace/events.h): from a host runtime call
// (a CudaRuntime slice) to the first device slice with the same correlation id; `node` holds
// the correlation id. Ordered by `from`.
std::vector<FlowLink> launch_flows(const std::vector<Event>& events, const ChromeLayout& l);

// Chrome's microseconds for our nanoseconds (Note [Microseconds that never overlap] in
// chrome_layout.cpp). An event's ts is 3/8 ns after its nanosecond; a slice's dur is such that
// ts + dur, added as doubles, is exactly the same double for every slice that ends on a given
// nanosecond, 1/8 ns after it (0 for a slice that ends where it starts). A reader that rounds
// us * 1000 gets every ts and dur back; one that truncates gets every ts, and every nonzero
// dur 1 ns short.
double chrome_ts_us(int64_t ns);
double chrome_dur_us(int64_t start_ns, int64_t end_ns);

}  // namespace ipt::trace
