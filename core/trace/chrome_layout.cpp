// Note [Slices nest strictly]
// Each thread's Begin/End pairs become complete ("X") slices. Ends pair with the innermost
// open Begin, as in Chrome's B/E semantics. To keep slices strictly nested even for
// hand-made or reordered input, a slice starts no earlier than its parent's start or its
// previous sibling's end, and ends no earlier than its own start or its children's ends.
// A Begin never closed ends at its thread's last timestamp. For the recorder's own traces
// (timestamps non-decreasing per thread) this changes nothing.
//
// Note [Forward-backward flows]
// As Kineto's "fwdbwd" flows do, an arrow goes from the forward operator that created a
// backward node ("node created", recorded inside the operator's Autograd kernel, with the
// node's id in its "node" field) to that node's run in the engine (its first slice carrying
// the same "node"). The writer exports it as a flow start ("s") bound to the enclosing slice
// and a flow end ("f", "bp":"e"); the Timeline draws it as an arrow.
//
// Note [Microseconds that never overlap]
// Chrome's ts and dur are microseconds; our times are whole nanoseconds. Readers turn them
// back in three ways: Perfetto truncates int64(us * 1000.0), ts and dur separately; others
// round; a strict checker adds ts + dur in microseconds and compares it with the next slice's
// ts. Plain ns / 1000 fails the first: 1.001 truncates to 1000 ns, which can push a child past
// its parent's end. Writing both ts and dur as (ns + 0.25) / 1000 fixed that but failed the
// third: an end then lands half a nanosecond late, a quarter after the start of a slice that
// begins where it ends (lesson 5's kernels, back to back on one stream). No single offset
// serves all three: ts + dur must not pass the next start, and a truncated dur must not come
// back short. So we write
//   ts = (start + 3/8) / 1000     and     ts + dur = (end + 1/8) / 1000,
// and a slice's end, in microseconds, lies a quarter nanosecond before any slice that starts
// at that nanosecond. Rounding gives back every ts, end and dur exactly; truncation gives
// every ts (and a truncated ts + dur) exactly, and a nonzero dur 1 ns short, so such a reader
// sees every slice end 1 ns early alike, and nesting survives it.
// Equal ends must stay equal after the reader's own addition, or a child that ends with its
// parent could poke a rounding error past it. So dur is chosen so that ts + dur, rounded as a
// double, is exactly the end's value: the plain quotient (dur - 1/4) / 1000 when it lands
// there (it prints shortest), else the difference, nudged by an ulp. The end's value has an
// even last bit, so a sum halfway between it and a neighbour rounds to it and every slice
// ending on that nanosecond reaches it (for times at or after the trace's start). A
// zero-length slice has dur 0; at its parent's very end it lies just after the parent.

#include "core/trace/chrome_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <optional>
#include <unordered_map>

namespace ipt::trace {

namespace {
struct Open {
  uint32_t index;  // the Begin's event index (unused for the root)
  int64_t start;   // ns, after clamping
  int64_t floor;   // ns: the next child starts at/after this (the last child's end)
};
struct Thread {
  std::vector<Open> stack;  // [0] is a root
  int64_t last_ts;          // where unfinished slices end
};
}  // namespace

ChromeLayout chrome_layout(const std::vector<Event>& events) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  const size_t n = events.size();
  ChromeLayout l;
  l.role.resize(n);
  l.ts.resize(n);
  l.end.assign(n, 0);
  l.closer.assign(n, ChromeLayout::kUnfinished);
  std::unordered_map<uint32_t, size_t> slot;  // tid -> index into threads
  std::vector<Thread> threads;
  std::vector<size_t> thread_of(n);
  for (size_t i = 0; i < n; ++i) {
    const Event& e = events[i];
    auto [it, fresh] = slot.try_emplace(e.tid, threads.size());
    if (fresh) {
      threads.push_back(Thread{{Open{0, kMin, kMin}}, e.ts_ns});
      l.tids.push_back(e.tid);
    }
    thread_of[i] = it->second;
    threads[it->second].last_ts = std::max(threads[it->second].last_ts, e.ts_ns);
  }
  auto close = [&](std::vector<Open>& stack, int64_t end_ts, uint32_t closer) {
    const Open o = stack.back();
    stack.pop_back();
    const int64_t end_ns = std::max({end_ts, o.start, o.floor});
    l.end[o.index] = end_ns;
    l.closer[o.index] = closer;
    stack.back().floor = std::max(stack.back().floor, end_ns);
  };
  for (size_t i = 0; i < n; ++i) {
    const Event& e = events[i];
    std::vector<Open>& stack = threads[thread_of[i]].stack;
    const Open& top = stack.back();
    const int64_t ts = std::max({e.ts_ns, top.start, top.floor});
    l.ts[i] = ts;
    switch (e.phase) {
      case Phase::Begin:
        l.role[i] = ChromeLayout::Slice;
        stack.push_back(Open{static_cast<uint32_t>(i), ts, kMin});
        break;
      case Phase::End:
        if (stack.size() > 1) {
          l.role[i] = ChromeLayout::Closing;
          close(stack, e.ts_ns, static_cast<uint32_t>(i));
          break;
        }
        l.role[i] = ChromeLayout::Unmatched;
        stack.back().floor = std::max(stack.back().floor, ts);
        break;
      case Phase::Instant:
        l.role[i] = ChromeLayout::Instant;
        stack.back().floor = std::max(stack.back().floor, ts);
        break;
    }
  }
  for (Thread& t : threads)
    while (t.stack.size() > 1) close(t.stack, t.last_ts, ChromeLayout::kUnfinished);
  return l;
}

