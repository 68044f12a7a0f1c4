// The Timeline's model: folding narrow slices and close instants (what survives, what is
// counted, that the box count follows pixels), the window's boundaries, ruler ticks, time
// labels, and the statistics of a dragged range.
#include <gtest/gtest.h>

#include <vector>

#include "core/views/timeline_model.h"

namespace ipt::views {
namespace {

using trace::TraceIndex;

std::vector<TraceIndex::Slice> slices(std::initializer_list<std::pair<int64_t, int64_t>> spans) {
  std::vector<TraceIndex::Slice> v;
  for (auto [a, b] : spans) v.push_back({a, b, static_cast<uint32_t>(v.size())});
  return v;
}

uint64_t total(const std::vector<Box>& boxes) {
  uint64_t n = 0;
  for (const Box& b : boxes) n += b.count;
  return n;
}

TEST(FoldSlices, WideSlicesAreDrawnOneByOne) {
  const auto v = slices({{0, 100}, {100, 300}, {400, 500}});
  std::vector<Box> out;
  fold_slices(v, TimeWindow{0, 1, 1000}, 3, out);
  ASSERT_EQ(out.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(out[k].count, 1u);
    EXPECT_EQ(out[k].event, k);
    EXPECT_DOUBLE_EQ(out[k].x0, static_cast<double>(v[k].t0));
    EXPECT_DOUBLE_EQ(out[k].x1, static_cast<double>(v[k].t1));
  }
}

TEST(FoldSlices, OnlySlicesThatMeetTheWindow) {
  const auto v = slices({{0, 10}, {20, 30}, {40, 200}, {250, 260}, {300, 310}});
  std::vector<Box> out;
  // Window [25, 275]: the second slice ends inside it, the third spans into it, the fourth
  // lies inside, the first and last lie outside.
  fold_slices(v, TimeWindow{25, 1, 250}, 3, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].event, 1u);
  EXPECT_DOUBLE_EQ(out[0].x0, -5);  // boxes may start left of the window
  EXPECT_EQ(out[1].event, 2u);
  EXPECT_EQ(out[2].event, 3u);

  out.clear();
  fold_slices(v, TimeWindow{1000, 1, 100}, 3, out);
  EXPECT_TRUE(out.empty());
  out.clear();
  fold_slices({}, TimeWindow{0, 1, 100}, 3, out);
  EXPECT_TRUE(out.empty());
}

TEST(FoldSlices, NarrowNeighboursBecomeOneBoxThatCountsThem) {
  // 1,000 slices of 1 ns back to back, 10 ns per pixel: each is a tenth of a pixel, and the
  // unbroken run of them is one box.
  std::vector<TraceIndex::Slice> v;
  for (uint32_t k = 0; k < 1000; ++k) v.push_back({k, k + 1, k});
  std::vector<Box> out;
  fold_slices(v, TimeWindow{0, 10, 100}, 3, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].count, 1000u);
  EXPECT_EQ(out[0].event, 0u);
  EXPECT_EQ(out[0].t0, 0);
  EXPECT_EQ(out[0].t1, 1000);
  EXPECT_DOUBLE_EQ(out[0].x1, 100);

  // 100 groups of 10 such slices, 100 ns (10 px) apart: one box per group.
  v.clear();
  for (uint32_t g = 0; g < 100; ++g)
    for (uint32_t k = 0; k < 10; ++k) v.push_back({g * 100 + k, g * 100 + k + 1, g * 10 + k});
  out.clear();
  fold_slices(v, TimeWindow{0, 10, 1000}, 3, out);
  ASSERT_EQ(out.size(), 100u);
  for (size_t g = 0; g < out.size(); ++g) {
    EXPECT_EQ(out[g].count, 10u);
    EXPECT_EQ(out[g].event, g * 10);
    EXPECT_EQ(out[g].t0, static_cast<int64_t>(g * 100));
    EXPECT_EQ(out[g].t1, static_cast<int64_t>(g * 100 + 10));
  }
}

TEST(FoldSlices, AWideSliceOrAGapEndsARun) {
  // Narrow, narrow, a wide slice, narrow, then a gap of 100 px, narrow.
  const auto v = slices({{0, 1}, {1, 2}, {2, 50}, {50, 51}, {151, 152}});
  std::vector<Box> out;
  fold_slices(v, TimeWindow{0, 1, 200}, 3, out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].count, 2u);
  EXPECT_EQ(out[0].t1, 2);
  EXPECT_EQ(out[1].count, 1u);
  EXPECT_EQ(out[1].event, 2u);
  EXPECT_EQ(out[2].count, 1u);  // narrow, alone before the gap
  EXPECT_EQ(out[3].count, 1u);
  EXPECT_EQ(out[3].event, 4u);
}

TEST(FoldSlices, BoxCountFollowsPixelsNotEvents) {
  std::vector<TraceIndex::Slice> v;
  for (uint32_t k = 0; k < 1000000; ++k) v.push_back({int64_t{k} * 2, int64_t{k} * 2 + 1, k});
  std::vector<Box> out;
  fold_slices(v, TimeWindow{0, 2e6 / 1500, 1500}, 3, out);
  EXPECT_EQ(total(out), 1000000u);
  EXPECT_LE(out.size(), 1500u / 3 + 2);
  // Zoomed to a few slices, each is its own box.
  out.clear();
  fold_slices(v, TimeWindow{1000, 0.01, 1500}, 3, out);
  ASSERT_GE(out.size(), 7u);
  for (const Box& b : out) EXPECT_EQ(b.count, 1u);
}

