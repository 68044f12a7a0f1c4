// The Graph view's texts: input buffers (empty, the root's, several inputs, a truncated sum),
// .grad lines (None or a value), next_functions as PyTorch prints them (None edges, a
// one-element tuple, a node the graph does not hold), output lines, leaf titles and node
// labels, on hand-built graphs and on a graph and backward rebuilt from recorded events.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/views/graph_text.h"
#include "event_list.h"

namespace ipt::views {
namespace {

using trace::Category;
using trace::Event;
using trace::Phase;

AutogradNode node(uint64_t id, const char* name, std::vector<trace::NextEdge> next = {}) {
  AutogradNode n;
  n.id = id;
  n.name = name;
  n.next = std::move(next);
  return n;
}

AutogradNode accumulate(uint64_t id, uint64_t leaf) {
  AutogradNode n = node(id, "torch::autograd::AccumulateGrad");
  n.accumulate = true;
  n.leaf = leaf;
  return n;
}

trace::NextEdge edge(uint64_t to, uint32_t input_nr) { return trace::NextEdge{true, to, input_nr}; }

// loss = (a * b + a).sum() with b not requiring grad: MulBackward0's second edge is None.
AutogradGraph sample_graph() {
  AutogradGraph g;
  g.nodes.push_back(node(8, "SumBackward0", {edge(7, 0)}));
  g.nodes.push_back(node(7, "AddBackward0", {edge(4, 0), edge(5, 0)}));
  g.nodes.push_back(node(4, "MulBackward0", {edge(5, 0), trace::NextEdge{}}));
  g.nodes.push_back(accumulate(5, 11));
  return g;
}

TEST(GraphText, BufferText) {
  EngineNodeView v;
  // Empty: the root's buffer holds backward()'s initial gradient, any other node's nothing yet.
  EXPECT_EQ(buffer_text(v, 0, true), "Σ ← backward()");
  EXPECT_EQ(buffer_text(v, 2, false), "Σ —");
  // One input, one gradient expected: the sum alone.
  v.buffer = {{0, "[1, 1, 1]"}};
  v.received = 1;
  EXPECT_EQ(buffer_text(v, 1, false), "Σ [1, 1, 1]");
  // One of three gradients in: the count follows.
  EXPECT_EQ(buffer_text(v, 3, false), "Σ [1, 1, 1]  1/3");
  // Several inputs: each named by its number; a truncated sum is shown as recorded.
  v.buffer = {{0, "[2, 2]"}, {1, "[1, 1, 1, 1, 1, 1, ...]"}};
  v.received = 2;
  EXPECT_EQ(buffer_text(v, 2, false), "Σ in0 [2, 2]  in1 [1, 1, 1, 1, 1, 1, ...]  2/2");
  // A gradient that came along as None.
  v.buffer = {{1, "None"}};
  v.received = 1;
  EXPECT_EQ(buffer_text(v, 1, false), "Σ None");
}

TEST(GraphText, GradText) {
  EXPECT_EQ(grad_text(""), ".grad None");
  EXPECT_EQ(grad_text("[5, 6, 7]"), ".grad [5, 6, 7]");
}

TEST(GraphText, NextFunctionsText) {
  const AutogradGraph g = sample_graph();
  // One edge: a one-element tuple keeps its trailing comma, as Python prints it.
  EXPECT_EQ(next_functions_text(g, g.nodes[0]), "((AddBackward0, 0),)");
  // AccumulateGrad by its short name.
  EXPECT_EQ(next_functions_text(g, g.nodes[1]), "((MulBackward0, 0), (AccumulateGrad, 0))");
  // An input that needs no gradient: None.
  EXPECT_EQ(next_functions_text(g, g.nodes[2]), "((AccumulateGrad, 0), (None, 0))");
  // A leaf's AccumulateGrad has no next functions.
  EXPECT_EQ(next_functions_text(g, g.nodes[3]), "()");
  // Several edges, one to a node the graph does not hold (past its node limit).
  const AutogradNode many = node(9, "CatBackward0", {edge(8, 0), trace::NextEdge{}, edge(99, 1), edge(5, 0)});
  EXPECT_EQ(next_functions_text(g, many), "((SumBackward0, 0), (None, 0), (?, 1), (AccumulateGrad, 0))");
}

TEST(GraphText, OutputLineAndLeafTitle) {
  AutogradNode n = node(4, "MulBackward0");
  n.output = 15;
  n.output_value = "[4, 10, 18]";
  EXPECT_EQ(output_line(n), "out #15 = [4, 10, 18]");
  n.output_value.clear();
  EXPECT_EQ(output_line(n), "out #15");
  AutogradLeaf l;
  l.tensor = 11;
  l.sizes = "(2, 3)";
  EXPECT_EQ(leaf_title(l), "leaf #11 (2, 3)");
  l.sizes = "()";
  EXPECT_EQ(leaf_title(l), "leaf #11 ()");
  l.sizes.clear();
  EXPECT_EQ(leaf_title(l), "leaf #11");
}

TEST(GraphText, NodeLabel) {
  AutogradGraph g = sample_graph();
  EXPECT_EQ(node_label(g, 4), "MulBackward0");
  EXPECT_EQ(node_label(g, 5), "AccumulateGrad(#11)");  // by its leaf
  EXPECT_EQ(node_label(g, 42), "#42");                 // not in the graph
  AutogradNode no_leaf = accumulate(6, 0);
  no_leaf.leaf.reset();
  g.nodes.push_back(no_leaf);
  EXPECT_EQ(node_label(g, 6), "AccumulateGrad");
}

// ---- on a graph and a backward rebuilt from events ----

struct Events : testing::EventList {
  void tensor(uint64_t id, std::vector<double> values, std::vector<int64_t> sizes = {3}) {
    trace::TensorMeta m;
    m.tensor_id = id;
    m.sizes = sizes;
    m.strides = sizes.empty() ? std::vector<int64_t>{} : std::vector<int64_t>{1};
    m.storage_values = std::move(values);
    m.label = "result";
    add(Category::Tensor, Phase::Instant, "tensor", m);
  }
  static trace::GraphNode graph_node(uint64_t id, const char* name, int64_t seq, std::vector<trace::NextEdge> next,
                                     int deps = -1) {
    trace::GraphNode g;
    g.node = id;
    g.name = name;
    g.seq = seq;
    g.next = std::move(next);
    g.deps = deps;
    return g;
  }
  trace::EngineStep step(uint64_t node, trace::EngineAction action) {
    trace::EngineStep s;
    s.node = node;
    s.name = "?";
    s.action = action;
    return s;
  }
};

// c = (a * b).sum() with a = [1, 2, 3] requiring grad and b = [4, 5, 6] not; then
// c.backward() up to MulBackward0 sending a's gradient.
Events mul_sum_backward() {
  Events e;
  e.tensor(11, {1, 2, 3});
  e.tensor(12, {4, 5, 6});
  trace::GraphNode mul = Events::graph_node(4, "MulBackward0", 0, {edge(5, 0), trace::NextEdge{}});
  mul.output_tensor = 15;
  mul.leaves = {{5, 11}};
  e.add(Category::Autograd, Phase::Instant, "node created", mul);
  e.tensor(15, {4, 10, 18});
  trace::GraphNode sum = Events::graph_node(8, "SumBackward0", 1, {edge(4, 0)});
  sum.output_tensor = 17;
  e.add(Category::Autograd, Phase::Instant, "node created", sum);
  e.tensor(17, {32}, {});
  e.add(Category::Autograd, Phase::Begin, "backward", trace::EngineRun{17, "backward"});
  trace::GraphNode acc = Events::graph_node(5, "torch::autograd::AccumulateGrad", -1, {}, 1);
  acc.leaves = {{5, 11}};
  e.add(Category::Autograd, Phase::Instant, "autograd graph",
        trace::GraphNodes{{Events::graph_node(8, "SumBackward0", 1, {edge(4, 0)}, 0),
                           Events::graph_node(4, "MulBackward0", 0, {edge(5, 0), trace::NextEdge{}}, 1), acc}});
  e.add(Category::Autograd, Phase::Instant, "node ready", e.step(8, trace::EngineAction::NodeReady));
  e.add(Category::Autograd, Phase::Begin, "SumBackward0", e.step(8, trace::EngineAction::NodeRuns));
  e.add(Category::Autograd, Phase::End, "SumBackward0");
  trace::EngineStep to_mul = e.step(4, trace::EngineAction::GradArrived);
  to_mul.from = 8;
  to_mul.sum = {1, 1, 1};
  e.add(Category::Autograd, Phase::Instant, "grad arrived", to_mul);
  trace::EngineStep to_acc = e.step(5, trace::EngineAction::GradArrived);
  to_acc.from = 4;
  to_acc.sum = {4, 5, 6};
  e.add(Category::Autograd, Phase::Instant, "grad arrived", to_acc);
  e.add(Category::Autograd, Phase::End, "backward");
  return e;
}

TEST(GraphText, FromRecordedEvents) {
  const Events e = mul_sum_backward();
  const AutogradGraph g = autograd_graph(e.ev);
  ASSERT_EQ(g.nodes.size(), 3u);
  const AutogradNode& sum = *g.find(8);
  const AutogradNode& mul = *g.find(4);
  EXPECT_EQ(next_functions_text(g, sum), "((MulBackward0, 0),)");
  EXPECT_EQ(next_functions_text(g, mul), "((AccumulateGrad, 0), (None, 0))");
  EXPECT_EQ(output_line(sum), "out #17 = 32");
  EXPECT_EQ(output_line(mul), "out #15 = [4, 10, 18]");
  ASSERT_EQ(g.leaves.size(), 1u);
  EXPECT_EQ(leaf_title(g.leaves[0]), "leaf #11 (3)");  // sizes_text writes no 1-tuple comma
  EXPECT_EQ(node_label(g, 5), "AccumulateGrad(#11)");

  const std::vector<BackwardRun> runs = backward_runs(e.ev);
  ASSERT_EQ(runs.size(), 1u);
  const BackwardRun& r = runs[0];
  const size_t root = r.node_index(8), m = r.node_index(4), acc = r.node_index(5);
  ASSERT_NE(root, static_cast<size_t>(-1));
  ASSERT_NE(m, static_cast<size_t>(-1));
  ASSERT_NE(acc, static_cast<size_t>(-1));
  // Frame 0: the dependencies are counted, no gradient has moved yet.
  const EngineState start = engine_state(r, 0);
  EXPECT_EQ(buffer_text(start.nodes[root], r.deps[root], r.deps[root] == 0), "Σ ← backward()");
  EXPECT_EQ(buffer_text(start.nodes[m], r.deps[m], r.deps[m] == 0), "Σ —");
  ASSERT_EQ(start.grads.size(), 1u);
  EXPECT_EQ(grad_text(start.grads[0].value), ".grad None");
  // The last frame: both gradients delivered.
  const EngineState end = engine_state(r, r.frames.size() - 1);
  EXPECT_EQ(buffer_text(end.nodes[m], r.deps[m], false), "Σ [1, 1, 1]");
  EXPECT_EQ(buffer_text(end.nodes[acc], r.deps[acc], false), "Σ [4, 5, 6]");
}

}  // namespace
}  // namespace ipt::views
