// The autograd graph and engine frames from recorded events. See autograd_model.h.
//
// [SECTION] index
//   helpers     numbers from text, tensor values as text
//   graph       nodes from "node created" / "autograd graph", the scope of a range, closure
//   runs        one BackwardRun per "backward" slice, replayed into frames
//   dot         Graphviz DOT export
#include "core/views/autograd_model.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <deque>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace ipt::views {

namespace {

constexpr size_t npos = static_cast<size_t>(-1);
constexpr const char* kAccumulateName = "torch::autograd::AccumulateGrad";

// [SECTION] helpers ------------------------------------------------------------------------

// The engine's step an event records, if it is one (Unknown when not).
trace::EngineAction engine_action(const trace::Event& e) {
  if (e.category != trace::Category::Autograd) return trace::EngineAction::Unknown;
  const auto* x = std::get_if<trace::EngineStep>(&e.payload);
  return x ? x->action : trace::EngineAction::Unknown;
}

// The Begin of a run of the backward engine ("backward").
bool is_run_begin(const trace::Event& e) {
  return e.category == trace::Category::Autograd && e.phase == trace::Phase::Begin &&
         std::holds_alternative<trace::EngineRun>(e.payload);
}

std::string number_text(double v, const char* dtype) {
  if (std::strcmp(dtype, "bool") == 0) return v != 0 ? "True" : "False";
  std::ostringstream o;
  o << v;  // the engine's "sum" previews use the same default formatting
  return o.str();
}

void preview_rec(const trace::TensorMeta& m, size_t dim, int64_t off, size_t& count, size_t max, std::string& out,
                 bool& stop) {
  if (dim == m.sizes.size()) {
    if (off < 0 || static_cast<size_t>(off) >= m.storage_values.size()) out += "?";
    else out += number_text(m.storage_values[static_cast<size_t>(off)], m.dtype);
    ++count;
    return;
  }
  out += "[";
  const int64_t stride = dim < m.strides.size() ? m.strides[dim] : 0;
  for (int64_t i = 0; i < m.sizes[dim]; ++i) {
    if (i) out += ", ";
    if (count >= max) {
      out += "...";
      stop = true;
      break;
    }
    preview_rec(m, dim + 1, off + i * stride, count, max, out, stop);
    if (stop) break;
  }
  out += "]";
}

// Latest TensorMeta event index per tensor id, as events are walked forward.
using MetaIndex = std::unordered_map<uint64_t, size_t>;

const trace::TensorMeta* meta_at(const std::vector<trace::Event>& events, const MetaIndex& idx, uint64_t tensor) {
  auto it = idx.find(tensor);
  return it == idx.end() ? nullptr : std::get_if<trace::TensorMeta>(&events[it->second].payload);
}

// [SECTION] graph --------------------------------------------------------------------------

// Everything known about nodes from events[0, last).
struct NodeBook {
  std::unordered_map<uint64_t, AutogradNode> nodes;
  std::unordered_map<uint64_t, std::string> leaf_value, leaf_sizes;  // by leaf tensor id
  std::vector<uint64_t> created_in_range;                            // node ids created in [first, last)
  std::vector<uint64_t> run_nodes_in_range;                          // nodes of backwards beginning in [first, last)
  std::optional<uint64_t> last_created_before;                       // newest node created before `first`
};

AutogradNode& ensure(NodeBook& b, uint64_t id) {
  auto [it, fresh] = b.nodes.try_emplace(id);
  if (fresh) it->second.id = id;
  return it->second;
}

void note_leaf(NodeBook& b, const std::vector<trace::Event>& events, const MetaIndex& metas, uint64_t acc,
               uint64_t tensor, size_t event) {
  AutogradNode& n = ensure(b, acc);
  n.accumulate = true;
  if (n.name.empty()) n.name = kAccumulateName;
  n.leaf = tensor;
  if (!n.created_event) n.created_event = event;
  if (!b.leaf_value.count(tensor))
    if (const auto* m = meta_at(events, metas, tensor)) {
      b.leaf_value[tensor] = tensor_preview(*m);
      b.leaf_sizes[tensor] = sizes_text(m->sizes);
    }
}

// The nodes of one "autograd graph" event, in order, with their dependency counts.
std::vector<std::pair<AutogradNode, int>> graph_nodes(const trace::GraphNodes& g) {
  std::vector<std::pair<AutogradNode, int>> out;
  for (const trace::GraphNode& d : g.nodes) {
    AutogradNode n;
    n.id = d.node;
    n.name = d.name;
    n.seq = d.seq;
    n.accumulate = n.name == kAccumulateName;
    n.next = d.next;
    for (const auto& l : d.leaves)
      if (l.node == d.node) n.leaf = l.tensor;
    out.emplace_back(std::move(n), d.deps);
  }
  return out;
}

NodeBook read_nodes(const std::vector<trace::Event>& events, size_t first, size_t last) {
  NodeBook b;
  MetaIndex metas;
  // Outputs whose snapshot is expected right after "node created": tensor id -> node id.
  std::unordered_map<uint64_t, uint64_t> pending_output;
  for (size_t i = 0; i < last; ++i) {
    const trace::Event& e = events[i];
    if (const auto* m = std::get_if<trace::TensorMeta>(&e.payload)) {
      metas[m->tensor_id] = i;
      auto p = pending_output.find(m->tensor_id);
      if (p != pending_output.end()) {
        ensure(b, p->second).output_value = tensor_preview(*m);
        pending_output.erase(p);
      }
      continue;
    }
    if (e.category != trace::Category::Autograd || e.phase != trace::Phase::Instant) continue;
    // "node created": the one event whose payload is a single GraphNode.
    if (const auto* d = std::get_if<trace::GraphNode>(&e.payload)) {
      AutogradNode& n = ensure(b, d->node);
      n.name = d->name;
      n.seq = d->seq;
      n.next = d->next;
      n.created_event = i;
      n.accumulate = n.name == kAccumulateName;
      if (d->output_tensor) {
        n.output = d->output_tensor;
        pending_output[d->output_tensor] = d->node;
        // Until the snapshot after the call arrives, the latest one before it.
        if (const auto* m = meta_at(events, metas, d->output_tensor)) n.output_value = tensor_preview(*m);
      }
      for (const auto& l : d->leaves) note_leaf(b, events, metas, l.node, l.tensor, i);
      if (i >= first) b.created_in_range.push_back(d->node);
      else b.last_created_before = d->node;
    } else if (const auto* g = std::get_if<trace::GraphNodes>(&e.payload)) {
      for (auto& [n, deps] : graph_nodes(*g)) {
        AutogradNode& k = ensure(b, n.id);
        if (k.name.empty()) k.name = n.name;
        if (!k.created_event || k.accumulate) k.seq = n.seq;
        k.accumulate = k.accumulate || n.accumulate;
        if (k.next.empty()) k.next = n.next;
        if (n.leaf) note_leaf(b, events, metas, n.id, *n.leaf, k.created_event.value_or(i));
        if (i >= first) b.run_nodes_in_range.push_back(n.id);
      }
    }
  }
  return b;
}

}  // namespace

