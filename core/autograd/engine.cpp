// Note [How the engine runs a graph]
// 1. Dependencies first: walk the graph from the root's grad_fn and count, for every node,
//    how many edges point at it (how many gradients it must wait for).
// 2. The root's input buffer gets the initial gradient (ones for a scalar), and the root is
//    ready. The ready queue hands out the ready node with the highest sequence number first
//    (the most recently created forward op; AccumulateGrad nodes have the highest of all).
// 3. Running a node calls its backward function on its input buffer; each returned gradient
//    travels along its edge and is summed into the next node's input buffer. When a node has
//    received all the gradients it waits for, it becomes ready.
// 4. AccumulateGrad writes a leaf's .grad the first time and adds to it later.
// Without retain_graph the nodes free their saved tensors after running.
// Every step is recorded: node ready, gradient arriving (with the running sum), node run,
// .grad written or added — the graph view replays them.
#include "core/autograd/engine.h"

#include <map>
#include <queue>
#include <set>
#include <unordered_map>

#include "core/autograd/node.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/tensor/tensor_trace.h"
#include "core/tensor/index_math.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt::autograd {

namespace {

struct ReadyOrder {
  bool operator()(const Node* a, const Node* b) const { return a->sequence_nr < b->sequence_nr; }
};

// A step of the engine, recorded as an instant (callers check tracing_enabled() first).
// Records one step as an instant named as the action ("node ready", "grad arrived").
void note(const char* name, trace::EngineStep step) {
  trace::Recorder::current().instant(trace::Category::Autograd, name, std::move(step));
}

trace::EngineStep step_of(const Node& n, trace::EngineAction action) {
  trace::EngineStep s;
  s.node = n.id;
  s.name = trace::intern(n.name());
  s.action = action;
  return s;
}

// A gradient arriving at `to`'s input `input_nr` from `from`, with the running sum so far.
trace::EngineStep arrival(const Node& to, const Node& from, uint32_t input_nr, int deps_left, const Tensor& sum) {
  trace::EngineStep s = step_of(to, trace::EngineAction::GradArrived);
  s.from = from.id;
  s.input_nr = input_nr;
  s.deps_left = deps_left;
  if (!sum.defined()) {
    s.sum_none = true;
  } else {
    std::vector<double> v = to_double_vector(sum);
    s.sum_truncated = v.size() > trace::kEngineSumValues;
    if (s.sum_truncated) v.resize(trace::kEngineSumValues);
    s.sum = std::move(v);
  }
  return s;
}

// The graph structure, recorded once per backward: every node with its dependency count.
void record_graph(const std::vector<Node*>& nodes, const std::unordered_map<Node*, int>& deps) {
  if (!trace::tracing_enabled()) return;
  trace::GraphNodes g;
  g.nodes.reserve(nodes.size());
  for (Node* n : nodes) {
    trace::GraphNode d;
    d.node = n->id;
    d.name = trace::intern(n->name());
    d.seq = n->sequence_nr == UINT64_MAX ? -1 : static_cast<int64_t>(n->sequence_nr);
    d.deps = deps.at(n);
    for (const Edge& e : n->next_edges)
      d.next.push_back(e.valid() ? trace::NextEdge{true, e.fn->id, e.input_nr} : trace::NextEdge{});
    if (auto* acc = dynamic_cast<AccumulateGrad*>(n))
      if (auto v = acc->variable()) d.leaves.push_back({n->id, v->id()});
    g.nodes.push_back(std::move(d));
  }
  trace::Recorder::current().instant(trace::Category::Autograd, "autograd graph", std::move(g));
}

// Tensor.register_hook: the hooks of the tensors whose gradients are arriving at `n` (its
// outputs', or for an AccumulateGrad its leaf's) see them first and may replace them.
void run_grad_hooks(Node& n, std::vector<Tensor>& inputs) {
  auto run = [](const GradHook& hook, Tensor& grad) {
    if (!grad.defined()) return;
    Tensor r = hook(grad);
    if (r.defined()) grad = r;
  };
  for (const auto& [nr, hook] : n.pre_hooks)
    if (nr < inputs.size()) run(hook, inputs[nr]);
  if (auto* acc = dynamic_cast<AccumulateGrad*>(&n))
    if (auto leaf = acc->variable(); leaf && find_autograd_meta(*leaf) && !inputs.empty())
      for (const GradHook& hook : std::vector<GradHook>(find_autograd_meta(*leaf)->leaf_hooks)) run(hook, inputs[0]);
}

}  // namespace

