#pragma once
// The autograd graph and the backward engine's progress, rebuilt from recorded events (pure
// functions, no runtime access, no GUI). The Graph view draws these; `run --dot` exports the
// graph as Graphviz DOT.
//
// What is recorded (core/autograd/recording.cpp and engine.cpp), as typed payloads:
//   "node created"   at forward time, a GraphNode: node, name, seq, next edges (in
//                    forward-input order), output_tensor, and the leaves its edges reach.
//   "backward"       Begin/End slice around one run of the engine.
//   "autograd graph" at backward start, GraphNodes: every node of the run with its deps.
//   "node ready", "grad arrived" (with deps_left and the running sum of the input buffer),
//   a Begin/End slice per node run, "grad written" / "grad added" (AccumulateGrad): EngineSteps.
//
// Note [What the Graph view shows of a step]
// The graph of a range of events [first, last) is made of the nodes created in the range, the
// nodes of every backward that starts in the range, and every node reachable from those along
// next edges (node details come from all events before `last`). When the range records no
// node at all (a step that only inspects a graph), the graph is the one reachable from the
// last node created before the range, and `from_earlier_step` says so.
//
// Note [Engine frames]
// A backward is replayed as frames: frame 0 is the state right after the engine counted the
// dependencies; each later frame is the state after one engine event (a node becoming ready,
// a gradient arriving, a node starting or finishing, .grad being written or added). A node
// whose backward function raised an error ends the run: its slice ends, no gradient leaves
// it, and the backward ends; that last frame has kind Failed.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/trace/events.h"