const AutogradNode* AutogradGraph::find(uint64_t id) const {
  size_t i = index_of(id);
  return i == npos ? nullptr : &nodes[i];
}

size_t AutogradGraph::index_of(uint64_t id) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].id == id) return i;
  return npos;
}

AutogradGraph autograd_graph(const std::vector<trace::Event>& events, size_t first, size_t last, size_t max_nodes) {
  last = std::min(last, events.size());
  first = std::min(first, last);
  NodeBook b = read_nodes(events, first, last);
  AutogradGraph g;
  std::vector<uint64_t> seeds = b.created_in_range;
  seeds.insert(seeds.end(), b.run_nodes_in_range.begin(), b.run_nodes_in_range.end());
  if (seeds.empty() && b.last_created_before) {
    seeds.push_back(*b.last_created_before);
    g.from_earlier_step = true;
  }
  if (seeds.empty()) return g;

  // Roots: seeds that no other seed's closure points at; simplest: walk every seed, newest
  // first, so the last output (the usual root) comes first and its children follow in order.
  std::set<uint64_t> seed_set(seeds.begin(), seeds.end());
  std::set<uint64_t> pointed;
  for (uint64_t s : seed_set)
    if (auto it = b.nodes.find(s); it != b.nodes.end())
      for (const auto& e : it->second.next)
        if (e.valid) pointed.insert(e.node);
  std::vector<uint64_t> order(seed_set.begin(), seed_set.end());
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t c) {
    const bool ra = !pointed.count(a), rc = !pointed.count(c);
    if (ra != rc) return ra;  // roots first
    return a > c;             // then newest first
  });

  std::set<uint64_t> seen;
  std::deque<uint64_t> queue;
  for (uint64_t s : order) {
    if (!seen.insert(s).second) continue;
    queue.push_back(s);
    while (!queue.empty()) {
      uint64_t id = queue.front();
      queue.pop_front();
      if (g.nodes.size() >= max_nodes) {
        g.truncated = true;
        break;
      }
      AutogradNode n;
      if (auto it = b.nodes.find(id); it != b.nodes.end()) n = it->second;
      n.id = id;
      if (n.name.empty()) n.name = "Node";
      for (const auto& e : n.next)
        if (e.valid && seen.insert(e.node).second) queue.push_back(e.node);
      g.nodes.push_back(std::move(n));
    }
    if (g.truncated) break;
  }
  for (const auto& n : g.nodes) {
    for (uint32_t s = 0; s < n.next.size(); ++s) {
      const auto& e = n.next[s];
      if (e.valid && g.index_of(e.node) != npos) g.edges.push_back({n.id, e.node, e.input_nr, s});
    }
    if (n.accumulate && n.leaf) {
      AutogradLeaf l;
      l.tensor = *n.leaf;
      l.accumulate_node = n.id;
      if (auto it = b.leaf_value.find(*n.leaf); it != b.leaf_value.end()) l.value = it->second;
      if (auto it = b.leaf_sizes.find(*n.leaf); it != b.leaf_sizes.end()) l.sizes = it->second;
      g.leaves.push_back(std::move(l));
    }
  }
  return g;
}