namespace {

// Runs the graph from `roots` (edge, initial gradient). With `capture`, this is
// autograd.grad(): the gradient arriving at each capture edge is returned instead of being
// accumulated, and no AccumulateGrad node runs (no .grad is touched).
std::vector<Tensor> execute(const std::vector<std::pair<Edge, Tensor>>& roots, bool retain_graph, bool create_graph,
                            const std::vector<Edge>* capture, trace::EngineRun run) {
  // Backward functions are not themselves recorded, unless the gradients are to be
  // differentiated again (create_graph).
  GradModeGuard grad_mode(create_graph);
  std::vector<Tensor> captured(capture ? capture->size() : 0);
  if (trace::tracing_enabled()) trace::Recorder::current().begin(trace::Category::Autograd, "backward", std::move(run));

  // 1. Count dependencies.
  std::unordered_map<Node*, int> deps;
  std::vector<Node*> order;
  std::vector<Node*> stack;
  std::set<Node*> seen;
  for (const auto& [edge, g] : roots)
    if (seen.insert(edge.fn.get()).second) {
      stack.push_back(edge.fn.get());
      deps[edge.fn.get()] = 0;
    }
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    order.push_back(n);
    for (const Edge& e : n->next_edges) {
      if (!e.valid()) continue;
      deps[e.fn.get()] += 1;
      if (seen.insert(e.fn.get()).second) stack.push_back(e.fn.get());
    }
  }
  record_graph(order, deps);

  // 2. Input buffers and the ready queue.
  std::unordered_map<Node*, std::vector<Tensor>> buffers;
  std::priority_queue<Node*, std::vector<Node*>, ReadyOrder> ready;
  for (const auto& [edge, g] : roots) {
    auto& buf = buffers[edge.fn.get()];
    if (buf.empty()) buf.resize(edge.fn->num_outputs());
    buf[edge.input_nr] = buf[edge.input_nr].defined() ? ops::add_Tensor(buf[edge.input_nr], g) : g;
  }
  for (Node* n : order)
    if (deps[n] == 0 && buffers.count(n)) {
      ready.push(n);
      if (trace::tracing_enabled()) note("node ready", step_of(*n, trace::EngineAction::NodeReady));
    }

