// Note [One index per trace]
// A trace of a million events is walked once, when it is recorded or loaded, to find what
// every view needs about its shape; views then read this index instead of each rebuilding
// its own stacks. The times come from chrome_layout(), so the Timeline draws exactly the
// slices a trace file's Chrome part holds (Note [Slices nest strictly]).
//
// Levels hold at most kMaxLevels depths: a deeper event (only a hostile or broken trace nests
// that deep) keeps its depth, parent and match but is not on a track, and span_of() says so.
#include "core/trace/trace_index.h"

#include <algorithm>
#include <unordered_map>

#include "core/trace/chrome_layout.h"

namespace ipt::trace {

namespace {
constexpr size_t kMaxLevels = 256;
}

TraceIndex build_trace_index(const std::vector<Event>& events) {
  const size_t n = events.size();
  const ChromeLayout l = chrome_layout(events);
  TraceIndex x;
  x.depth.assign(n, 0);
  x.parent.assign(n, TraceIndex::kNone);
  x.match.assign(n, TraceIndex::kNone);
  x.track.assign(n, 0);

  // The host's threads in the order first seen, then the devices' streams in order.
  std::vector<uint32_t> tids = l.tids;
  std::stable_partition(tids.begin(), tids.end(), [](uint32_t t) { return !is_device_track(t); });
  std::sort(std::find_if(tids.begin(), tids.end(), is_device_track), tids.end());
  std::unordered_map<uint32_t, uint16_t> track_of;
  for (uint32_t tid : tids) {
    if (x.tracks.size() == UINT16_MAX) break;  // more threads than a track number holds
    track_of.emplace(tid, static_cast<uint16_t>(x.tracks.size()));
    x.tracks.push_back(TraceIndex::Track{tid, track_name(tid), {}});
  }
  // First pass: each event's nesting, and how many slices and marks each level gets; the
  // second fills the levels, reserved to their exact sizes (a million events must not leave
  // the garbage of doubling vectors behind).
  std::vector<std::vector<uint32_t>> stacks(x.tracks.size());
  struct Count {
    uint32_t slices = 0, marks = 0;
  };
  std::vector<std::vector<Count>> counts(x.tracks.size());
  for (size_t i = 0; i < n; ++i) {
    auto it = track_of.find(events[i].tid);
    const uint16_t t = it == track_of.end() ? static_cast<uint16_t>(x.tracks.size() - 1) : it->second;
    x.track[i] = t;
    std::vector<uint32_t>& st = stacks[t];
    const auto idx = static_cast<uint32_t>(i);
    const auto role = l.role[i];
    if (role == ChromeLayout::Closing && !st.empty()) {
      const uint32_t b = st.back();
      st.pop_back();
      x.match[i] = b;
      x.match[b] = idx;
    }
    const size_t d = st.size();
    x.depth[i] = static_cast<uint16_t>(std::min<size_t>(d, UINT16_MAX));
    x.parent[i] = st.empty() ? TraceIndex::kNone : st.back();
    if (role == ChromeLayout::Slice) st.push_back(idx);
    if (role == ChromeLayout::Closing || d >= kMaxLevels) continue;
    if (counts[t].size() <= d) counts[t].resize(d + 1);
    ++(role == ChromeLayout::Slice ? counts[t][d].slices : counts[t][d].marks);
  }
  for (size_t t = 0; t < x.tracks.size(); ++t) {
    auto& levels = x.tracks[t].levels;
    levels.resize(counts[t].size());
    for (size_t d = 0; d < levels.size(); ++d) {
      levels[d].slices.reserve(counts[t][d].slices);
      levels[d].marks.reserve(counts[t][d].marks);
    }
  }
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    const auto role = l.role[i];
    const size_t d = x.depth[i];
    if (role == ChromeLayout::Closing || d >= kMaxLevels) continue;
    auto& level = x.tracks[x.track[i]].levels[d];
    const int64_t t0 = l.ts[i];
    const int64_t t1 = role == ChromeLayout::Slice ? l.end[i] : t0;
    if (role == ChromeLayout::Slice) level.slices.push_back(TraceIndex::Slice{t0, t1, static_cast<uint32_t>(i)});
    else level.marks.push_back(TraceIndex::Mark{t0, static_cast<uint32_t>(i)});
    if (!any || t0 < x.t_min) x.t_min = t0;
    if (!any || t1 > x.t_max) x.t_max = t1;
    any = true;
  }
  for (const FlowLink& f : fwdbwd_flows(events, l))
    x.flows.push_back(TraceIndex::Flow{f.from, f.to, l.ts[f.from], l.ts[f.to]});
  for (const FlowLink& f : launch_flows(events, l))
    x.flows.push_back(TraceIndex::Flow{f.from, f.to, l.ts[f.from], l.ts[f.to]});
  std::sort(x.flows.begin(), x.flows.end(),
            [](const TraceIndex::Flow& a, const TraceIndex::Flow& b) { return a.from < b.from; });
  return x;
}

bool TraceIndex::slice_of(size_t begin, size_t& level, size_t& pos) const {
  if (begin >= size() || track[begin] >= tracks.size()) return false;
  const auto& levels = tracks[track[begin]].levels;
  if (depth[begin] >= levels.size()) return false;
  const auto& v = levels[depth[begin]].slices;
  auto it = std::lower_bound(v.begin(), v.end(), begin, [](const Slice& s, size_t e) { return s.event < e; });
  if (it == v.end() || it->event != begin) return false;
  level = depth[begin];
  pos = static_cast<size_t>(it - v.begin());
  return true;
}

bool TraceIndex::span_of(size_t i, int64_t& t0, int64_t& t1) const {
  if (i >= size()) return false;
  size_t lv = 0, pos = 0;
  const size_t b = match[i] != kNone && match[i] < i ? match[i] : i;  // an End: its Begin's slice
  if (slice_of(b, lv, pos)) {
    const Slice& s = tracks[track[b]].levels[lv].slices[pos];
    t0 = s.t0;
    t1 = s.t1;
    return true;
  }
  if (track[i] >= tracks.size() || depth[i] >= tracks[track[i]].levels.size()) return false;
  const auto& m = tracks[track[i]].levels[depth[i]].marks;
  auto it = std::lower_bound(m.begin(), m.end(), i, [](const Mark& k, size_t e) { return k.event < e; });
  if (it == m.end() || it->event != i) return false;
  t0 = t1 = it->t;
  return true;
}

}  // namespace ipt::trace
