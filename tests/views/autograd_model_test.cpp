// The autograd model on hand-built event lists shaped like what core/autograd records for
// loss = (a * b + a).sum(): the graph, dependencies counting down, the ready queue's order,
// .grad written then added, and a backward that stops with an error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/views/autograd_model.h"
#include "event_list.h"

namespace ipt::views {
namespace {

using trace::Category;
using trace::Event;
using trace::Phase;

// Builds an event list the way the recorder would.
struct Events : testing::EventList {
  size_t tensor(uint64_t id, std::vector<double> values, std::vector<int64_t> sizes = {3},
                std::vector<int64_t> strides = {1}) {
    trace::TensorMeta m;
    m.tensor_id = id;
    m.sizes = std::move(sizes);
    m.strides = std::move(strides);
    m.storage_values = std::move(values);
    m.label = "result";
    return add(Category::Tensor, Phase::Instant, "tensor", m);
  }
  // "5:0,none,6:1" -> next edges.
  static std::vector<trace::NextEdge> edges(const std::string& s) {
    std::vector<trace::NextEdge> out;
    for (size_t p = 0; p < s.size();) {
      size_t q = s.find(',', p);
      if (q == std::string::npos) q = s.size();
      const std::string item = s.substr(p, q - p);
      const size_t colon = item.find(':');
      out.push_back(colon == std::string::npos
                        ? trace::NextEdge{}
                        : trace::NextEdge{true, std::stoull(item.substr(0, colon)),
                                          static_cast<uint32_t>(std::stoul(item.substr(colon + 1)))});
      p = q + 1;
    }
    return out;
  }
  static trace::GraphNode node(uint64_t id, const char* name, int64_t seq, const char* next, int deps = -1) {
    trace::GraphNode g;
    g.node = id;
    g.name = name;
    g.seq = seq;
    g.next = edges(next);
    g.deps = deps;
    return g;
  }
  // `leaves`: "<AccumulateGrad id>=<leaf tensor id>".
  size_t node_created(const char* id, const char* name, const char* seq, const char* next, const char* output,
                      std::vector<std::string> leaves = {}) {
    trace::GraphNode g = node(std::stoull(id), name, std::stoll(seq), next);
    g.output_tensor = std::stoull(output);
    for (const auto& l : leaves) {
      const size_t eq = l.find('=');
      g.leaves.push_back({std::stoull(l.substr(0, eq)), std::stoull(l.substr(eq + 1))});
    }
    return add(Category::Autograd, Phase::Instant, "node created", g);
  }
  static trace::EngineStep step(const char* id, const char* name, trace::EngineAction action) {
    trace::EngineStep x;
    x.node = std::stoull(id);
    x.name = name;
    x.action = action;
    return x;
  }
  size_t ready(const char* node, const char* name) {
    return add(Category::Autograd, Phase::Instant, "node ready", step(node, name, trace::EngineAction::NodeReady));
  }
  size_t arrived(const char* node, const char* from, const char* deps_left, const char* sum,
                 const char* input_nr = "0") {
    trace::EngineStep x = step(node, "?", trace::EngineAction::GradArrived);
    x.from = std::stoull(from);
    x.input_nr = static_cast<uint32_t>(std::stoul(input_nr));
    x.deps_left = std::stoi(deps_left);
    x.sum = parse(sum);
    return add(Category::Autograd, Phase::Instant, "grad arrived", x);
  }
  size_t run(const char* node, const char* name) {
    return add(Category::Autograd, Phase::Begin, name, step(node, name, trace::EngineAction::NodeRuns));
  }
  size_t end(const char* name) { return add(Category::Autograd, Phase::End, name); }
  size_t grad(bool added, const char* node, const char* tensor, const char* grad_tensor) {
    trace::EngineStep x = step(node, "torch::autograd::AccumulateGrad",
                               added ? trace::EngineAction::GradAdded : trace::EngineAction::GradWritten);
    x.tensor = std::stoull(tensor);
    x.grad_tensor = std::stoull(grad_tensor);
    return add(Category::Autograd, Phase::Instant, added ? "grad added" : "grad written", x);
  }
  size_t backward_begin(const char* root) {
    return add(Category::Autograd, Phase::Begin, "backward", trace::EngineRun{std::stoull(root), "backward"});
  }
  size_t backward_end() { return add(Category::Autograd, Phase::End, "backward"); }
  size_t graph(std::vector<trace::GraphNode> nodes) {
    return add(Category::Autograd, Phase::Instant, "autograd graph", trace::GraphNodes{std::move(nodes)});
  }
  static trace::GraphNode accumulate(uint64_t id, int deps, uint64_t leaf) {
    trace::GraphNode g = node(id, "torch::autograd::AccumulateGrad", -1, "", deps);
    g.leaves.push_back({id, leaf});
    return g;
  }
  size_t graph() {
    return graph({node(8, "SumBackward0", 7, "7:0", 0), node(7, "AddBackward0", 6, "4:0,5:0", 1), accumulate(5, 2, 11),
                  node(4, "MulBackward0", 3, "5:0,6:0", 1), accumulate(6, 1, 12)});
  }
  // One full backward of (a * b + a).sum(); `added`: .grad already exists.
  void backward(bool added, const char* a_grad, const char* b_grad) {
    backward_begin("17");
    graph();
    ready("8", "SumBackward0");
    run("8", "SumBackward0");
    end("SumBackward0");
    arrived("7", "8", "0", "[1, 1, 1]");
    ready("7", "AddBackward0");
    run("7", "AddBackward0");
    end("AddBackward0");
    arrived("4", "7", "0", "[1, 1, 1]");
    ready("4", "MulBackward0");
    arrived("5", "7", "1", "[1, 1, 1]");
    run("4", "MulBackward0");
    end("MulBackward0");
    arrived("5", "4", "0", "[5, 6, 7]");
    ready("5", "torch::autograd::AccumulateGrad");
    arrived("6", "4", "0", "[1, 2, 3]");
    ready("6", "torch::autograd::AccumulateGrad");
    run("5", "torch::autograd::AccumulateGrad");
    tensor(23, {5, 6, 7});
    if (added) tensor(23, parse(a_grad));
    grad(added, "5", "11", "23");
    end("torch::autograd::AccumulateGrad");
    run("6", "torch::autograd::AccumulateGrad");
    tensor(24, {1, 2, 3});
    if (added) tensor(24, parse(b_grad));
    grad(added, "6", "12", "24");
    end("torch::autograd::AccumulateGrad");
    backward_end();
  }
  static std::vector<double> parse(const char* s) {
    std::vector<double> v;
    std::string t(s);
    for (size_t p = 0; p < t.size();) {
      size_t q = t.find_first_of("0123456789-", p);
      if (q == std::string::npos) break;
      size_t used = 0;
      v.push_back(std::stod(t.substr(q), &used));
      p = q + used;
    }
    return v;
  }
};

// Forward of loss = (a * b + a).sum(); returns the index where "the next step" begins.
size_t forward(Events& e) {
  e.tensor(11, {1, 2, 3});
  e.tensor(12, {4, 5, 6});
  e.node_created("4", "MulBackward0", "3", "5:0,6:0", "15", {"5=11", "6=12"});
  e.tensor(15, {4, 10, 18});
  e.node_created("7", "AddBackward0", "6", "4:0,5:0", "16", {"5=11"});
  e.tensor(16, {5, 12, 21});
  e.node_created("8", "SumBackward0", "7", "7:0", "17");
  e.tensor(17, {38}, {}, {});
  return e.ev.size();
}

EngineNodeView state(const BackwardRun& r, size_t frame, uint64_t id) {
  size_t i = r.node_index(id);
  EXPECT_NE(i, static_cast<size_t>(-1)) << "node " << id;
  return engine_state(r, frame).nodes.at(i);
}

TEST(AutogradGraph, StructureFromNodeCreatedEvents) {
  Events e;
  forward(e);
  AutogradGraph g = autograd_graph(e.ev);
  ASSERT_EQ(g.nodes.size(), 5u);
  // Breadth first from the root, children in next_functions order.
  std::vector<uint64_t> ids;
  for (const auto& n : g.nodes) ids.push_back(n.id);
  EXPECT_EQ(ids, (std::vector<uint64_t>{8, 7, 4, 5, 6}));
  EXPECT_EQ(g.nodes[0].name, "SumBackward0");
  EXPECT_EQ(g.nodes[0].seq, 7);
  EXPECT_EQ(g.nodes[0].output_value, "38");
  EXPECT_EQ(g.find(4)->output_value, "[4, 10, 18]");
  EXPECT_EQ(g.find(4)->created_event, 2u);
  EXPECT_FALSE(g.from_earlier_step);

  const AutogradNode* acc_a = g.find(5);
  ASSERT_NE(acc_a, nullptr);
  EXPECT_TRUE(acc_a->accumulate);
  EXPECT_EQ(acc_a->name, "torch::autograd::AccumulateGrad");
  EXPECT_EQ(acc_a->leaf, 11u);
  EXPECT_EQ(short_node_name(acc_a->name), "AccumulateGrad");

  ASSERT_EQ(g.edges.size(), 5u);
  auto has = [&](uint64_t from, uint64_t to, uint32_t slot) {
    for (const auto& ed : g.edges)
      if (ed.from == from && ed.to == to && ed.slot == slot) return true;
    return false;
  };
  EXPECT_TRUE(has(8, 7, 0));
  EXPECT_TRUE(has(7, 4, 0));
  EXPECT_TRUE(has(7, 5, 1));
  EXPECT_TRUE(has(4, 5, 0));
  EXPECT_TRUE(has(4, 6, 1));
  int into_a = 0;
  for (const auto& ed : g.edges) into_a += ed.to == 5;
  EXPECT_EQ(into_a, 2) << "a is used twice: one AccumulateGrad, two incoming edges";

  ASSERT_EQ(g.leaves.size(), 2u);
  EXPECT_EQ(g.leaves[0].tensor, 11u);
  EXPECT_EQ(g.leaves[0].accumulate_node, 5u);
  EXPECT_EQ(g.leaves[0].value, "[1, 2, 3]");
  EXPECT_EQ(g.leaves[0].sizes, "(3)");
  EXPECT_EQ(g.leaves[1].tensor, 12u);
}

TEST(AutogradGraph, ScopeOfAStep) {
  Events e;
  size_t step2 = forward(e);
  e.add(Category::Lesson, Phase::Instant, "lesson step", trace::Text{"step 3"});
  size_t step3_end = e.ev.size();
  e.backward(false, "", "");

  // A step that records nothing shows the graph recorded before it.
  AutogradGraph earlier = autograd_graph(e.ev, step2, step3_end);
  EXPECT_TRUE(earlier.from_earlier_step);
  EXPECT_EQ(earlier.nodes.size(), 5u);
  // A step with only a backward shows that backward's graph.
  AutogradGraph bw = autograd_graph(e.ev, step3_end, e.ev.size());
  EXPECT_FALSE(bw.from_earlier_step);
  EXPECT_EQ(bw.nodes.size(), 5u);
  // Nothing recorded at all: empty.
  EXPECT_TRUE(autograd_graph(e.ev, 0, 2).empty());

  // A graph with None edges: d * b where d needs no grad.
  Events f;
  f.node_created("13", "MulBackward0", "12", "none,6:0", "51", {"6=12"});
  AutogradGraph g = autograd_graph(f.ev);
  ASSERT_EQ(g.nodes.size(), 2u);
  ASSERT_EQ(g.nodes[0].next.size(), 2u);
  EXPECT_FALSE(g.nodes[0].next[0].valid);
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].slot, 1u);
}