// [SECTION] runs ---------------------------------------------------------------------------

size_t BackwardRun::node_index(uint64_t id) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].id == id) return i;
  return npos;
}

size_t BackwardRun::leaf_index(uint64_t tensor) const {
  for (size_t i = 0; i < leaves.size(); ++i)
    if (leaves[i].tensor == tensor) return i;
  return npos;
}

namespace {

EngineFrame raw(size_t event, EngineStepKind kind) {
  EngineFrame s;
  s.event = event;
  s.kind = kind;
  return s;
}

uint64_t priority(const AutogradNode& n) { return n.seq < 0 ? UINT64_MAX : static_cast<uint64_t>(n.seq); }

}  // namespace

size_t EngineState::delivered() const {
  size_t n = 0;
  for (const auto& v : sent) n += static_cast<size_t>(std::count(v.begin(), v.end(), true));
  return n;
}

bool advance(const BackwardRun& run, EngineState& st) {
  if (st.frame + 1 >= run.frames.size()) return false;
  const EngineFrame& s = run.frames[++st.frame];
  st.edge.reset();
  const size_t ni = run.node_index(s.node);
  switch (s.kind) {
    case EngineStepKind::Ready: {
      if (ni != npos) st.nodes[ni].state = EngineNodeState::Ready;
      // The ready queue: highest sequence number first (AccumulateGrad highest of all), then
      // the order in which nodes became ready.
      const uint64_t p = ni == npos ? 0 : priority(run.nodes[ni]);
      auto at = std::find_if(st.ready.begin(), st.ready.end(), [&](uint64_t id) {
        const size_t k = run.node_index(id);
        return (k == npos ? 0 : priority(run.nodes[k])) < p;
      });
      st.ready.insert(at, s.node);
      break;
    }
    case EngineStepKind::Arrived: {
      if (ni != npos) {
        EngineNodeView& v = st.nodes[ni];
        v.deps_left = s.deps_left;
        v.received += 1;
        auto it = std::find_if(v.buffer.begin(), v.buffer.end(), [&](const auto& b) { return b.first == s.input_nr; });
        if (it == v.buffer.end()) v.buffer.emplace_back(s.input_nr, s.value);
        else it->second = s.value;
        std::sort(v.buffer.begin(), v.buffer.end());
      }
      // The edge that carried it: the sender's first unused next edge to (node, input_nr).
      const size_t fi = run.node_index(s.from);
      if (fi != npos) {
        const auto& next = run.nodes[fi].next;
        for (uint32_t k = 0; k < next.size(); ++k)
          if (!st.sent[fi][k] && next[k].valid && next[k].node == s.node && next[k].input_nr == s.input_nr) {
            st.sent[fi][k] = true;
            st.edge = std::make_pair(s.from, k);
            break;
          }
      }
      break;
    }
    case EngineStepKind::Run:
      if (ni != npos) st.nodes[ni].state = EngineNodeState::Running;
      st.ready.erase(std::remove(st.ready.begin(), st.ready.end(), s.node), st.ready.end());
      break;
    case EngineStepKind::Finished:
      if (ni != npos) st.nodes[ni].state = EngineNodeState::Done;
      break;
    case EngineStepKind::Failed:
      if (ni != npos) st.nodes[ni].state = EngineNodeState::Failed;
      break;
    case EngineStepKind::GradWritten:
    case EngineStepKind::GradAdded: {
      const size_t li = run.leaf_index(s.tensor);
      if (li != npos) {
        st.grads[li].action = s.kind == EngineStepKind::GradWritten ? GradAction::Written : GradAction::Added;
        st.grads[li].value = s.value;
      }
      break;
    }
    case EngineStepKind::Counted: break;
  }
  return true;
}

