// The Compile view's model: compiles gathered from `compile` events, recompile reasons found
// in the earlier compile's guards, phase times, cache hits, graph breaks.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/views/compile_model.h"

#include "core/trace/trace_upgrade.h"

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
// A phase slice's Begin or End, "capture [0/0]", with its typed payload.
Event phase(int64_t ts, Phase ph, const char* what, int frame, int index) {
  const std::string label = std::string(what) + " [" + std::to_string(frame) + "/" + std::to_string(index) + "]";
  return ev(ts, ph, label.c_str(), trace::CompilePhase{trace::intern(what), frame, index});
}
// An artifact of compile `id` ("0/1"), with the id's two numbers as the recorder writes them.
Event art(CompileArtifactKind k, const char* id, std::string text, const char* file = "", int line = 0) {
  int frame = 0, index = 0;
  std::sscanf(id, "%d/%d", &frame, &index);
  return ev(0, Phase::Instant, "artifact",
            CompileArtifact{k, trace::intern(id), trace::intern(file), line, std::move(text), frame, index});
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
  v.push_back(ev(0, Phase::Instant, "cache miss", trace::CacheLookup{false, -1, -1, 100, 0}));
  v.push_back(phase(10, Phase::Begin, "compile", 0, 0));
  v.push_back(art(CompileArtifactKind::Frame, "0/0", "fn (prog.py:3)\ndef fn(x, n):\n    return x * n", "prog.py", 3));
  v.push_back(phase(20, Phase::Begin, "capture", 0, 0));
  v.push_back(phase(520, Phase::End, "capture", 0, 0));
  v.push_back(art(CompileArtifactKind::Graph, "0/0", "def forward(self, L_x_):\n    mul: \"f32[3]\" = l_x_ * 3\n"));
  v.push_back(art(CompileArtifactKind::Guards, "0/0", kGuards00));
  v.push_back(ev(800, Phase::Instant, "fusion [0/0]",
                 trace::FusionDecisions{0,
                                        0,
                                        0,
                                        {{"mul", trace::FusionAction::StartsKernel, "cpp_fused_mul_0", ""},
                                         {"sum_1", trace::FusionAction::NotFused, "", "why"}}}));
  v.push_back(phase(900, Phase::End, "compile", 0, 0));
  v.push_back(ev(1000, Phase::Instant, "cache hit [0/0]", trace::CacheLookup{true, 0, 0, 400, 1}));
  v.push_back(ev(1100, Phase::Instant, "cache hit [0/0]", trace::CacheLookup{true, 0, 0, 300, 1}));
  v.push_back(ev(1200, Phase::Instant, "cache miss", trace::CacheLookup{false, -1, -1, 500, 1}));
  v.push_back(art(CompileArtifactKind::Frame, "0/1", "fn (prog.py:3)\ndef fn(x, n):\n    return x * n", "prog.py", 3));
  // EQUALS_MATCH is line 6 of kGuards00 (0-based).
  v.push_back(
      ev(1300, Phase::Instant, "recompile [0/1]",
         trace::Recompile{0, 1, {trace::GuardFailure{0, 0, "EQUALS_MATCH", "L['n']", "3", "4", 6, "L['n'] == 3"}}}));
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
  EXPECT_EQ(c0.last_check_ns, 300);
  EXPECT_EQ(c0.last_entries, 1);
  ASSERT_EQ(c0.fusion.size(), 1u);
  ASSERT_EQ(c0.fusion[0].size(), 2u);
  EXPECT_STREQ(c0.fusion[0][0].node, "mul");
  EXPECT_STREQ(c0.fusion[0][0].kernel, "cpp_fused_mul_0");
  EXPECT_EQ(fusion_decision_text(c0.fusion[0][0]), "starts cpp_fused_mul_0");
  EXPECT_EQ(fusion_decision_text(c0.fusion[0][1]), "not fused: why");
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
  EXPECT_EQ(compile_id_text(c1.reasons[0].frame_id, c1.reasons[0].compile_index), "0/0");
  EXPECT_EQ(c1.reasons[0].reason, "L['n'] == 3");
  EXPECT_EQ(c1.reasons[0].expected, "3");
  EXPECT_EQ(c1.reasons[0].actual, "4");
  const CompileRecord& c0 = m.compiles[0];
  ASSERT_EQ(c0.failed_later.size(), 1u);
  // The failure names its guard's line of the tree; no other line is marked.
  int red = 0;
  for (int line = 0; line < 8; ++line) red += failure_at_line(line, c0.failed_later) != nullptr;
  EXPECT_EQ(red, 1);
  EXPECT_NE(failure_at_line(6, c0.failed_later), nullptr);
  std::vector<GuardFailure> unknown = {GuardFailure{0, 0, "", "", "", "", -1, "'L['x']' could not be read"}};
  EXPECT_EQ(failure_at_line(-1, unknown), nullptr);  // a failure printed nowhere marks no line
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
  events.push_back(ev(2000, Phase::Instant, "torch._dynamo.reset()", trace::DynamoReset{0}));
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

// A kernel that had to end names its successor's kernel, not a word of the reason: version 5
// wrote "starts a new kernel: <why>" before "starts <kernel>" for the same node, and the view
// read the kernel "a" from the first line. Loading now merges the two lines into one decision.
TEST(CompileModel, FusionTextOfVersion5BecomesOneTypedDecisionPerNode) {
  std::vector<Event> v;
  v.push_back(art(CompileArtifactKind::Fusion, "0/0",
                  "mul\tstarts cpp_fused_mul_0\n"
                  "sum_1\tfused into cpp_fused_mul_0 (a reduction of its values)\n"
                  "add\tstarts a new kernel: size [4] differs from the kernel's [3]\n"
                  "add\tstarts cpp_fused_add_1\n"
                  "add_1\tfused into cpp_fused_add_1\n"
                  "mm\tnot fused: aten.mm.default is not pointwise; it runs as an extern kernel"));
  v.push_back(art(CompileArtifactKind::Fusion, "0/0", "neg\tstarts cpp_fused_neg_0"));
  v.push_back(art(CompileArtifactKind::Fusion, "0/1", "bad line without a tab"));
  trace::upgrade_compile_text(v);
  const auto* f = std::get_if<trace::FusionDecisions>(&v[0].payload);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->frame_id, 0);
  EXPECT_EQ(f->compile_index, 0);
  EXPECT_EQ(f->graph, 0);
  ASSERT_EQ(f->decisions.size(), 5u);
  EXPECT_EQ(f->decisions[1].action, trace::FusionAction::FusedReduction);
  EXPECT_STREQ(f->decisions[1].kernel, "cpp_fused_mul_0");
  EXPECT_STREQ(f->decisions[2].node, "add");
  EXPECT_EQ(f->decisions[2].action, trace::FusionAction::StartsKernel);
  EXPECT_STREQ(f->decisions[2].kernel, "cpp_fused_add_1");
  EXPECT_EQ(f->decisions[2].reason, "size [4] differs from the kernel's [3]");
  EXPECT_EQ(fusion_decision_text(f->decisions[2]),
            "starts cpp_fused_add_1 (a new kernel: size [4] differs from the kernel's [3])");
  EXPECT_EQ(f->decisions[4].action, trace::FusionAction::NotFused);
  EXPECT_STREQ(f->decisions[4].kernel, "");
  const auto* bw = std::get_if<trace::FusionDecisions>(&v[1].payload);
  ASSERT_NE(bw, nullptr);
  EXPECT_EQ(bw->graph, 1);  // the compile's second lowered graph: AOTAutograd's backward
  EXPECT_NE(std::get_if<CompileArtifact>(&v[2].payload), nullptr);  // did not parse: left as it was

  CompileModel m = build_compile_model(v, 0, v.size());
  ASSERT_EQ(m.compiles.size(), 2u);  // 0/0, and 0/1 from its unparsed artifact
  ASSERT_EQ(m.compiles[0].fusion.size(), 2u);
  EXPECT_STREQ(m.compiles[0].fusion[0][2].kernel, "cpp_fused_add_1");
  EXPECT_TRUE(m.compiles[1].fusion.empty());
}