namespace ipt::views {

// One of a node's next_functions, as recorded (trace::NextEdge): the node that receives the
// gradient of one forward input and which of its inputs it is; None when not valid.
using AutogradNextEdge = trace::NextEdge;

struct AutogradNode {
  uint64_t id = 0;                      // process-unique node id (as recorded)
  std::string name;                     // "MulBackward0", "torch::autograd::AccumulateGrad"
  int64_t seq = -1;                     // sequence_nr; -1 for AccumulateGrad (UINT64_MAX in the engine)
  bool accumulate = false;              // an AccumulateGrad node (the sink of a leaf)
  std::optional<uint64_t> leaf;         // AccumulateGrad: its leaf tensor id
  std::optional<uint64_t> output;       // the forward output tensor this node is the grad_fn of
  std::string output_value;             // short preview of that output when it was made ("" unknown)
  std::vector<AutogradNextEdge> next;   // next_functions, in forward-input order
  std::optional<size_t> created_event;  // "node created" event (AccumulateGrad: the first naming it)
};

// An edge of the drawing: from a node to one of its next functions.
struct AutogradEdge {
  uint64_t from = 0, to = 0;
  uint32_t input_nr = 0;  // which input of `to` receives the gradient
  uint32_t slot = 0;      // which of `from`'s next edges this is
};

// A leaf tensor that requires grad, reached through its AccumulateGrad node.
struct AutogradLeaf {
  uint64_t tensor = 0;
  uint64_t accumulate_node = 0;
  std::string value;  // short preview of the leaf's values ("" unknown)
  std::string sizes;  // "(2, 3)"
};

struct AutogradGraph {
  std::vector<AutogradNode> nodes;   // breadth first from the roots, children in next order
  std::vector<AutogradEdge> edges;   // valid next edges, in node order then slot order
  std::vector<AutogradLeaf> leaves;  // in node order
  bool from_earlier_step = false;    // Note [What the Graph view shows of a step]
  bool truncated = false;            // more nodes than the limit were reachable
  bool empty() const { return nodes.empty(); }
  const AutogradNode* find(uint64_t id) const;
  size_t index_of(uint64_t id) const;  // npos when absent
};

// Note [What the Graph view shows of a step].
AutogradGraph autograd_graph(const std::vector<trace::Event>& events, size_t first = 0, size_t last = SIZE_MAX,
                             size_t max_nodes = 400);

enum class EngineNodeState { Waiting, Ready, Running, Done, Failed };
enum class EngineStepKind { Counted, Ready, Arrived, Run, Finished, GradWritten, GradAdded, Failed };
enum class GradAction { None, Written, Added };

// One node of the run in one frame.
struct EngineNodeView {
  EngineNodeState state = EngineNodeState::Waiting;
  int deps_left = 0;  // gradients still awaited
  int received = 0;   // gradients arrived so far
  // The input buffer: for each input number that received something, the running sum.
  std::vector<std::pair<uint32_t, std::string>> buffer;
};

// A leaf's .grad in one frame.
struct LeafGradView {
  uint64_t tensor = 0;
  GradAction action = GradAction::None;  // what this backward did to .grad so far
  std::string value;                     // .grad now ("" = None)
  std::string before;                    // .grad before this backward ("" = None)
};

// One step of the engine: what one engine event did (frames[0] is the dependency count).
struct EngineFrame {
  size_t event = 0;  // the event that made this frame
  EngineStepKind kind = EngineStepKind::Counted;
  uint64_t node = 0;      // the node the step is about (not for Counted)
  uint64_t from = 0;      // Arrived: the node that sent the gradient
  uint32_t input_nr = 0;  // Arrived: which input of `node`
  int deps_left = 0;      // Arrived: gradients `node` still awaits
  std::string value;      // Arrived: the buffer's running sum; GradWritten/Added: .grad after
  uint64_t tensor = 0;    // GradWritten/Added: the leaf tensor
};

struct BackwardRun;

// Everything after the first k+1 frames of a run (Note [Engine frames]). Frames record only
// what changed, so a state is rebuilt by replay: engine_state(run, k), or advance() one frame
// at a time when walking them all.
struct EngineState {
  size_t frame = 0;
  std::vector<EngineNodeView> nodes;                  // parallel to BackwardRun::nodes
  std::vector<uint64_t> ready;                        // the ready queue, the node to run next first
  std::vector<std::vector<bool>> sent;                // per node, per next edge: it has carried its gradient
  std::optional<std::pair<uint64_t, uint32_t>> edge;  // (from, slot) of this frame's Arrived
  std::vector<LeafGradView> grads;                    // parallel to BackwardRun::leaves
  size_t delivered() const;                           // edges that have carried a gradient
};

struct BackwardRun {
  size_t begin_event = 0;
  size_t end_event = SIZE_MAX;  // SIZE_MAX when the End was not recorded
  uint64_t root_tensor = 0;
  std::vector<AutogradNode> nodes;           // as listed by the "autograd graph" event
  std::vector<int> deps;                     // dependency counts, parallel to nodes
  std::vector<AutogradLeaf> leaves;          // leaves of the AccumulateGrad nodes, in node order
  std::vector<std::string> grad_before;      // each leaf's .grad when the backward began ("" = None)
  std::vector<EngineFrame> frames;           // Note [Engine frames]; never empty
  std::optional<uint64_t> failed_node;       // the node whose backward function raised an error
  size_t node_index(uint64_t id) const;      // npos when absent
  size_t leaf_index(uint64_t tensor) const;  // npos when absent
};

// The state after frames[0..k] (k is clamped to the last frame).
EngineState engine_state(const BackwardRun& run, size_t k);
// Applies the next frame (s.frame + 1) to `s`; false when s is at the last frame.
bool advance(const BackwardRun& run, EngineState& s);

// The backwards that begin in events[first, last), in order.
std::vector<BackwardRun> backward_runs(const std::vector<trace::Event>& events, size_t first = 0,
                                       size_t last = SIZE_MAX);

// The frame a selected event belongs to: the last frame made at or before `event` (0 when the
// event precedes the engine's first step).
size_t frame_at_event(const BackwardRun& run, size_t event);

// The graph as Graphviz DOT: backward nodes as boxes named like PyTorch's name(), AccumulateGrad
// as green octagons, leaf tensors as blue ellipses with their id and values, edges labelled
// with input_nr, and a dashed ".grad" edge from each AccumulateGrad to its leaf.
std::string to_dot(const AutogradGraph& g);

// "AccumulateGrad" for "torch::autograd::AccumulateGrad"; other names unchanged.
std::string short_node_name(const std::string& name);

// The tensor's elements (through sizes, strides and offset) as "[[0, 1, 2], [3, 4, 5]]",
// at most `max_elems` of them ("..." after); "?" when the values were not recorded.
std::string tensor_preview(const trace::TensorMeta& m, size_t max_elems = 6);
// "(2, 3)"; "()" for a 0-d tensor.
std::string sizes_text(std::span<const int64_t> sizes);

}  // namespace ipt::views