EngineState engine_state(const BackwardRun& run, size_t k) {
  EngineState st;
  st.nodes.resize(run.nodes.size());
  st.sent.resize(run.nodes.size());
  for (size_t i = 0; i < run.nodes.size(); ++i) {
    st.nodes[i].deps_left = i < run.deps.size() ? run.deps[i] : 0;
    st.sent[i].assign(run.nodes[i].next.size(), false);
  }
  st.grads.resize(run.leaves.size());
  for (size_t i = 0; i < run.leaves.size(); ++i) {
    st.grads[i].tensor = run.leaves[i].tensor;
    st.grads[i].value = st.grads[i].before = i < run.grad_before.size() ? run.grad_before[i] : std::string();
  }
  while (st.frame < k && advance(run, st)) {}
  return st;
}

namespace {

BackwardRun read_run(const std::vector<trace::Event>& events, size_t begin, const MetaIndex& metas_before,
                     const std::unordered_map<uint64_t, uint64_t>& grad_tensor_before) {
  BackwardRun run;
  run.begin_event = begin;
  if (const auto* r = std::get_if<trace::EngineRun>(&events[begin].payload)) run.root_tensor = r->root_tensor;
  MetaIndex metas = metas_before;
  std::vector<EngineFrame> steps;
  std::vector<uint64_t> running;        // node slices open (one at a time in this engine)
  std::optional<size_t> last_finished;  // index into steps of the last Finished
  bool graph_seen = false;
  int depth = 0;  // node slices open inside the run
  for (size_t i = begin + 1; i < events.size(); ++i) {
    const trace::Event& e = events[i];
    if (const auto* m = std::get_if<trace::TensorMeta>(&e.payload)) {
      metas[m->tensor_id] = i;
      continue;
    }
    if (e.category != trace::Category::Autograd) continue;
    // Node slices nest inside the run's slice; the End at depth 0 closes the run.
    if (e.phase == trace::Phase::End && depth == 0) {
      run.end_event = i;
      break;
    }
    if (is_run_begin(e)) break;  // a new backward without an End: stop here
    if (e.phase == trace::Phase::Begin) ++depth;
    if (e.phase == trace::Phase::End) --depth;
    const auto* x = std::get_if<trace::EngineStep>(&e.payload);
    if (e.phase == trace::Phase::Instant) {
      if (const auto* g = std::get_if<trace::GraphNodes>(&e.payload)) {
        if (graph_seen) continue;
        graph_seen = true;
        for (auto& [n, deps] : graph_nodes(*g)) {
          run.nodes.push_back(std::move(n));
          run.deps.push_back(deps);
        }
        continue;
      }
      if (!x) continue;
      if (x->action == trace::EngineAction::NodeReady) {
        EngineFrame s = raw(i, EngineStepKind::Ready);
        s.node = x->node;
        steps.push_back(std::move(s));
      } else if (x->action == trace::EngineAction::GradArrived) {
        EngineFrame s = raw(i, EngineStepKind::Arrived);
        s.node = x->node;
        s.from = x->from;
        s.input_nr = x->input_nr;
        s.deps_left = x->deps_left;
        s.value = trace::sum_text(*x);
        steps.push_back(std::move(s));
      } else if (x->action == trace::EngineAction::GradWritten || x->action == trace::EngineAction::GradAdded) {
        const bool added = x->action == trace::EngineAction::GradAdded;
        EngineFrame s = raw(i, added ? EngineStepKind::GradAdded : EngineStepKind::GradWritten);
        s.node = x->node;
        s.tensor = x->tensor;
        if (x->grad_tensor)
          if (const auto* m = meta_at(events, metas, x->grad_tensor)) s.value = tensor_preview(*m);
        steps.push_back(std::move(s));
      }
    } else if (e.phase == trace::Phase::Begin && x) {
      EngineFrame s = raw(i, EngineStepKind::Run);
      s.node = x->node;
      running.push_back(x->node);
      steps.push_back(std::move(s));
    } else if (e.phase == trace::Phase::End && !running.empty()) {
      EngineFrame s = raw(i, EngineStepKind::Finished);
      s.node = running.back();
      running.pop_back();
      last_finished = steps.size();
      steps.push_back(std::move(s));
    }
  }
  // Note [Engine frames]: a node that finished, has edges to send along, and sent nothing
  // before the backward ended raised an error.
  if (last_finished && run.end_event != SIZE_MAX) {
    const EngineFrame& fin = steps[*last_finished];
    const size_t ni = run.node_index(fin.node);
    bool has_edges = false;
    if (ni != npos)
      for (const auto& e : run.nodes[ni].next) has_edges = has_edges || e.valid;
    bool sent = false;
    for (size_t k = *last_finished + 1; k < steps.size(); ++k) sent = sent || steps[k].kind == EngineStepKind::Arrived;
    if (has_edges && !sent) {
      steps[*last_finished].kind = EngineStepKind::Failed;
      run.failed_node = fin.node;
    }
  }
  // Leaves, with their values and their .grad, as they were when this backward began.
  for (const auto& n : run.nodes) {
    if (!n.accumulate || !n.leaf) continue;
    AutogradLeaf l;
    l.tensor = *n.leaf;
    l.accumulate_node = n.id;
    if (const auto* m = meta_at(events, metas_before, l.tensor)) {
      l.value = tensor_preview(*m);
      l.sizes = sizes_text(m->sizes);
    }
    std::string before;
    if (auto g = grad_tensor_before.find(*n.leaf); g != grad_tensor_before.end())
      if (const auto* m = meta_at(events, metas_before, g->second)) before = tensor_preview(*m);
    run.grad_before.push_back(std::move(before));
    run.leaves.push_back(std::move(l));
  }
  run.frames.push_back(raw(begin, EngineStepKind::Counted));
  for (auto& f : steps) run.frames.push_back(std::move(f));
  return run;
}

}  // namespace

