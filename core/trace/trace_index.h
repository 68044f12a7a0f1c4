#pragma once
// TraceIndex: what every view needs to know about a trace's shape, computed once per recorded
// or loaded trace and shared by all of them (Note [One index per trace] in trace_index.cpp):
// each event's nesting (depth, enclosing Begin, Begin/End partner), and per host thread a
// track of time-sorted levels (slices and instants per nesting depth) that the Timeline
// binary-searches, plus the forward-backward flows between events.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/events.h"

namespace ipt::trace {

struct TraceIndex {
  static constexpr uint32_t kNone = UINT32_MAX;

  // A Begin/End pair as a slice [t0, t1] (ns, clamped to nest: Note [Slices nest strictly]).
  struct Slice {
    int64_t t0 = 0, t1 = 0;
    uint32_t event = 0;  // the Begin
  };
  // An instant (or an End with no Begin) at time t.
  struct Mark {
    int64_t t = 0;
    uint32_t event = 0;
  };
  // The slices and marks at one nesting depth of a track. Slices at one depth never overlap,
  // so both their starts and their ends are sorted (as are the marks' times).
  struct Level {
    std::vector<Slice> slices;
    std::vector<Mark> marks;
  };
  struct Track {
    uint32_t tid = 0;
    std::string name;           // "host thread 0"
    std::vector<Level> levels;  // [depth]
  };
  struct Flow {
    uint32_t from = 0, to = 0;  // event indices (Note [Forward-backward flows])
    int64_t t_from = 0, t_to = 0;
  };

  // Per event.
  std::vector<uint16_t> depth;   // open Begins on its thread when it happens (an End: after closing)
  std::vector<uint32_t> parent;  // the enclosing Begin on its thread, or kNone
  std::vector<uint32_t> match;   // a Begin's End and an End's Begin, or kNone
  std::vector<uint16_t> track;   // index into tracks

  std::vector<Track> tracks;     // in the order threads were first seen
  std::vector<Flow> flows;       // ordered by `from`
  int64_t t_min = 0, t_max = 0;  // the whole trace's extent (ns)

  size_t size() const { return depth.size(); }
  // Where event i lies in time: a Begin's slice, an End's slice (its Begin's), or an
  // instant's point (t0 == t1). False for an index out of range.
  bool span_of(size_t i, int64_t& t0, int64_t& t1) const;
  // The slice (depth, index into the level) of a Begin, or false.
  bool slice_of(size_t begin, size_t& level, size_t& pos) const;
};

// Builds the index of `events` (linear in their number; never throws for odd input: unmatched
// Ends become marks, unfinished Begins end at their thread's last timestamp).
TraceIndex build_trace_index(const std::vector<Event>& events);

}  // namespace ipt::trace
