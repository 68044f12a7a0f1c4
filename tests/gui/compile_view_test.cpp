// The Compile view drawn headless (tests/gui/headless.h): a run with no compile, a run whose
// trace holds every kind of compile artifact (every compile chosen in turn, every section
// opened), and artifacts whose texts are empty or malformed.
#include <gtest/gtest.h>

#include <cstdio>

#include <string>

#include "app/gui/app_state.h"
#include "app/gui/views/views.h"
#include "tests/gui/headless.h"

using namespace ipt;
using namespace ipt::gui;
using ipt::gui::testing::Headless;
using trace::CompileArtifact;
using trace::CompileArtifactKind;

namespace {

trace::Event ev(trace::Phase ph, const char* name, trace::Payload p = {}) {
  trace::Event e;
  e.phase = ph;
  e.category = trace::Category::Compile;
  e.name = trace::intern(name);
  e.payload = std::move(p);
  return e;
}
// An artifact of compile `id` ("0/1"), with the id's two numbers as the recorder writes them.
trace::Event art(CompileArtifactKind k, const char* id, std::string text, int line = 0) {
  int frame = 0, index = 0;
  std::sscanf(id, "%d/%d", &frame, &index);
  return ev(trace::Phase::Instant, "artifact",
            CompileArtifact{k, trace::intern(id), "prog.py", line, std::move(text), frame, index});
}

struct Fixture {
  AppState state;
  ViewContext ctx{state, state.doc, state.sel, state.requests};
  std::unique_ptr<View> view = make_compile_view();
  void set(std::vector<trace::Event> events) {
    state.doc.events = std::move(events);
    state.doc.first = 0;
    state.doc.last = state.doc.events.size();
    ++state.doc.generation;
  }
};

std::vector<trace::Event> full_run() {
  std::string graph = "TRACED GRAPH\n def forward(self, L_x_: \"f32[3][1]cpu\"):\n";
  for (int i = 0; i < 200; ++i) graph += "        mul_" + std::to_string(i) + ": \"f32[3][1]cpu\" = l_x_ * 2\n";
  std::vector<trace::FusionDecision> fusion;
  for (int i = 0; i < 200; ++i)
    fusion.push_back({trace::intern("mul_" + std::to_string(i)), trace::FusionAction::FusedInto,
                      trace::intern("cpp_fused_mul_" + std::to_string(i % 7)), "", i % 7});
  std::vector<trace::Event> v;
  for (int c = 0; c < 3; ++c) {
    const std::string id = "0/" + std::to_string(c);
    v.push_back(ev(trace::Phase::Begin, trace::intern("compile [" + id + "]")));
    v.push_back(art(CompileArtifactKind::Frame, trace::intern(id),
                    "fn (prog.py:3)\ndef fn(x, n):\n    print(x)\n    return x * n", 3));
    if (c > 0)
      v.push_back(ev(
          trace::Phase::Instant, trace::intern("recompile [" + id + "]"),
          trace::Recompile{0,
                           c,
                           {trace::GuardFailure{0, c - 1, "TENSOR_MATCH", "L['x']", "3", "4", 3,
                                                "tensor 'L['x']' size mismatch at index 0. expected 3, actual 4"}}}));
    v.push_back(art(CompileArtifactKind::Graph, trace::intern(id), graph));
    v.push_back(art(CompileArtifactKind::Guards, trace::intern(id),
                    "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, x)"));
    v.push_back(art(CompileArtifactKind::GraphBreak, trace::intern(id), "builtin: print [...] False\nprint(x)", 4));
    v.push_back(art(CompileArtifactKind::AotForward, trace::intern(id), graph));
    v.push_back(art(CompileArtifactKind::AotBackward, trace::intern(id), graph));
    for (int g = 0; g < 2; ++g)
      v.push_back(
          ev(trace::Phase::Instant, trace::intern("fusion [" + id + "]"), trace::FusionDecisions{0, c, g, fusion}));
    v.push_back(art(CompileArtifactKind::OutputCode, trace::intern(id),
                    "extern \"C\" void kernel(const float* in_ptr0)\n{\n}\n"));
    v.push_back(ev(trace::Phase::End, trace::intern("compile [" + id + "]")));
    v.push_back(
        ev(trace::Phase::Instant, trace::intern("cache hit [" + id + "]"), trace::CacheLookup{true, 0, c, 300, c + 1}));
  }
  return v;
}

}  // namespace