// Version 5 worded recompiles and cache lookups as text; loading types them, and finds the
// failed guard's line in the failed entry's tree as the view once did.
TEST(CompileModel, RecompileAndLookupTextOfVersion5BecomeTyped) {
  std::vector<Event> v;
  v.push_back(art(CompileArtifactKind::Guards, "0/0", kGuards00));
  v.push_back(ev(1, Phase::Instant, "cache hit [0/0]", trace::Text{"guards checked in 400 ns, 1 entry"}));
  v.push_back(ev(2, Phase::Instant, "cache miss", trace::Text{"guards checked in 500 ns, 2 entries"}));
  v.push_back(art(CompileArtifactKind::Recompile, "0/1",
                  "0/0: tensor 'L['x']' size mismatch at index 0. expected 3, actual 4\n0/0: L['n'] == 3"));
  trace::upgrade_compile_text(v);
  const auto* hit = std::get_if<trace::CacheLookup>(&v[1].payload);
  ASSERT_NE(hit, nullptr);
  EXPECT_TRUE(hit->hit);
  EXPECT_EQ(hit->frame_id, 0);
  EXPECT_EQ(hit->check_ns, 400);
  EXPECT_EQ(hit->entries, 1);
  const auto* miss = std::get_if<trace::CacheLookup>(&v[2].payload);
  ASSERT_NE(miss, nullptr);
  EXPECT_FALSE(miss->hit);
  EXPECT_EQ(miss->entries, 2);
  const auto* r = std::get_if<trace::Recompile>(&v[3].payload);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->compile_index, 1);
  ASSERT_EQ(r->failures.size(), 2u);
  EXPECT_STREQ(r->failures[0].guard, "TENSOR_MATCH");
  EXPECT_STREQ(r->failures[0].source, "L['x']");
  EXPECT_EQ(r->failures[0].expected, "3");
  EXPECT_EQ(r->failures[0].actual, "4");
  EXPECT_EQ(r->failures[0].tree_line, 4);
  EXPECT_STREQ(r->failures[1].guard, "EQUALS_MATCH");
  EXPECT_EQ(r->failures[1].tree_line, 6);
}

}  // namespace
}  // namespace ipt::views