TEST(BackwardRun, DependenciesCountDown) {
  Events e;
  size_t step = forward(e);
  e.backward(false, "", "");
  auto runs = backward_runs(e.ev, step);
  ASSERT_EQ(runs.size(), 1u);
  const BackwardRun& r = runs[0];
  EXPECT_EQ(r.root_tensor, 17u);
  EXPECT_FALSE(r.failed_node);
  ASSERT_EQ(r.nodes.size(), 5u);
  EXPECT_EQ(r.deps, (std::vector<int>{0, 1, 2, 1, 1}));

  EXPECT_EQ(r.frames.front().kind, EngineStepKind::Counted);
  EXPECT_EQ(state(r, 0, 5).deps_left, 2);
  EXPECT_EQ(state(r, 0, 5).state, EngineNodeState::Waiting);
  EXPECT_TRUE(engine_state(r, 0).ready.empty());

  // The first gradient for a's AccumulateGrad: one more to wait for, the buffer holds it.
  size_t k = 0;
  while (k < r.frames.size() && !(r.frames[k].kind == EngineStepKind::Arrived && r.frames[k].node == 5)) ++k;
  ASSERT_LT(k, r.frames.size());
  EXPECT_EQ(r.frames[k].from, 7u);
  EXPECT_EQ(state(r, k, 5).deps_left, 1);
  EXPECT_EQ(state(r, k, 5).received, 1);
  EXPECT_EQ(state(r, k, 5).state, EngineNodeState::Waiting);
  ASSERT_EQ(state(r, k, 5).buffer.size(), 1u);
  EXPECT_EQ(state(r, k, 5).buffer[0].second, "[1, 1, 1]");
  EXPECT_EQ(state(r, k, 8).state, EngineNodeState::Done);
  EXPECT_EQ(state(r, k, 4).state, EngineNodeState::Ready);
  EXPECT_EQ(engine_state(r, k).ready, (std::vector<uint64_t>{4}));
  // The edge that carried it: AddBackward0's second next edge.
  EXPECT_EQ(engine_state(r, k).edge, std::make_pair(uint64_t{7}, uint32_t{1}));

  // The second one completes the sum, and the node becomes ready.
  ++k;
  while (k < r.frames.size() && !(r.frames[k].kind == EngineStepKind::Arrived && r.frames[k].node == 5)) ++k;
  ASSERT_LT(k, r.frames.size());
  EXPECT_EQ(state(r, k, 5).deps_left, 0);
  EXPECT_EQ(state(r, k, 5).received, 2);
  EXPECT_EQ(state(r, k, 5).buffer[0].second, "[5, 6, 7]");
  EXPECT_EQ(r.frames[k + 1].kind, EngineStepKind::Ready);
  EXPECT_EQ(state(r, k + 1, 5).state, EngineNodeState::Ready);

  // At the end every node ran and every edge carried a gradient.
  const EngineState last = engine_state(r, r.frames.size() - 1);
  EXPECT_EQ(last.frame, r.frames.size() - 1);
  for (const auto& n : last.nodes) EXPECT_EQ(n.state, EngineNodeState::Done);
  EXPECT_EQ(last.delivered(), 5u);
  EXPECT_TRUE(last.ready.empty());
  // Walking frame by frame gives the same states as rebuilding them.
  EngineState walk = engine_state(r, 0);
  while (advance(r, walk)) EXPECT_EQ(walk.ready, engine_state(r, walk.frame).ready);
  EXPECT_EQ(walk.frame, r.frames.size() - 1);
  EXPECT_EQ(engine_state(r, 1000).frame, r.frames.size() - 1);
  // Selecting an engine event finds its frame.
  EXPECT_EQ(frame_at_event(r, r.frames[7].event), 7u);
  EXPECT_EQ(frame_at_event(r, r.begin_event), 0u);
}

