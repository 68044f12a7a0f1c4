// Reading traces of format versions 1 and 2, whose autograd events carry text fields: they
// come back as the typed payloads version 3 records (Note [Text payloads in older traces]).
#include <gtest/gtest.h>

#include <string>

#include "core/trace/trace_json.h"
#include "trace_test_util.h"

namespace ipt::trace {
namespace {

using testing::make_event;

KernelDetail fields(std::vector<std::pair<const char*, std::string>> f) { return KernelDetail{std::move(f)}; }

// What a version 2 build recorded for x = leaf, y = x * 2, y.sum().backward().
std::vector<Event> old_events() {
  return {
      make_event(0, 10, 0, Phase::Instant, Category::Autograd, "node created",
                 fields({{"node", "4"},
                         {"name", "MulBackward0"},
                         {"seq", "3"},
                         {"next", "5:0,none"},
                         {"output_tensor", "15"},
                         {"leaf", "5=11"}})),
      make_event(1, 20, 0, Phase::Begin, Category::Autograd, "backward", Text{"root tensor #16"}),
      make_event(2, 21, 0, Phase::Instant, Category::Autograd, "autograd graph",
                 fields({{"node", "id=4 name=MulBackward0 seq=3 deps=0 next=5:0,none"},
                         {"node", "id=5 name=torch::autograd::AccumulateGrad seq=-1 deps=1 next= leaf=11"}})),
      make_event(3, 22, 0, Phase::Instant, Category::Autograd, "node ready",
                 fields({{"node", "4"}, {"name", "MulBackward0"}})),
      make_event(4, 23, 0, Phase::Begin, Category::Autograd, "MulBackward0",
                 fields({{"node", "4"}, {"name", "MulBackward0"}})),
      make_event(5, 24, 0, Phase::End, Category::Autograd, "MulBackward0"),
      make_event(6, 25, 0, Phase::Instant, Category::Autograd, "grad arrived",
                 fields({{"node", "5"},
                         {"name", "torch::autograd::AccumulateGrad"},
                         {"from", "4"},
                         {"input_nr", "0"},
                         {"deps_left", "0"},
                         {"sum", "[2, 2, 2, 2, 2, 2, 2, 2, ...]"}})),
      make_event(7, 26, 0, Phase::Instant, Category::Autograd, "grad written",
                 fields({{"node", "5"}, {"tensor", "11"}, {"action", "write"}, {"grad_tensor", "23"}})),
      make_event(8, 27, 0, Phase::Instant, Category::Autograd, "grad arrived",
                 fields({{"node", "oops"}, {"from", "4"}})),  // does not parse: left as it was
      make_event(9, 30, 0, Phase::End, Category::Autograd, "backward"),
  };
}

// The file an older build wrote: the same document with an older version, and before version
// 7 its records in that version's layout (without engine_step's action, compile_artifact's id
// numbers and a fusion decision's kernel number; tensor_meta's flags before its label).
std::string as_version(const std::vector<Event>& events, int version) {
  nlohmann::json doc = nlohmann::json::parse(to_json_text(events, {}));
  doc["insidePyTorch"]["version"] = version;
  if (version < 7)
    for (auto& e : doc["insidePyTorch"]["events"]) {
      if (e.size() < 6) continue;
      auto& p = e[5];
      if (p[0] == 8) p.erase(p.size() - 1);                          // engine_step's action
      if (p[0] == 14) p.erase(p.size() - 1), p.erase(p.size() - 1);  // compile_artifact's compile id numbers
      if (p[0] == 15)
        for (auto& row : p[4]) row.erase(row.size() - 1);  // a fusion decision's kernel number
      if (p[0] == 1)
        p = {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[13], p[14], p[11], p[12], p[15]};
    }
  return doc.dump();
}
std::string as_version_2(const std::vector<Event>& events) { return as_version(events, 2); }

void expect_upgraded(const std::vector<Event>& back) {
  ASSERT_EQ(back.size(), 10u);
  const auto* made = std::get_if<GraphNode>(&back[0].payload);
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(made->node, 4u);
  EXPECT_STREQ(made->name, "MulBackward0");
  EXPECT_EQ(made->seq, 3);
  EXPECT_EQ(made->next, (std::vector<NextEdge>{{true, 5, 0}, {}}));
  EXPECT_EQ(made->output_tensor, 15u);
  EXPECT_EQ(made->leaves, (std::vector<LeafEdge>{{5, 11}}));
  const auto* graph = std::get_if<GraphNodes>(&back[2].payload);
  ASSERT_NE(graph, nullptr);
  ASSERT_EQ(graph->nodes.size(), 2u);
  EXPECT_EQ(graph->nodes[0].deps, 0);
  EXPECT_EQ(graph->nodes[1].seq, -1);
  EXPECT_EQ(graph->nodes[1].deps, 1);
  EXPECT_EQ(graph->nodes[1].leaves, (std::vector<LeafEdge>{{5, 11}}));
  const auto* backward = std::get_if<EngineRun>(&back[1].payload);
  ASSERT_NE(backward, nullptr);
  EXPECT_EQ(backward->root_tensor, 16u);
  const auto* ready = std::get_if<EngineStep>(&back[3].payload);
  ASSERT_NE(ready, nullptr);
  EXPECT_EQ(ready->node, 4u);
  EXPECT_EQ(ready->action, EngineAction::NodeReady);
  const auto* run = std::get_if<EngineStep>(&back[4].payload);
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->node, 4u);
  EXPECT_EQ(run->action, EngineAction::NodeRuns);
  const auto* arrived = std::get_if<EngineStep>(&back[6].payload);
  ASSERT_NE(arrived, nullptr);
  EXPECT_EQ(arrived->from, 4u);
  EXPECT_EQ(arrived->sum, std::vector<double>(8, 2.0));
  EXPECT_TRUE(arrived->sum_truncated);
  EXPECT_EQ(sum_text(*arrived), "[2, 2, 2, 2, 2, 2, 2, 2, ...]");
  const auto* written = std::get_if<EngineStep>(&back[7].payload);
  ASSERT_NE(written, nullptr);
  EXPECT_EQ(written->tensor, 11u);
  EXPECT_EQ(written->grad_tensor, 23u);
  EXPECT_EQ(written->action, EngineAction::GradWritten);
  EXPECT_NE(std::get_if<KernelDetail>(&back[8].payload), nullptr);
}

TEST(Upgrade, Version2AutogradTextsBecomeTypedPayloads) {
  expect_upgraded(read_trace_json(as_version_2(old_events())).events);
}

TEST(Upgrade, Version1AutogradTextsBecomeTypedPayloads) {
  expect_upgraded(read_trace_json(to_json_text_v1(old_events(), {})).events);
}

TEST(Upgrade, Version2DispatchTableTextBecomesRows) {
  const std::vector<Event> old = {make_event(
      0, 1, 0, Phase::Instant, Category::Dispatch, "dispatch table",
      fields({{"op", "aten::add.Tensor"},
              {"schema", "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"},
              {"table",
               "CPU: registered at build/generated/RegisterCPU.cpp:96 [kernel]\n"
               "ADInplaceOrView: fallthrough registered at core/ops/fallthrough.cpp:3 [backend fallback]\n"
               "AutogradCPU: registered at build/generated/RegisterAutograd.cpp:6650 [autograd kernel]\n"}}))};
  const auto back = read_trace_json(as_version_2(old)).events;
  ASSERT_EQ(back.size(), 1u);
  const auto* t = std::get_if<DispatchTable>(&back[0].payload);
  ASSERT_NE(t, nullptr);
  EXPECT_STREQ(t->op, "aten::add.Tensor");
  EXPECT_STREQ(t->schema, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  ASSERT_EQ(t->rows.size(), 3u);
  EXPECT_EQ(t->rows[0].key.name(), "CPU");
  EXPECT_FALSE(t->rows[0].fallthrough);
  EXPECT_STREQ(t->rows[0].registered_at, "build/generated/RegisterCPU.cpp:96");
  EXPECT_STREQ(t->rows[0].kind, "kernel");
  EXPECT_EQ(t->rows[1].key.name(), "ADInplaceOrView");
  EXPECT_TRUE(t->rows[1].fallthrough);
  EXPECT_STREQ(t->rows[1].kind, "backend fallback");
  EXPECT_EQ(t->rows[2].key.name(), "AutogradCPU");
}

TEST(Upgrade, Version2DecisionSentencesBecomeDecisions) {
  const std::vector<Event> old = {
      make_event(0, 1, 0, Phase::Instant, Category::Autograd, "autograd decision",
                 Text{"aten::mul.Tensor: grad mode on, an input requires grad -> records MulBackward0"}),
      make_event(1, 2, 0, Phase::Instant, Category::Autograd, "autograd decision",
                 Text{"aten::add.Tensor: grad mode off, an input requires grad -> no graph is recorded"}),
      make_event(2, 3, 0, Phase::Instant, Category::Autograd, "autograd decision",
                 Text{"aten::exp: grad mode on, an input requires grad -> records a backward node"}),
      make_event(3, 4, 0, Phase::Instant, Category::Autograd, "autograd decision", Text{"something else"})};
  const auto back = read_trace_json(as_version_2(old)).events;
  ASSERT_EQ(back.size(), 4u);
  const auto* a = std::get_if<AutogradDecision>(&back[0].payload);
  ASSERT_NE(a, nullptr);
  EXPECT_STREQ(a->op, "aten::mul.Tensor");
  EXPECT_TRUE(a->grad_mode && a->requires_grad);
  EXPECT_STREQ(a->node, "MulBackward0");
  const auto* b = std::get_if<AutogradDecision>(&back[1].payload);
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->grad_mode);
  EXPECT_TRUE(b->requires_grad);
  EXPECT_EQ(decision_text(*b), "grad mode off, an input requires grad -> no graph is recorded");
  const auto* c = std::get_if<AutogradDecision>(&back[2].payload);
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(c->node, "");
  EXPECT_EQ(decision_text(*c), "grad mode on, an input requires grad -> records a backward node");
  EXPECT_NE(std::get_if<Text>(&back[3].payload), nullptr);  // not a decision: left as it was
}

TEST(Upgrade, Version3KeepsWhatItReads) {
  // A version 3 file is read as written (a kernel_detail stays one), except for what version 7
  // made typed: the "backward" slice's text becomes its EngineRun.
  const auto back = read_trace_json(as_version(old_events(), 3)).events;
  auto expected = old_events();
  expected[1].payload = EngineRun{16, "backward"};
  testing::expect_same_events(expected, back);
}

TEST(Upgrade, BeforeVersion7NamesBecomeTypedFacts) {
  EngineStep step;
  step.node = 4;
  TensorMeta meta;  // its version 6 layout: the flags before the label
  meta.label = "x";
  meta.requires_grad = true;
  meta.storage_values = std::vector<double>{1.5, 2.5};
  meta.storage_truncated = true;
  const std::vector<Event> v6 = {
      make_event(0, 1, 0, Phase::Begin, Category::Autograd, "backward", Text{"autograd.grad"}),
      make_event(1, 2, 0, Phase::Instant, Category::Autograd, "node ready", step),
      make_event(2, 3, 0, Phase::Begin, Category::Autograd, "MulBackward0", step),
      make_event(3, 4, 0, Phase::Instant, Category::Autograd, "grad added", step),
      make_event(4, 5, 0, Phase::Instant, Category::Autograd, "something else", step),
      make_event(5, 6, 0, Phase::Begin, Category::Compile, "c++ compile [2/13]"),
      make_event(6, 7, 0, Phase::End, Category::Compile, "c++ compile [2/13]"),
      make_event(7, 8, 0, Phase::Begin, Category::Compile, "guard check"),
      make_event(8, 9, 0, Phase::Instant, Category::Compile, "torch._dynamo.reset()"),
      make_event(9, 10, 0, Phase::Instant, Category::Compile, "torch._dynamo.reset()"),
      make_event(10, 11, 0, Phase::Instant, Category::Tensor, "tensor", meta),
      make_event(11, 12, 0, Phase::Instant, Category::Compile, "graph [2/5]",
                 CompileArtifact{CompileArtifactKind::Graph, "2/5", "", 0, "g"}),
      make_event(12, 13, 0, Phase::Instant, Category::Compile, "fusion [2/5]",
                 FusionDecisions{2, 5, 0, {{"add", FusionAction::StartsKernel, "cpp_fused_add_3", ""}}}),
  };
  const auto back = read_trace_json(as_version(v6, 6)).events;
  ASSERT_EQ(back.size(), v6.size());
  const auto* run = std::get_if<EngineRun>(&back[0].payload);
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->root_tensor, 0u);
  EXPECT_EQ(run->what, "autograd.grad");
  EXPECT_EQ(std::get<EngineStep>(back[1].payload).action, EngineAction::NodeReady);
  EXPECT_EQ(std::get<EngineStep>(back[2].payload).action, EngineAction::NodeRuns);
  EXPECT_EQ(std::get<EngineStep>(back[3].payload).action, EngineAction::GradAdded);
  EXPECT_EQ(std::get<EngineStep>(back[4].payload).action, EngineAction::Unknown);
  for (int k : {5, 6}) {
    const auto* p = std::get_if<CompilePhase>(&back[k].payload);
    ASSERT_NE(p, nullptr);
    EXPECT_STREQ(p->phase, "c++ compile");
    EXPECT_EQ(p->frame_id, 2);
    EXPECT_EQ(p->compile_index, 13);
  }
  EXPECT_TRUE(std::holds_alternative<std::monostate>(back[7].payload));  // no compile id: not a phase
  EXPECT_EQ(std::get<DynamoReset>(back[8].payload).resets, 0);
  EXPECT_EQ(std::get<DynamoReset>(back[9].payload).resets, 1);
  testing::expect_same_events({v6[10]}, {back[10]});
  const auto& artifact = std::get<CompileArtifact>(back[11].payload);
  EXPECT_EQ(artifact.frame_id, 2);
  EXPECT_EQ(artifact.compile_index, 5);
  EXPECT_EQ(std::get<FusionDecisions>(back[12].payload).decisions[0].kernel_index, 3);
  // A version 7 file is read as written: its events already say what they are.
  const auto same = read_trace_json(to_json_text(back, {})).events;
  testing::expect_same_events(back, same);
}

