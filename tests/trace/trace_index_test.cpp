// TraceIndex on hand-built event lists: nesting (depth, parent, Begin/End partners), tracks
// per thread with their levels, unmatched Ends and unfinished Begins, span_of / slice_of,
// forward-backward flows, and nesting deeper than the levels hold.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/trace/trace_index.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::trace {
namespace {

constexpr uint32_t kNone = TraceIndex::kNone;

struct Events {
  std::vector<Event> ev;
  uint32_t add(Phase p, int64_t ts, const char* name = "e", uint32_t tid = 0, Category c = Category::Note,
               Payload payload = {}) {
    ev.push_back(testing::make_event(ev.size(), ts, tid, p, c, name, std::move(payload)));
    return static_cast<uint32_t>(ev.size() - 1);
  }
  // "node created" carries a GraphNode, a node's run an EngineStep.
  uint32_t autograd(Phase p, int64_t ts, const char* name, uint64_t node) {
    if (p == Phase::Instant) {
      GraphNode g;
      g.node = node;
      g.name = "MulBackward0";
      return add(p, ts, name, 0, Category::Autograd, g);
    }
    EngineStep s;
    s.node = node;
    s.name = name;
    return add(p, ts, name, 0, Category::Autograd, s);
  }
};

TEST(TraceIndex, NestingDepthParentAndMatch) {
  Events t;
  const uint32_t a = t.add(Phase::Begin, 10, "a");
  const uint32_t b = t.add(Phase::Begin, 20, "b");
  const uint32_t c = t.add(Phase::Instant, 25, "c");
  const uint32_t eb = t.add(Phase::End, 30);
  const uint32_t ea = t.add(Phase::End, 50);
  const uint32_t other = t.add(Phase::Instant, 40, "other thread", 3);
  const TraceIndex x = build_trace_index(t.ev);

  ASSERT_EQ(x.size(), 6u);
  EXPECT_EQ(x.depth[a], 0);
  EXPECT_EQ(x.depth[b], 1);
  EXPECT_EQ(x.depth[c], 2);
  EXPECT_EQ(x.depth[eb], 1);  // an End: after closing
  EXPECT_EQ(x.depth[ea], 0);
  EXPECT_EQ(x.depth[other], 0);
  EXPECT_EQ(x.parent[a], kNone);
  EXPECT_EQ(x.parent[b], a);
  EXPECT_EQ(x.parent[c], b);
  EXPECT_EQ(x.parent[eb], a);
  EXPECT_EQ(x.parent[other], kNone);
  EXPECT_EQ(x.match[a], ea);
  EXPECT_EQ(x.match[ea], a);
  EXPECT_EQ(x.match[b], eb);
  EXPECT_EQ(x.match[eb], b);
  EXPECT_EQ(x.match[c], kNone);

  ASSERT_EQ(x.tracks.size(), 2u);
  EXPECT_EQ(x.tracks[0].tid, 0u);
  EXPECT_EQ(x.tracks[0].name, "host thread 0");
  EXPECT_EQ(x.tracks[1].tid, 3u);
  EXPECT_EQ(x.tracks[1].name, "host thread 3");
  EXPECT_EQ(x.track[other], 1);
  const auto& lv = x.tracks[0].levels;
  ASSERT_EQ(lv.size(), 3u);
  ASSERT_EQ(lv[0].slices.size(), 1u);
  EXPECT_EQ(lv[0].slices[0].event, a);
  EXPECT_EQ(lv[0].slices[0].t0, 10);
  EXPECT_EQ(lv[0].slices[0].t1, 50);
  ASSERT_EQ(lv[1].slices.size(), 1u);
  EXPECT_EQ(lv[1].slices[0].t0, 20);
  EXPECT_EQ(lv[1].slices[0].t1, 30);
  EXPECT_TRUE(lv[1].marks.empty());
  ASSERT_EQ(lv[2].marks.size(), 1u);
  EXPECT_EQ(lv[2].marks[0].event, c);
  EXPECT_EQ(lv[2].marks[0].t, 25);
  EXPECT_EQ(x.t_min, 10);
  EXPECT_EQ(x.t_max, 50);
}

TEST(TraceIndex, SpanOfAndSliceOf) {
  Events t;
  const uint32_t a = t.add(Phase::Begin, 100);
  const uint32_t i = t.add(Phase::Instant, 150);
  const uint32_t ea = t.add(Phase::End, 200);
  const TraceIndex x = build_trace_index(t.ev);
  int64_t t0 = -1, t1 = -1;
  ASSERT_TRUE(x.span_of(a, t0, t1));
  EXPECT_EQ(t0, 100);
  EXPECT_EQ(t1, 200);
  t0 = t1 = -1;
  ASSERT_TRUE(x.span_of(ea, t0, t1));  // an End: its Begin's slice
  EXPECT_EQ(t0, 100);
  EXPECT_EQ(t1, 200);
  ASSERT_TRUE(x.span_of(i, t0, t1));
  EXPECT_EQ(t0, 150);
  EXPECT_EQ(t1, 150);
  EXPECT_FALSE(x.span_of(3, t0, t1));
  EXPECT_FALSE(x.span_of(SIZE_MAX, t0, t1));

  size_t level = 9, pos = 9;
  ASSERT_TRUE(x.slice_of(a, level, pos));
  EXPECT_EQ(level, 0u);
  EXPECT_EQ(pos, 0u);
  EXPECT_FALSE(x.slice_of(i, level, pos));   // an instant is no slice
  EXPECT_FALSE(x.slice_of(ea, level, pos));  // nor is an End
}

TEST(TraceIndex, UnmatchedEndIsAMarkAndUnfinishedBeginEndsAtTheThreadsLastTime) {
  Events t;
  const uint32_t stray = t.add(Phase::End, 5);
  const uint32_t open = t.add(Phase::Begin, 10, "never closed");
  const uint32_t inner = t.add(Phase::Instant, 70);
  t.add(Phase::Instant, 999, "other thread", 1);  // a later time on another thread does not count
  const TraceIndex x = build_trace_index(t.ev);
  EXPECT_EQ(x.match[stray], kNone);
  EXPECT_EQ(x.match[open], kNone);
  EXPECT_EQ(x.depth[stray], 0);
  EXPECT_EQ(x.parent[inner], open);
  const auto& lv = x.tracks[0].levels;
  ASSERT_EQ(lv[0].marks.size(), 1u);
  EXPECT_EQ(lv[0].marks[0].event, stray);
  ASSERT_EQ(lv[0].slices.size(), 1u);
  EXPECT_EQ(lv[0].slices[0].t0, 10);
  EXPECT_EQ(lv[0].slices[0].t1, 70);
  int64_t t0 = 0, t1 = 0;
  ASSERT_TRUE(x.span_of(open, t0, t1));
  EXPECT_EQ(t1, 70);
}

TEST(TraceIndex, SiblingsAtOneLevelAreSortedAndDoNotOverlap) {
  Events t;
  for (int k = 0; k < 100; ++k) {
    t.add(Phase::Begin, k * 10);
    t.add(Phase::Instant, k * 10 + 1);
    t.add(Phase::End, k * 10 + 5);
  }
  const TraceIndex x = build_trace_index(t.ev);
  const auto& lv = x.tracks[0].levels;
  ASSERT_EQ(lv.size(), 2u);
  ASSERT_EQ(lv[0].slices.size(), 100u);
  ASSERT_EQ(lv[1].marks.size(), 100u);
  for (size_t k = 1; k < 100; ++k) {
    EXPECT_LE(lv[0].slices[k - 1].t1, lv[0].slices[k].t0);
    EXPECT_LT(lv[1].marks[k - 1].t, lv[1].marks[k].t);
  }
}

TEST(TraceIndex, ForwardBackwardFlowGoesToTheNodesFirstRunOnly) {
  Events t;
  const uint32_t made = t.autograd(Phase::Instant, 10, "node created", 7);
  t.autograd(Phase::Instant, 11, "node ready", 7);    // not a creation
  t.autograd(Phase::Instant, 12, "node created", 8);  // never runs: no flow
  const uint32_t run = t.autograd(Phase::Begin, 50, "MulBackward0", 7);
  t.add(Phase::End, 60);
  t.autograd(Phase::Begin, 70, "MulBackward0", 7);  // a second run: no second flow
  t.add(Phase::End, 80);
  t.autograd(Phase::Begin, 90, "Orphan", 9);  // never created: no flow
  t.add(Phase::End, 95);
  const TraceIndex x = build_trace_index(t.ev);
  ASSERT_EQ(x.flows.size(), 1u);
  EXPECT_EQ(x.flows[0].from, made);
  EXPECT_EQ(x.flows[0].to, run);
  EXPECT_EQ(x.flows[0].t_from, 10);
  EXPECT_EQ(x.flows[0].t_to, 50);
}

TEST(TraceIndex, NestingDeeperThanTheLevelsKeepsItsShapeButIsNotOnATrack) {
  Events t;
  const int deep = 300;
  for (int k = 0; k < deep; ++k) t.add(Phase::Begin, k);
  for (int k = 0; k < deep; ++k) t.add(Phase::End, deep + k);
  const TraceIndex x = build_trace_index(t.ev);
  EXPECT_EQ(x.depth[deep - 1], deep - 1);
  EXPECT_EQ(x.parent[deep - 1], static_cast<uint32_t>(deep - 2));
  EXPECT_EQ(x.match[deep - 1], static_cast<uint32_t>(deep));
  EXPECT_LE(x.tracks[0].levels.size(), 256u);
  int64_t t0 = 0, t1 = 0;
  EXPECT_TRUE(x.span_of(0, t0, t1));
  EXPECT_FALSE(x.span_of(deep - 1, t0, t1));
}

TEST(TraceIndex, EmptyTrace) {
  const TraceIndex x = build_trace_index({});
  EXPECT_EQ(x.size(), 0u);
  EXPECT_TRUE(x.tracks.empty());
  EXPECT_TRUE(x.flows.empty());
  int64_t t0 = 0, t1 = 0;
  EXPECT_FALSE(x.span_of(0, t0, t1));
}

}  // namespace
}  // namespace ipt::trace