TEST(BackwardRun, ReadyQueueHighestSequenceNumberFirst) {
  Events e;
  e.backward_begin("9");
  e.graph({Events::node(1, "SumBackward0", 5, "2:0,3:0,4:0", 0), Events::node(2, "MulBackward0", 2, "", 1),
           Events::node(3, "ExpBackward0", 4, "", 1), Events::accumulate(4, 1, 30)});
  e.ready("1", "SumBackward0");
  e.run("1", "SumBackward0");
  e.end("SumBackward0");
  e.arrived("2", "1", "0", "[1]");
  e.ready("2", "MulBackward0");
  e.arrived("3", "1", "0", "[1]");
  e.ready("3", "ExpBackward0");
  e.arrived("4", "1", "0", "[1]");
  e.ready("4", "torch::autograd::AccumulateGrad");
  e.run("4", "torch::autograd::AccumulateGrad");
  auto runs = backward_runs(e.ev);
  ASSERT_EQ(runs.size(), 1u);
  const BackwardRun& r = runs[0];
  EXPECT_EQ(r.end_event, SIZE_MAX);
  const size_t all_ready = r.frames.size() - 2;
  EXPECT_EQ(r.frames[all_ready].kind, EngineStepKind::Ready);
  // AccumulateGrad (UINT64_MAX in the engine) first, then seq 4, then seq 2.
  EXPECT_EQ(engine_state(r, all_ready).ready, (std::vector<uint64_t>{4, 3, 2}));
  const size_t running = r.frames.size() - 1;
  EXPECT_EQ(engine_state(r, running).ready, (std::vector<uint64_t>{3, 2}));
  EXPECT_EQ(state(r, running, 4).state, EngineNodeState::Running);
}