TEST(Upgrade, Version3HasNoSchemaCheckPayloads) {
  const std::string text = as_version(
      {make_event(0, 1, 0, Phase::Instant, Category::Note, "schema check", SchemaCheck{"aten::add.Tensor", {}})}, 3);
  try {
    read_trace_json(text);
    FAIL() << "a version 3 file with a schema_check payload was read";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the payload item 0 (type) is 13, out of range (0 to 12)"), std::string::npos)
        << e.what();
  }
}

TEST(Upgrade, Version4HasNoCompilePayloadsOrCategory) {
  const std::string payload = as_version({make_event(0, 1, 0, Phase::Instant, Category::Note, "graph",
                                                     CompileArtifact{CompileArtifactKind::Graph, "0/0", "", 0, "g"})},
                                         4);
  try {
    read_trace_json(payload);
    FAIL() << "a version 4 file with a compile_artifact payload was read";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the payload item 0 (type) is 14, out of range (0 to 13)"), std::string::npos)
        << e.what();
  }
  const std::string category = as_version({make_event(0, 1, 0, Phase::Begin, Category::Compile, "capture [0/0]")}, 4);
  try {
    read_trace_json(category);
    FAIL() << "a version 4 file with the compile category was read";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("(category) is 12, out of range (0 to 11)"), std::string::npos) << e.what();
  }
}

