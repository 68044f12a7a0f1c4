// Note [Folding narrow slices]
// A million slices cannot be drawn every frame, and need not be: a window 1,500 pixels wide
// shows at most a few hundred distinguishable boxes per row. As Tracy does, each level is
// searched for the window's first slice (its slices never overlap, so their ends are sorted),
// and a slice narrower than min_px starts a run that swallows everything ending within
// min_px of it, found by a galloping search from the run's end, not by visiting each slice.
// The run ends at the next slice that is wide or starts more than min_px away. Each step of
// the loop advances at least min_px pixels or ends the run, so a row costs
// O(width / min_px * log n) whatever the number of events in view.
#include "core/views/timeline_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <unordered_map>
#include <variant>

namespace ipt::views {

using trace::TraceIndex;

namespace {
// The partition point of [from, v.size()) for `before` (true for a prefix), found by galloping
// from `from`: the next box's slices are usually a few entries away, and a plain binary search
// over ten million entries would miss the cache some twenty times to find them.
template <typename T, typename Pred>
size_t gallop(const std::vector<T>& v, size_t from, Pred before) {
  const size_t n = v.size();
  size_t lo = from, step = 1;
  while (lo < n && before(v[lo])) {
    const size_t hi = std::min(n, lo + step);
    if (hi == n || !before(v[hi])) {
      return static_cast<size_t>(std::partition_point(v.begin() + static_cast<std::ptrdiff_t>(lo + 1),
                                                      v.begin() + static_cast<std::ptrdiff_t>(hi), before) -
                                 v.begin());
    }
    lo = hi;
    step *= 2;
  }
  return lo;
}
}  // namespace

void fold_slices(const std::vector<TraceIndex::Slice>& v, const TimeWindow& w, double min_px, std::vector<Box>& out) {
  const double t_begin = w.t0, t_end = w.t1();
  auto first_ending_after = [&](size_t from, double t) {
    return gallop(v, from, [&](const TraceIndex::Slice& s) { return static_cast<double>(s.t1) < t; });
  };
  size_t i = static_cast<size_t>(
      std::partition_point(v.begin(), v.end(),
                           [&](const TraceIndex::Slice& s) { return static_cast<double>(s.t1) < t_begin; }) -
      v.begin());
  const size_t n = v.size();
  while (i < n && static_cast<double>(v[i].t0) <= t_end) {
    const double x0 = w.px(static_cast<double>(v[i].t0));
    double x1 = w.px(static_cast<double>(v[i].t1));
    if (x1 - x0 >= min_px) {
      out.push_back(Box{x0, x1, v[i].event, 1, v[i].t0, v[i].t1});
      ++i;
      continue;
    }
    const size_t first = i;
    size_t j = i + 1;
    for (;;) {
      // Everything ending within min_px of the run's end is narrow and close: fold it in.
      const size_t k = first_ending_after(j, w.t_at(x1 + min_px));
      if (k > j) {
        j = k;
        x1 = w.px(static_cast<double>(v[j - 1].t1));
      }
      if (j >= n) break;
      const double nx0 = w.px(static_cast<double>(v[j].t0)), nx1 = w.px(static_cast<double>(v[j].t1));
      if (nx1 - nx0 >= min_px || nx0 - x1 > min_px || static_cast<double>(v[j].t0) > t_end) break;
      x1 = nx1;  // narrow and near, but ends further than min_px: take it and go on
      ++j;
    }
    out.push_back(Box{x0, x1, v[first].event, static_cast<uint32_t>(std::min<size_t>(j - first, UINT32_MAX)),
                      v[first].t0, v[j - 1].t1});
    i = j;
  }
}

void fold_marks(const std::vector<TraceIndex::Mark>& m, const TimeWindow& w, double min_px, std::vector<Box>& out) {
  const double t_end = w.t1();
  auto first_after = [&](size_t from, double t) {
    return gallop(m, from, [&](const TraceIndex::Mark& k) { return static_cast<double>(k.t) <= t; });
  };
  size_t i = static_cast<size_t>(
      std::partition_point(m.begin(), m.end(),
                           [&](const TraceIndex::Mark& k) { return static_cast<double>(k.t) < w.t0; }) -
      m.begin());
  while (i < m.size() && static_cast<double>(m[i].t) <= t_end) {
    const double x0 = w.px(static_cast<double>(m[i].t));
    size_t j = i + 1;
    double x1 = x0;
    for (;;) {
      const size_t k = first_after(j, w.t_at(x1 + min_px));
      if (k == j) break;
      j = k;
      x1 = w.px(static_cast<double>(m[j - 1].t));
    }
    out.push_back(
        Box{x0, x1, m[i].event, static_cast<uint32_t>(std::min<size_t>(j - i, UINT32_MAX)), m[i].t, m[j - 1].t});
    i = j;
  }
}

int64_t tick_step(double ns_per_px, double min_px) {
  const double want = std::max(1.0, ns_per_px * min_px);
  int64_t step = 1;
  while (step < INT64_MAX / 10) {
    for (int64_t f : {1, 2, 5})
      if (static_cast<double>(step * f) >= want) return step * f;
    step *= 10;
  }
  return step;
}

std::string format_ns(double ns, const char* micro) {
  const double a = std::fabs(ns);
  char buf[48];
  auto fmt = [&](double v, const char* unit) {
    // Up to 3 significant decimals, without trailing zeros: 1.5 us, 12 ms, 1.25 s.
    std::snprintf(buf, sizeof buf, "%.3f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return s + " " + unit;
  };
  if (a == 0) return "0";
  if (a < 1e3) return fmt(ns, "ns");
  if (a < 1e6) return fmt(ns / 1e3, micro);
  if (a < 1e9) return fmt(ns / 1e6, "ms");
  return fmt(ns / 1e9, "s");
}

RangeStats range_stats(const std::vector<trace::Event>& events, const TraceIndex& index, int64_t a, int64_t b) {
  RangeStats st;
  if (b < a) std::swap(a, b);
  std::unordered_map<std::string_view, size_t> row_of;
  auto add = [&](const char* name, int64_t ns) {
    auto [it, fresh] = row_of.try_emplace(name, st.rows.size());
    if (fresh) st.rows.push_back(RangeRow{name, 0, 0});
    st.rows[it->second].count++;
    st.rows[it->second].total_ns += ns;
  };
  for (const auto& track : index.tracks)
    for (const auto& level : track.levels) {
      const auto& v = level.slices;
      auto it = std::partition_point(v.begin(), v.end(), [&](const TraceIndex::Slice& s) { return s.t1 < a; });
      for (; it != v.end() && it->t0 <= b; ++it) {
        ++st.slices;
        const trace::Event& e = events[it->event];
        const int64_t ns = std::min(it->t1, b) - std::max(it->t0, a);
        if (const auto* d = std::get_if<trace::DispatchStep>(&e.payload)) {
          if (!d->redispatch) add(d->op && *d->op ? d->op : e.name, ns);
        } else {
          add(e.name, ns);
        }
      }
      const auto& m = level.marks;
      auto lo = std::partition_point(m.begin(), m.end(), [&](const TraceIndex::Mark& k) { return k.t < a; });
      auto hi = std::partition_point(lo, m.end(), [&](const TraceIndex::Mark& k) { return k.t <= b; });
      st.instants += static_cast<uint64_t>(hi - lo);
    }
  std::sort(st.rows.begin(), st.rows.end(), [](const RangeRow& x, const RangeRow& y) {
    return x.total_ns != y.total_ns ? x.total_ns > y.total_ns : x.name < y.name;
  });
  return st;
}

}  // namespace ipt::views