TEST(BackwardRun, GradWrittenThenAdded) {
  Events e;
  size_t step4 = forward(e);
  e.backward(false, "", "");
  size_t step5 = e.ev.size();
  e.backward(true, "[10, 12, 14]", "[2, 4, 6]");

  auto first = backward_runs(e.ev, step4, step5);
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(first[0].leaves.size(), 2u);
  EXPECT_EQ(first[0].leaves[0].tensor, 11u);
  EXPECT_EQ(first[0].leaves[0].value, "[1, 2, 3]");
  const size_t a = first[0].leaf_index(11);
  EXPECT_EQ(engine_state(first[0], 0).grads[a].action, GradAction::None);
  EXPECT_EQ(engine_state(first[0], 0).grads[a].value, "");
  const LeafGradView w = engine_state(first[0], first[0].frames.size() - 1).grads[a];
  EXPECT_EQ(w.action, GradAction::Written);
  EXPECT_EQ(w.value, "[5, 6, 7]");
  EXPECT_EQ(w.before, "");

  auto second = backward_runs(e.ev, step5);
  ASSERT_EQ(second.size(), 1u);
  const BackwardRun& r = second[0];
  const EngineState start = engine_state(r, 0), end = engine_state(r, r.frames.size() - 1);
  EXPECT_EQ(start.grads[r.leaf_index(11)].before, "[5, 6, 7]");
  EXPECT_EQ(start.grads[r.leaf_index(11)].value, "[5, 6, 7]");
  const LeafGradView& ad = end.grads[r.leaf_index(11)];
  EXPECT_EQ(ad.action, GradAction::Added);
  EXPECT_EQ(ad.value, "[10, 12, 14]");
  EXPECT_EQ(ad.before, "[5, 6, 7]");
  EXPECT_EQ(end.grads[r.leaf_index(12)].value, "[2, 4, 6]");
  // The frame of the add says so.
  bool saw_add = false;
  for (const auto& f : r.frames)
    if (f.kind == EngineStepKind::GradAdded && f.node == 5) {
      saw_add = true;
      EXPECT_EQ(f.value, "[10, 12, 14]");
    }
  EXPECT_TRUE(saw_add);
  // Both backwards together.
  EXPECT_EQ(backward_runs(e.ev, step4).size(), 2u);
}