TEST(CompileView, ARunWithoutCompilesSaysSo) {
  Headless ui;
  Fixture f;
  EXPECT_TRUE(ui.frame(*f.view, f.ctx));
  f.set({});
  EXPECT_TRUE(ui.frame(*f.view, f.ctx));
}

TEST(CompileView, EveryCompileAndSectionDraws) {
  Headless ui;
  Fixture f;
  f.set(full_run());
  ASSERT_TRUE(ui.frame(*f.view, f.ctx));
  // Choose each compile in the frame list (its rows), drawing a few frames each, with every
  // collapsed section opened by ImGui's own state.
  ImGuiWindow* list = Headless::window_named("frames");
  ASSERT_NE(list, nullptr);
  const float row = ImGui::GetTextLineHeightWithSpacing();
  for (int k = 0; k < 4; ++k) {
    const ImVec2 p(list->Pos.x + 40, list->Pos.y + 8 + row * static_cast<float>(k + 1) + row / 2);
    EXPECT_TRUE(ui.click(*f.view, f.ctx, p));
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
      for (const char* header :
           {"AOTAutograd: forward graph", "AOTAutograd: backward graph", "Fusion decisions", "Generated code"})
        if (!w->IDStack.empty()) w->StateStorage.SetInt(ImHashStr(header, 0, w->IDStack.back()), 1);
    EXPECT_TRUE(ui.frame(*f.view, f.ctx));
  }
  // The shown step ends before the last compile: the view follows.
  f.state.doc.last = f.state.doc.events.size() / 2;
  EXPECT_TRUE(ui.frame(*f.view, f.ctx));
}

TEST(CompileView, EmptyAndMalformedArtifactsDraw) {
  Headless ui;
  Fixture f;
  std::vector<trace::Event> v;
  for (int k = 0; k < trace::kNumCompileArtifactKinds; ++k) {
    v.push_back(art(static_cast<CompileArtifactKind>(k), "", ""));
    v.push_back(art(static_cast<CompileArtifactKind>(k), "x/y/z", "\t\t\n: no id\n\n'unclosed \"quote", -5));
    v.push_back(art(static_cast<CompileArtifactKind>(k), "7", std::string(10000, '#')));
  }
  v.push_back(ev(trace::Phase::End, "capture [never began]"));
  v.push_back(ev(trace::Phase::Instant, "cache hit []"));
  v.push_back(ev(trace::Phase::Instant, "cache hit [unknown/0]", trace::Text{"x"}));
  // Typed compile facts that point nowhere or out of range.
  v.push_back(ev(trace::Phase::Instant, "cache hit [9/9]", trace::CacheLookup{true, 9, 9, -5, -1}));
  v.push_back(ev(trace::Phase::Instant, "fusion [0/0]",
                 trace::FusionDecisions{0, 0, 7, {{"", trace::FusionAction::NotFused, "", ""}}}));
  v.push_back(ev(trace::Phase::Instant, "fusion [-1/-1]",
                 trace::FusionDecisions{-1, -1, 1, {{"n", trace::FusionAction::StartsKernel, "k_x", "why"}}}));
  v.push_back(ev(trace::Phase::Instant, "recompile [0/0]",
                 trace::Recompile{0, 0, {trace::GuardFailure{5, 5, "", "", "", "", 1000000, ""}}}));
  f.set(std::move(v));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(ui.frame(*f.view, f.ctx));
}