std::vector<BackwardRun> backward_runs(const std::vector<trace::Event>& events, size_t first, size_t last) {
  last = std::min(last, events.size());
  std::vector<BackwardRun> runs;
  MetaIndex metas;
  std::unordered_map<uint64_t, uint64_t> grad_tensor;  // leaf tensor -> its .grad tensor, so far
  for (size_t i = 0; i < last; ++i) {
    const trace::Event& e = events[i];
    if (const auto* m = std::get_if<trace::TensorMeta>(&e.payload)) {
      metas[m->tensor_id] = i;
      continue;
    }
    if (e.category != trace::Category::Autograd) continue;
    const trace::EngineAction action = engine_action(e);
    if (action == trace::EngineAction::GradWritten || action == trace::EngineAction::GradAdded) {
      const auto& x = std::get<trace::EngineStep>(e.payload);
      if (x.tensor && x.grad_tensor) grad_tensor[x.tensor] = x.grad_tensor;
    } else if (i >= first && is_run_begin(e)) {
      runs.push_back(read_run(events, i, metas, grad_tensor));
    }
  }
  return runs;
}

size_t frame_at_event(const BackwardRun& run, size_t event) {
  size_t k = 0;
  for (size_t i = 0; i < run.frames.size(); ++i)
    if (run.frames[i].event <= event) k = i;
  return k;
}