TEST(BackwardRun, ErrorInANodeStopsTheEngine) {
  Events e;
  forward(e);
  size_t step = e.ev.size();
  e.backward_begin("17");
  e.graph();
  e.ready("8", "SumBackward0");
  e.run("8", "SumBackward0");
  e.end("SumBackward0");
  e.arrived("7", "8", "0", "[1, 1, 1]");
  e.ready("7", "AddBackward0");
  e.run("7", "AddBackward0");
  e.end("AddBackward0");
  e.arrived("4", "7", "0", "[1, 1, 1]");
  e.ready("4", "MulBackward0");
  e.arrived("5", "7", "1", "[1, 1, 1]");
  e.run("4", "MulBackward0");
  e.end("MulBackward0");  // its saved tensors were freed: it raised
  e.backward_end();
  auto runs = backward_runs(e.ev, step);
  ASSERT_EQ(runs.size(), 1u);
  const BackwardRun& r = runs[0];
  EXPECT_EQ(r.failed_node, 4u);
  const size_t last = r.frames.size() - 1;
  EXPECT_EQ(r.frames[last].kind, EngineStepKind::Failed);
  EXPECT_EQ(state(r, last, 4).state, EngineNodeState::Failed);
  EXPECT_EQ(state(r, last, 5).deps_left, 1);
  EXPECT_EQ(state(r, last, 5).buffer.at(0).second, "[1, 1, 1]");
  EXPECT_EQ(engine_state(r, last).grads[r.leaf_index(11)].action, GradAction::None);
}

