#pragma once
// The Timeline's model: what to draw for a window of time, as pure functions of a trace's
// TraceIndex (no GUI). Drawing cost follows pixels, not events (Note [Folding narrow slices]
// in timeline_model.cpp).

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/events.h"
#include "core/trace/trace_index.h"

namespace ipt::views {

// The visible window: time t0 (ns) at pixel 0, `ns_per_px` ns per pixel, `width` pixels.
struct TimeWindow {
  double t0 = 0;
  double ns_per_px = 1;
  double width = 1;
  double px(double t) const { return (t - t0) / ns_per_px; }
  double t_at(double x) const { return t0 + x * ns_per_px; }
  double t1() const { return t_at(width); }
};

// One box to draw: a slice (count 1) or a run of `count` folded slices or marks, from the
// first one's event; x in pixels from the window's start (may lie outside [0, width]).
struct Box {
  double x0 = 0, x1 = 0;
  uint32_t event = 0;
  uint32_t count = 1;
  int64_t t0 = 0, t1 = 0;  // the time the box covers (ns)
};

// The boxes of one level's slices that meet the window, in order. A slice narrower than
// `min_px` is folded with the narrow slices that follow it within `min_px` into one box.
void fold_slices(const std::vector<trace::TraceIndex::Slice>& slices, const TimeWindow& w, double min_px,
                 std::vector<Box>& out);
// The same for instants: marks closer than `min_px` become one box (x0 == the first, x1 the last).
void fold_marks(const std::vector<trace::TraceIndex::Mark>& marks, const TimeWindow& w, double min_px,
                std::vector<Box>& out);

// The ruler's tick spacing: the smallest 1, 2 or 5 x 10^k ns at least `min_px` pixels apart.
int64_t tick_step(double ns_per_px, double min_px);
// "0", "500 ns", "1.5 us", "12 ms", "1.25 s" (`micro` is the micro sign to use, "us" or "µs").
std::string format_ns(double ns, const char* micro = "us");

// Counts and total time per operator in [a, b]: dispatch calls count under their operator
// (an entry call, not its redispatches), other slices under their name; the time is the
// part of each slice inside the range. Sorted by total time, longest first.
struct RangeRow {
  std::string name;
  uint64_t count = 0;
  int64_t total_ns = 0;
};
struct RangeStats {
  std::vector<RangeRow> rows;
  uint64_t slices = 0, instants = 0;
};
RangeStats range_stats(const std::vector<trace::Event>& events, const trace::TraceIndex& index, int64_t a, int64_t b);

}  // namespace ipt::views
