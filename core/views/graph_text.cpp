#include "core/views/graph_text.h"

namespace ipt::views {

std::string buffer_text(const EngineNodeView& v, int total, bool root) {
  if (v.buffer.empty()) return root ? "Σ ← backward()" : "Σ —";
  std::string s = "Σ ";
  for (size_t i = 0; i < v.buffer.size(); ++i) {
    if (v.buffer.size() > 1) s += (i ? "  " : "") + std::string("in") + std::to_string(v.buffer[i].first) + " ";
    s += v.buffer[i].second;
  }
  if (total > 1) s += "  " + std::to_string(v.received) + "/" + std::to_string(total);
  return s;
}

std::string grad_text(const std::string& value) { return ".grad " + (value.empty() ? std::string("None") : value); }

std::string next_functions_text(const AutogradGraph& g, const AutogradNode& n) {
  std::string s = "(";
  for (size_t i = 0; i < n.next.size(); ++i) {
    const auto& e = n.next[i];
    const auto* to = e.valid ? g.find(e.node) : nullptr;
    s += i ? ", " : "";
    s += "(" + (e.valid ? (to ? short_node_name(to->name) : std::string("?")) : std::string("None")) + ", " +
         std::to_string(e.input_nr) + ")";
  }
  return s + (n.next.size() == 1 ? ",)" : ")");
}

std::string output_line(const AutogradNode& n) {
  return "out #" + std::to_string(*n.output) + (n.output_value.empty() ? "" : " = " + n.output_value);
}

std::string leaf_title(const AutogradLeaf& l) {
  return "leaf #" + std::to_string(l.tensor) + (l.sizes.empty() ? "" : " " + l.sizes);
}

std::string node_label(const AutogradGraph& g, uint64_t id) {
  const AutogradNode* n = g.find(id);
  if (!n) return "#" + std::to_string(id);
  if (n->accumulate && n->leaf) return "AccumulateGrad(#" + std::to_string(*n->leaf) + ")";
  return short_node_name(n->name);
}

}  // namespace ipt::views