// [SECTION] dot ----------------------------------------------------------------------------

namespace {

std::string dot_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (c == '\n') {
      o += "\\n";
      continue;
    }
    o += c;
  }
  return o;
}

}  // namespace

// The C++-named nodes (torch::autograd::AccumulateGrad, ::CopySlices) by their class name.
std::string short_node_name(const std::string& name) {
  const std::string prefix = "torch::autograd::";
  return name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
}

std::string to_dot(const AutogradGraph& g) {
  std::ostringstream o;
  o << "// The autograd graph recorded by Inside PyTorch. Edges point the way gradients flow:\n"
       "// from a node to its next_functions, labelled with input_nr.\n"
       "digraph autograd {\n"
       "  graph [rankdir=TB, ordering=out, nodesep=0.3, ranksep=0.45, fontname=\"Helvetica\"];\n"
       "  node [fontname=\"Helvetica\", fontsize=11];\n"
       "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#555555\"];\n";
  for (const auto& n : g.nodes) {
    std::string label = short_node_name(n.name);
    if (n.output)
      label += "\nout #" + std::to_string(*n.output) + (n.output_value.empty() ? "" : " = " + n.output_value);
    o << "  n" << n.id << " [label=\"" << dot_escape(label) << "\", tooltip=\"" << dot_escape(n.name)
      << (n.seq >= 0 ? " seq " + std::to_string(n.seq) : std::string()) << "\", ";
    if (n.accumulate) o << "shape=octagon, style=filled, fillcolor=\"#d5f0d0\", color=\"#3f8f3a\"];\n";
    else o << "shape=box, style=\"rounded,filled\", fillcolor=\"#e6e9f0\", color=\"#5a6378\"];\n";
  }
  for (const auto& l : g.leaves) {
    std::string label = "leaf #" + std::to_string(l.tensor);
    if (!l.sizes.empty()) label += " " + l.sizes;
    if (!l.value.empty()) label += "\n" + l.value;
    o << "  t" << l.tensor << " [label=\"" << dot_escape(label)
      << "\", shape=ellipse, style=filled, fillcolor=\"#cfe6ff\", color=\"#3f7fbf\"];\n";
  }
  for (const auto& e : g.edges) o << "  n" << e.from << " -> n" << e.to << " [label=\"" << e.input_nr << "\"];\n";
  for (const auto& l : g.leaves)
    o << "  n" << l.accumulate_node << " -> t" << l.tensor
      << " [style=dashed, color=\"#3f7fbf\", label=\".grad\", fontcolor=\"#3f7fbf\"];\n";
  o << "}\n";
  return o.str();
}

std::string tensor_preview(const trace::TensorMeta& m, size_t max_elems) {
  if (m.storage_values.empty()) {
    int64_t numel = 1;
    for (int64_t s : m.sizes) numel *= s;
    if (numel == 0) return "[]";
    return "?";
  }
  std::string out;
  size_t count = 0;
  bool stop = false;
  preview_rec(m, 0, m.storage_offset, count, std::max<size_t>(1, max_elems), out, stop);
  return out;
}

std::string sizes_text(std::span<const int64_t> sizes) {
  std::string s = "(";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + ")";
}

}  // namespace ipt::views