TEST(FoldMarks, CloseInstantsFoldFarOnesDoNot) {
  std::vector<TraceIndex::Mark> m;
  for (uint32_t k = 0; k < 10; ++k) m.push_back({int64_t{k}, k});  // 0..9, 1 px apart
  m.push_back({100, 10});
  m.push_back({200, 11});
  std::vector<Box> out;
  fold_marks(m, TimeWindow{0, 1, 300}, 4, out);
  EXPECT_EQ(total(out), 12u);
  ASSERT_GE(out.size(), 3u);
  EXPECT_EQ(out.back().count, 1u);
  EXPECT_EQ(out.back().event, 11u);
  EXPECT_EQ(out[out.size() - 2].event, 10u);
  EXPECT_LE(out.size(), 5u);  // 0..9 in at most 3 boxes
  EXPECT_EQ(out[0].event, 0u);
  EXPECT_EQ(out[0].t0, 0);

  out.clear();
  fold_marks(m, TimeWindow{50, 1, 100}, 4, out);  // [50, 150]: only the one at 100
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 10u);
  EXPECT_DOUBLE_EQ(out[0].x0, 50);
}

TEST(Ruler, TickStepIsOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_EQ(tick_step(1, 50), 50);
  EXPECT_EQ(tick_step(3, 50), 200);   // 150 ns wanted
  EXPECT_EQ(tick_step(0.01, 50), 1);  // never below 1 ns
  EXPECT_EQ(tick_step(1e6, 80), 100000000);
  EXPECT_EQ(tick_step(2.1e4, 100), 5000000);
}

TEST(Ruler, FormatNs) {
  EXPECT_EQ(format_ns(0), "0");
  EXPECT_EQ(format_ns(500), "500 ns");
  EXPECT_EQ(format_ns(1500), "1.5 us");
  EXPECT_EQ(format_ns(1500, "µs"), "1.5 µs");
  EXPECT_EQ(format_ns(12e6), "12 ms");
  EXPECT_EQ(format_ns(1.25e9), "1.25 s");
  EXPECT_EQ(format_ns(-2000), "-2 us");
  EXPECT_EQ(format_ns(1234567), "1.235 ms");
}

// Two entry calls of add (each with a redispatch inside), an instant, and a mul.
struct Recorded {
  std::vector<trace::Event> ev;
  void add(trace::Phase p, int64_t ts, const char* name, trace::Payload payload = {}) {
    trace::Event e;
    e.seq = ev.size();
    e.ts_ns = ts;
    e.phase = p;
    e.name = name;
    e.payload = std::move(payload);
    ev.push_back(std::move(e));
  }
  void call(int64_t t0, int64_t t1, const char* op, bool redispatch) {
    trace::DispatchStep d;
    d.op = op;
    d.redispatch = redispatch;
    add(trace::Phase::Begin, t0, "dispatch", d);
    if (!redispatch) call(t0 + 1, t1 - 1, op, true);
    add(trace::Phase::End, t1, "");
  }
};

TEST(RangeStats, CountsEntryCallsAndTheTimeInsideTheRange) {
  Recorded r;
  r.call(0, 100, "aten::add.Tensor", false);
  r.call(200, 300, "aten::add.Tensor", false);
  r.add(trace::Phase::Instant, 350, "note");
  r.call(400, 450, "aten::mul.Tensor", false);
  const TraceIndex x = trace::build_trace_index(r.ev);

  RangeStats all = range_stats(r.ev, x, 0, 1000);
  ASSERT_EQ(all.rows.size(), 2u);
  EXPECT_EQ(all.rows[0].name, "aten::add.Tensor");
  EXPECT_EQ(all.rows[0].count, 2u);  // the redispatches are not counted again
  EXPECT_EQ(all.rows[0].total_ns, 200);
  EXPECT_EQ(all.rows[1].name, "aten::mul.Tensor");
  EXPECT_EQ(all.rows[1].count, 1u);
  EXPECT_EQ(all.rows[1].total_ns, 50);
  EXPECT_EQ(all.slices, 6u);
  EXPECT_EQ(all.instants, 1u);

  // [250, 425], given backwards: half of the second add, half of the mul, the instant.
  RangeStats part = range_stats(r.ev, x, 425, 250);
  ASSERT_EQ(part.rows.size(), 2u);
  EXPECT_EQ(part.rows[0].name, "aten::add.Tensor");
  EXPECT_EQ(part.rows[0].total_ns, 50);
  EXPECT_EQ(part.rows[1].total_ns, 25);
  EXPECT_EQ(part.instants, 1u);

  RangeStats none = range_stats(r.ev, x, 120, 180);
  EXPECT_TRUE(none.rows.empty());
  EXPECT_EQ(none.slices, 0u);
}

}  // namespace
}  // namespace ipt::views