double chrome_ts_us(int64_t ns) { return (static_cast<double>(ns) + 0.375) / 1000.0; }

namespace {
// Where ts + dur lands for a slice that ends at ns: 1/8 ns after it, with an even last bit, so
// that a sum falling halfway between it and a neighbour rounds to it.
double chrome_end_us(int64_t ns) {
  const double us = (static_cast<double>(ns) + 0.125) / 1000.0;
  uint64_t bits;
  std::memcpy(&bits, &us, sizeof bits);
  if ((bits & 1) == 0 || !std::isfinite(us)) return us;
  const double up = std::nextafter(us, HUGE_VAL), down = std::nextafter(us, -HUGE_VAL);
  return up - us <= us - down ? up : down;  // either is within a hair of 1/8 ns
}
}  // namespace

double chrome_dur_us(int64_t start_ns, int64_t end_ns) {
  if (end_ns <= start_ns) return 0.0;
  const double ts = chrome_ts_us(start_ns), end = chrome_end_us(end_ns);
  // The plain quotient prints shortest; take it when the sum lands right.
  double dur = (static_cast<double>(end_ns - start_ns) - 0.25) / 1000.0;
  if (ts + dur == end) return dur;
  // Otherwise the difference, nudged by an ulp or two: for ts >= 0 the sum then rounds to
  // end (its even last bit wins a tie).
  dur = end - ts;
  for (int i = 0; i < 4 && ts + dur != end; ++i) dur = std::nextafter(dur, ts + dur < end ? HUGE_VAL : 0.0);
  while (ts + dur > end && dur > 0) dur = std::nextafter(dur, 0.0);  // never past the end
  return dur;
}

namespace {
// The backward node an autograd event is about: the one a "node created" instant made, or the
// one whose run a slice is.
std::optional<uint64_t> autograd_node(const Event& e) {
  if (e.category != Category::Autograd) return std::nullopt;
  if (const auto* g = std::get_if<GraphNode>(&e.payload)) return g->node;
  if (const auto* s = std::get_if<EngineStep>(&e.payload)) return s->node;
  return std::nullopt;
}
}  // namespace

std::vector<FlowLink> fwdbwd_flows(const std::vector<Event>& events, const ChromeLayout& l) {
  std::unordered_map<uint64_t, uint32_t> created;  // node id -> its creation instant
  std::vector<FlowLink> flows;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    const std::optional<uint64_t> node = autograd_node(e);
    if (!node) continue;
    // "node created" is the instant whose payload is a single GraphNode.
    if (l.role[i] == ChromeLayout::Instant && std::holds_alternative<GraphNode>(e.payload)) {
      created.try_emplace(*node, static_cast<uint32_t>(i));
    } else if (l.role[i] == ChromeLayout::Slice) {
      auto it = created.find(*node);
      if (it == created.end() || it->second == ChromeLayout::kUnfinished) continue;
      flows.push_back(FlowLink{it->second, static_cast<uint32_t>(i), *node});
      it->second = ChromeLayout::kUnfinished;  // only the node's first run
    }
  }
  std::sort(flows.begin(), flows.end(), [](const FlowLink& a, const FlowLink& b) { return a.from < b.from; });
  return flows;
}

std::vector<FlowLink> launch_flows(const std::vector<Event>& events, const ChromeLayout& l) {
  std::unordered_map<uint64_t, uint32_t> calls;  // correlation id -> the host call's slice
  std::vector<FlowLink> flows;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (l.role[i] != ChromeLayout::Slice) continue;
    const auto* w = std::get_if<DeviceWork>(&e.payload);
    if (!w || !w->correlation) continue;
    if (!is_device_track(e.tid)) {
      if (e.category == Category::CudaRuntime) calls.try_emplace(w->correlation, static_cast<uint32_t>(i));
      continue;
    }
    auto it = calls.find(w->correlation);
    if (it == calls.end() || it->second == ChromeLayout::kUnfinished) continue;
    flows.push_back(FlowLink{it->second, static_cast<uint32_t>(i), w->correlation});
    it->second = ChromeLayout::kUnfinished;
  }
  std::sort(flows.begin(), flows.end(), [](const FlowLink& a, const FlowLink& b) { return a.from < b.from; });
  return flows;
}

}  // namespace ipt::trace
