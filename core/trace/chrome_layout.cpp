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
// Note [Microseconds that truncate right]
// Chrome's ts/dur are microseconds. Perfetto converts them with int64(us * 1000.0), which
// truncates: 1001 ns written as 1.001 reads back as 1000 ns, which can push a child past its
// parent's end. We write (ns + 0.25) / 1000, so both truncating and rounding readers get the
// exact nanosecond back; the quarter nanosecond is invisible.
#include "core/trace/chrome_layout.h"

#include <algorithm>
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
    if (l.role[i] == ChromeLayout::Instant && std::strcmp(e.name, "node created") == 0) {
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
