#include "core/views/dispatch_model.h"

#include <algorithm>
#include <map>
#include <span>
#include <sstream>

#include "core/dispatch/dispatch_key_set.h"

namespace ipt::views {

std::vector<DispatchNode> dispatch_forest(const std::vector<trace::Event>& events, size_t first, size_t last) {
  last = std::min(last, events.size());
  std::vector<DispatchNode> roots;
  // Per thread: the stack of open dispatch nodes (pointers into their parents' vectors are
  // unstable, so keep index paths).
  std::map<uint32_t, std::vector<DispatchNode*>> open;
  std::map<uint32_t, std::vector<DispatchNode>> thread_roots;
  for (size_t i = first; i < last; ++i) {
    const trace::Event& e = events[i];
    auto& stack = open[e.tid];
    if (e.category == trace::Category::Dispatch && e.phase == trace::Phase::Begin) {
      const auto* step = std::get_if<trace::DispatchStep>(&e.payload);
      if (!step) continue;
      DispatchNode n;
      n.event_index = i;
      n.step = step;
      std::vector<DispatchNode>& siblings = stack.empty() ? thread_roots[e.tid] : stack.back()->children;
      siblings.push_back(std::move(n));
      stack.push_back(&siblings.back());
    } else if (e.category == trace::Category::Dispatch && e.phase == trace::Phase::End) {
      if (!stack.empty()) stack.pop_back();
    } else if (!stack.empty() && (e.category == trace::Category::Kernel || e.category == trace::Category::Autograd) &&
               e.phase != trace::Phase::End) {
      stack.back()->details.push_back(&e);
    }
  }
  for (auto& [tid, r] : thread_roots)
    for (auto& n : r) roots.push_back(std::move(n));
  std::sort(roots.begin(), roots.end(),
            [](const DispatchNode& a, const DispatchNode& b) { return a.event_index < b.event_index; });
  return roots;
}

static void chain_of(const DispatchNode& n, const char* op, std::vector<const DispatchNode*>& out) {
  out.push_back(&n);
  for (const auto& c : n.children)
    if (c.step->redispatch && std::string_view(c.step->op) == op) {
      chain_of(c, op, out);
      return;
    }
}

std::string redispatch_chain(const DispatchNode& call) {
  std::vector<const DispatchNode*> chain;
  chain_of(call, call.step->op, chain);
  std::string s;
  for (const auto* n : chain) s += (s.empty() ? "" : " -> ") + n->step->chosen.name();
  return s;
}

static void render(const DispatchNode& n, int depth, int max_depth, std::ostringstream& o) {
  std::vector<const DispatchNode*> chain;
  chain_of(n, n.step->op, chain);
  std::string pad(static_cast<size_t>(depth) * 2, ' ');
  o << pad << n.step->op << "  ";
  for (size_t i = 0; i < chain.size(); ++i) {
    const auto* s = chain[i]->step;
    o << (i ? " -> " : "") << s->chosen.name() << " [" << s->kernel_kind;
    if (i + 1 == chain.size()) o << " " << s->kernel;
    o << "]";
  }
  o << "\n";
  if (depth == 0) {
    std::string args;
    for (uint64_t k : n.step->arg_key_sets)
      args += (args.empty() ? "" : ", ") + DispatchKeySet::from_raw(k).to_string();
    if (!args.empty()) o << pad << "    tensor keys: " << args << "\n";
    o << pad << "    merged: " << DispatchKeySet::from_raw(n.step->merged).to_string();
    if (n.step->skipped_fallthrough)
      o << "  (fallthrough skipped: " << DispatchKeySet::from_raw(n.step->skipped_fallthrough).to_string() << ")";
    o << "\n";
  }
  // Details and nested calls of the last step of the chain (the kernel that did the work).
  const DispatchNode* last = chain.back();
  for (const auto* c : chain)
    for (const auto* d : c->details) {
      const trace::Fields* fields = nullptr;
      trace::Fields typed;
      if (const auto* k = std::get_if<trace::KernelDetail>(&d->payload)) fields = &k->fields;
      else if (const auto* g = std::get_if<trace::GraphNode>(&d->payload))
        fields = &(typed = trace::payload_fields(*g));
      else if (const auto* x = std::get_if<trace::EngineStep>(&d->payload))
        fields = &(typed = trace::payload_fields(*x));
      if (fields) {
        o << pad << "    " << d->name << ":";
        for (const auto& [key, v] : *fields) o << " " << key << "=" << v;
        o << "\n";
      } else if (const auto* a = std::get_if<trace::AutogradDecision>(&d->payload)) {
        o << pad << "    " << a->op << ": " << trace::decision_text(*a) << "\n";
      } else if (const auto* t = std::get_if<trace::Text>(&d->payload)) {
        o << pad << "    " << t->text << "\n";
      }
    }
  if (depth + 1 >= max_depth) return;
  for (const auto* c : chain)
    for (const auto& child : c->children)
      if (!(child.step->redispatch && std::string_view(child.step->op) == n.step->op))
        render(child, depth + 1, max_depth, o);
  (void)last;
}

std::string render_dispatch_text(const std::vector<DispatchNode>& roots, int max_depth) {
  std::ostringstream o;
  for (const auto& r : roots) render(r, 0, max_depth, o);
  return o.str();
}

std::vector<const trace::TensorMeta*> tensors_seen(const std::vector<trace::Event>& events, size_t first, size_t last) {
  last = std::min(last, events.size());
  std::vector<uint64_t> order;
  std::map<uint64_t, const trace::TensorMeta*> latest;
  for (size_t i = first; i < last; ++i) {
    const auto* m = std::get_if<trace::TensorMeta>(&events[i].payload);
    if (!m) continue;
    if (!latest.count(m->tensor_id)) order.push_back(m->tensor_id);
    latest[m->tensor_id] = m;
  }
  std::vector<const trace::TensorMeta*> out;
  for (uint64_t id : order) out.push_back(latest[id]);
  return out;
}

static std::string ints(std::span<const int64_t> v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() == 1) s += ",";
  return s + ")";
}

std::string render_tensors_text(const std::vector<const trace::TensorMeta*>& tensors) {
  std::ostringstream o;
  for (const auto* m : tensors) {
    o << "  tensor#" << m->tensor_id << " " << m->dtype << " size=" << ints(m->sizes) << " stride=" << ints(m->strides)
      << " offset=" << m->storage_offset << " -> storage#" << m->storage_id << " (" << m->storage_nbytes << " bytes)";
    if (m->is_view) o << " view";
    o << "\n";
  }
  return o.str();
}

}  // namespace ipt::views