TEST(AutogradDot, NodesLeavesAndEdges) {
  Events e;
  forward(e);
  std::string dot = to_dot(autograd_graph(e.ev));
  EXPECT_NE(dot.find("digraph autograd {"), std::string::npos);
  EXPECT_NE(dot.find("n8 [label=\"SumBackward0\\nout #17 = 38\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("n5 [label=\"AccumulateGrad\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("shape=octagon"), std::string::npos);
  EXPECT_NE(dot.find("t11 [label=\"leaf #11 (3)\\n[1, 2, 3]\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("n8 -> n7 [label=\"0\"]"), std::string::npos);
  EXPECT_NE(dot.find("n5 -> t11 [style=dashed"), std::string::npos);
  EXPECT_EQ(dot.back(), '\n');
  EXPECT_EQ(to_dot(AutogradGraph{}).find("->"), std::string::npos);
}

TEST(TensorPreview, FollowsSizesStridesAndOffset) {
  trace::TensorMeta m;
  m.sizes = {2, 3};
  m.strides = {3, 1};
  m.storage_values = {0, 1, 2, 3, 4, 5};
  EXPECT_EQ(tensor_preview(m), "[[0, 1, 2], [3, 4, 5]]");
  m.sizes = {3, 2};
  m.strides = {1, 3};  // the transpose
  EXPECT_EQ(tensor_preview(m), "[[0, 3], [1, 4], [2, 5]]");
  m.sizes = {2};
  m.strides = {2};
  m.storage_offset = 1;
  EXPECT_EQ(tensor_preview(m), "[1, 3]");
  m.sizes = {6};
  m.strides = {1};
  m.storage_offset = 0;
  EXPECT_EQ(tensor_preview(m, 4), "[0, 1, 2, 3, ...]");
  m.sizes = {};
  m.strides = {};
  m.storage_values = {0.5};
  EXPECT_EQ(tensor_preview(m), "0.5");
  m.storage_values.clear();
  EXPECT_EQ(tensor_preview(m), "?");
  EXPECT_EQ(sizes_text(std::vector<int64_t>{2, 3}), "(2, 3)");
  EXPECT_EQ(sizes_text({}), "()");
}

}  // namespace
}  // namespace ipt::views