TEST(Upgrade, Version5HasNoFusionDecisionPayloads) {
  const std::string text = as_version(
      {make_event(0, 1, 0, Phase::Instant, Category::Compile, "fusion [0/0]", FusionDecisions{0, 0, 0, {}})}, 5);
  try {
    read_trace_json(text);
    FAIL() << "a version 5 file with a fusion_decisions payload was read";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the payload item 0 (type) is 15, out of range (0 to 14)"), std::string::npos)
        << e.what();
  }
}

TEST(Upgrade, Version5FusionTextLoadsAsTypedDecisions) {
  const std::string text = as_version(
      {make_event(
          0, 1, 0, Phase::Instant, Category::Compile, "fusion [0/0]",
          CompileArtifact{CompileArtifactKind::Fusion, "0/0", "", 0,
                          "mul\tstarts cpp_fused_mul_0\nadd\tstarts a new kernel: why\nadd\tstarts cpp_fused_add_1"})},
      5);
  const LoadedTrace f = read_trace_json(text);
  ASSERT_EQ(f.events.size(), 1u);
  const auto* d = std::get_if<FusionDecisions>(&f.events[0].payload);
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->decisions.size(), 2u);
  EXPECT_STREQ(d->decisions[1].kernel, "cpp_fused_add_1");
  EXPECT_EQ(d->decisions[1].reason, "why");
}

TEST(Upgrade, Version2HasNoTypedAutogradPayloads) {
  GraphNode g;
  g.node = 1;
  g.name = "MulBackward0";
  const std::string text = as_version_2({make_event(0, 1, 0, Phase::Instant, Category::Autograd, "node created", g)});
  try {
    read_trace_json(text);
    FAIL() << "a version 2 file with a graph_node payload was read";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the payload item 0 (type) is 6, out of range (0 to 5)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ipt::trace
