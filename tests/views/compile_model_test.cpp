// The Compile view's model: compiles gathered from `compile` events, recompile reasons found
// in the earlier compile's guards, phase times, cache hits, graph breaks.
#include <gtest/gtest.h>

#include "core/views/compile_model.h"

namespace ipt::views {
namespace {

using trace::Category;
using trace::CompileArtifact;
using trace::CompileArtifactKind;
using trace::Event;
using trace::Phase;

Event ev(int64_t ts, Phase ph, const char* name, trace::Payload p = {}) {
  Event e;
  e.ts_ns = ts;
  e.phase = ph;
  e.category = Category::Compile;
  e.name = trace::intern(name);
  e.payload = std::move(p);
  return e;
}
Event art(CompileArtifactKind k, const char* id, std::string text, const char* file = "", int line = 0) {
  return ev(0, Phase::Instant, "artifact",
            CompileArtifact{k, trace::intern(id), trace::intern(file), line, std::move(text)});
}

const char* kGuards00 =
    "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- GLOBAL_STATE: ___check_global_state()\n"
    "| +- GuardManager: source=L['x'], accessed_by=DictGetItemGuardAccessor(x)\n"
    "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, "
    "requires_grad=False, size=[3], stride=[1])\n"
    "| +- GuardManager: source=L['n'], accessed_by=DictGetItemGuardAccessor(n)\n"
    "| | +- EQUALS_MATCH: L['n'] == 3                                                   # return x * n\n";

std::vector<Event> two_compiles() {
  std::vector<Event> v;
  v.push_back(ev(0, Phase::Instant, "cache miss", trace::Text{"guards checked in 100 ns, 0 entries"}));
  v.push_back(ev(10, Phase::Begin, "compile [0/0]"));
  v.push_back(art(CompileArtifactKind::Frame, "0/0", "fn (prog.py:3)\ndef fn(x, n):\n    return x * n", "prog.py", 3));
  v.push_back(ev(20, Phase::Begin, "capture [0/0]"));
  v.push_back(ev(520, Phase::End, "capture [0/0]"));
  v.push_back(art(CompileArtifactKind::Graph, "0/0", "def forward(self, L_x_):\n    mul: \"f32[3]\" = l_x_ * 3\n"));
  v.push_back(art(CompileArtifactKind::Guards, "0/0", kGuards00));
  v.push_back(art(CompileArtifactKind::Fusion, "0/0", "mul\tstarts cpp_fused_mul_0\nsum_1\tnot fused: why"));
  v.push_back(ev(900, Phase::End, "compile [0/0]"));
  v.push_back(ev(1000, Phase::Instant, "cache hit [0/0]", trace::Text{"guards checked in 400 ns, 1 entry"}));
  v.push_back(ev(1100, Phase::Instant, "cache hit [0/0]", trace::Text{"guards checked in 300 ns, 1 entry"}));
  v.push_back(ev(1200, Phase::Instant, "cache miss", trace::Text{"guards checked in 500 ns, 1 entry"}));
  v.push_back(art(CompileArtifactKind::Frame, "0/1", "fn (prog.py:3)\ndef fn(x, n):\n    return x * n", "prog.py", 3));
  v.push_back(art(CompileArtifactKind::Recompile, "0/1", "0/0: L['n'] == 3"));
  v.push_back(art(CompileArtifactKind::Frame, "1/0",
                  "torch_dynamo_resume_in_g_at_5 (prog.py:4)\ndef g(x):\n    y = x\n    print(y)", "prog.py", 4));
  v.push_back(art(CompileArtifactKind::GraphBreak, "1/0", "builtin: print [...] False\nprint(y)", "prog.py", 6));
  return v;
}

TEST(CompileModel, GathersEachCompilesArtifactsPhasesAndHits) {
  const auto events = two_compiles();
  CompileModel m = build_compile_model(events, 0, events.size());
  ASSERT_EQ(m.compiles.size(), 3u);
  const CompileRecord& c0 = m.compiles[0];
  EXPECT_EQ(c0.compile_id, "0/0");
  EXPECT_EQ(c0.frame, "fn (prog.py:3)");
  ASSERT_EQ(c0.source.size(), 2u);
  EXPECT_EQ(c0.source[1], "    return x * n");
  EXPECT_EQ(c0.first_line, 3);
  ASSERT_EQ(c0.phases.size(), 1u);  // "compile" is the whole, not a phase
  EXPECT_EQ(c0.phases[0].name, "capture");
  EXPECT_EQ(c0.phases[0].ns, 500);
  EXPECT_EQ(c0.hits, 2);
  EXPECT_EQ(c0.last_check, "guards checked in 300 ns, 1 entry");
  ASSERT_EQ(c0.fusion.size(), 1u);
  EXPECT_EQ(c0.fusion[0][0], (std::pair<std::string, std::string>{"mul", "starts cpp_fused_mul_0"}));
  EXPECT_EQ(m.cache_misses, 2);
  // Frames in order of first compile, with their compiles.
  ASSERT_EQ(m.frames.size(), 2u);
  EXPECT_EQ(m.frames[0].frame_id, 0);
  EXPECT_EQ(m.frames[0].compiles, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(m.frames[1].frame_id, 1);
}

TEST(CompileModel, ARecompileMarksTheGuardThatFailed) {
  const auto events = two_compiles();
  CompileModel m = build_compile_model(events, 0, events.size());
  const CompileRecord& c1 = m.compiles[1];
  ASSERT_EQ(c1.reasons.size(), 1u);
  EXPECT_EQ(c1.reasons[0].compile_id, "0/0");
  EXPECT_EQ(c1.reasons[0].reason, "L['n'] == 3");
  const CompileRecord& c0 = m.compiles[0];
  ASSERT_EQ(c0.failed_later.size(), 1u);
  int red = 0;
  for (const char* line :
       {"| | +- EQUALS_MATCH: L['n'] == 3                                                   # return x * n",
        "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, ...)", "| +- GLOBAL_STATE: ___check_global_state()"})
    red += guard_failure(line, c0.failed_later) != nullptr;
  EXPECT_EQ(red, 1);
  // A tensor's failure names its TENSOR_MATCH line.
  std::vector<GuardFailure> f = {{"0/0", "tensor 'L['x']' size mismatch at index 0. expected 3, actual 4", "L['x']"}};
  EXPECT_NE(guard_failure("| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, x)", f), nullptr);
  EXPECT_EQ(guard_failure("| | +- TENSOR_MATCH: check_tensor(L['y'], Tensor, x)", f), nullptr);
}

TEST(CompileModel, AGraphBreakKeepsItsReasonLineAndCode) {
  const auto events = two_compiles();
  CompileModel m = build_compile_model(events, 0, events.size());
  const CompileRecord& c = m.compiles[2];
  ASSERT_TRUE(c.graph_break.has_value());
  EXPECT_EQ(c.graph_break->reason, "builtin: print [...] False");
  EXPECT_EQ(c.graph_break->code, "print(y)");
  EXPECT_EQ(c.graph_break->line, 6);
  EXPECT_EQ(c.frame, "torch_dynamo_resume_in_g_at_5 (prog.py:4)");
}

TEST(CompileModel, OnlyTheEventsAskedForAndNothingFromOtherCategories) {
  auto events = two_compiles();
  Event other = ev(0, Phase::Instant, "cache hit [0/0]");
  other.category = Category::Note;
  events.insert(events.begin(), other);
  CompileModel m = build_compile_model(events, 0, 5);
  ASSERT_EQ(m.compiles.size(), 1u);
  EXPECT_TRUE(m.compiles[0].graph.empty());  // not reached yet
  EXPECT_EQ(build_compile_model(events, 0, 0).compiles.size(), 0u);
  EXPECT_EQ(build_compile_model(events, 3, 1).compiles.size(), 0u);  // an empty range
}

TEST(CompileModel, AResetStartsANewEpochOfFramesAndIds) {
  auto events = two_compiles();
  const size_t first_run = events.size();
  events.push_back(ev(2000, Phase::Instant, kCompileReset));
  auto again = two_compiles();
  events.insert(events.end(), again.begin(), again.end());
  CompileModel m = build_compile_model(events, 0, events.size());
  ASSERT_EQ(m.compiles.size(), 6u);  // "0/0" twice: two compiles, not one
  EXPECT_EQ(m.compiles[0].epoch, 0);
  EXPECT_EQ(m.compiles[3].epoch, 1);
  EXPECT_EQ(m.compiles[3].compile_id, "0/0");
  EXPECT_EQ(m.compiles[3].hits, 2);  // its own hits only
  ASSERT_EQ(m.frames.size(), 4u);
  EXPECT_EQ(m.frames[2].epoch, 1);
  EXPECT_EQ(m.compiles[0].failed_later.size(), 1u);  // the 0/1 of its own epoch
  EXPECT_EQ(m.compiles[3].failed_later.size(), 1u);
  (void)first_run;
}

TEST(CompileModel, DefinedNameOfACodeLine) {
  EXPECT_EQ(defined_name("        mul: \"f32[3]\" = l_x_ * 3"), "mul");
  EXPECT_EQ(defined_name("    buf0 = empty_strided_cpu((3,), (1,), torch.float32)"), "buf0");
  EXPECT_EQ(defined_name("    return (mul,)"), "");
  EXPECT_EQ(defined_name("# File: prog.py:3"), "");
  EXPECT_EQ(defined_name(""), "");
}

}  // namespace
}  // namespace ipt::views