  // 3. Run nodes as they become ready.
  while (!ready.empty()) {
    Node* n = ready.top();
    ready.pop();
    std::vector<Tensor> inputs = std::move(buffers[n]);
    buffers.erase(n);
    if (capture) {
      bool is_target = false;
      for (size_t k = 0; k < capture->size(); ++k)
        if ((*capture)[k].fn.get() == n) {
          is_target = true;
          if ((*capture)[k].input_nr < inputs.size()) captured[k] = inputs[(*capture)[k].input_nr];
        }
      if (is_target || dynamic_cast<AccumulateGrad*>(n)) continue;
    }
    run_grad_hooks(*n, inputs);
    // retain_grad(): non-leaf tensors whose gradient is this node's input keep it in .grad.
    for (const auto& [weak, nr] : n->retained) {
      auto impl = weak.lock();
      if (!impl || nr >= inputs.size() || !inputs[nr].defined()) continue;
      AutogradMeta& m = autograd_meta(*impl);
      m.grad = m.grad.defined() ? ops::add_Tensor(m.grad, inputs[nr]) : ops::clone(inputs[nr]);
    }
    if (trace::tracing_enabled()) {
      trace::Recorder::current().begin(trace::Category::Autograd, trace::intern(n->name()),
                                       step_of(*n, trace::EngineAction::NodeRuns));
    }
    std::vector<Tensor> outputs;
    try {
      outputs = n->apply(std::move(inputs));
    } catch (...) {
      if (trace::tracing_enabled()) {
        trace::Recorder::current().end(trace::Category::Autograd, trace::intern(n->name()));
        trace::Recorder::current().end(trace::Category::Autograd, "backward");
      }
      throw;
    }
    if (!retain_graph) n->release_variables();
    if (trace::tracing_enabled()) trace::Recorder::current().end(trace::Category::Autograd, trace::intern(n->name()));
    for (size_t i = 0; i < n->next_edges.size(); ++i) {
      const Edge& e = n->next_edges[i];
      if (!e.valid()) continue;
      Node* next = e.fn.get();
      auto& buf = buffers[next];
      if (buf.empty()) buf.resize(next->num_outputs());
      Tensor grad = i < outputs.size() ? outputs[i] : Tensor();
      if (grad.defined()) buf[e.input_nr] = buf[e.input_nr].defined() ? ops::add_Tensor(buf[e.input_nr], grad) : grad;
      const int left = --deps[next];
      if (trace::tracing_enabled()) note("grad arrived", arrival(*next, *n, e.input_nr, left, buf[e.input_nr]));
      if (left == 0) {
        ready.push(next);
        if (trace::tracing_enabled()) note("node ready", step_of(*next, trace::EngineAction::NodeReady));
      }
    }
  }
  if (trace::tracing_enabled()) trace::Recorder::current().end(trace::Category::Autograd, "backward");
  return captured;
}

void check_root(const Tensor& root, const std::optional<Tensor>& gradient, size_t k) {
  IPT_CHECK(root.requires_grad(), RuntimeError, "element ", k,
            " of tensors does not require grad and does not have a grad_fn");
  if (!gradient) {
    IPT_CHECK(root.numel() == 1, RuntimeError, "grad can be implicitly created only for scalar outputs");
  } else {
    IPT_CHECK(gradient->sizes() == root.sizes(), RuntimeError, "Mismatch in shape: grad_output[", k,
              "] has a shape of torch.Size(", int_list_str(gradient->sizes()), ") and output[", k,
              "] has a shape of torch.Size(", int_list_str(root.sizes()), ").");
  }
}

Tensor initial_gradient(const Tensor& root, const std::optional<Tensor>& gradient) {
  if (gradient) return *gradient;
  NoGradGuard no_grad;
  return ops::ones(root.sizes(), root.dtype(), std::nullopt, root.device());
}

}  // namespace

void backward(const Tensor& root, std::optional<Tensor> gradient, bool retain_graph, bool create_graph) {
  check_root(root, gradient, 0);
  execute({{gradient_edge(root), initial_gradient(root, gradient)}}, retain_graph, create_graph, nullptr,
          trace::EngineRun{root.impl()->id(), "backward"});
}

std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<std::optional<Tensor>>& grad_outputs,
                         const std::vector<Tensor>& inputs, bool retain_graph, bool allow_unused, bool create_graph) {
  std::vector<std::pair<Edge, Tensor>> roots;
  for (size_t k = 0; k < outputs.size(); ++k) {
    std::optional<Tensor> g = k < grad_outputs.size() ? grad_outputs[k] : std::nullopt;
    check_root(outputs[k], g, k);
    roots.emplace_back(gradient_edge(outputs[k]), initial_gradient(outputs[k], g));
  }
  std::vector<Edge> capture;
  for (size_t k = 0; k < inputs.size(); ++k) {
    IPT_CHECK(inputs[k].requires_grad(), RuntimeError, "One of the differentiated Tensors does not require grad");
    capture.push_back(gradient_edge(inputs[k]));
  }
  std::vector<Tensor> result =
      execute(roots, retain_graph, create_graph, &capture, trace::EngineRun{0, "autograd.grad"});
  for (size_t k = 0; k < result.size(); ++k)
    IPT_CHECK(result[k].defined() || allow_unused, RuntimeError,
              "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if "
              "this is the desired behavior.");
  return result;
}

}  // namespace ipt::autograd
