#pragma once
// The Graph view's layout (Note [Graph layout] in graph_view.cpp): Graphviz's dot when the
// build found libgvc, a plain layering otherwise. Units are pixels at zoom 1, y down.

#include <imgui.h>

#include <optional>
#include <utility>
#include <vector>

namespace ipt::gui::graph {

struct EdgeShape {
  std::vector<ImVec2> pts;  // cubic bezier: p0, (c1, c2, p)+
  bool arrow = true;
  ImVec2 tip;  // arrowhead tip (Graphviz's end point)
  std::optional<ImVec2> label;
};

// What a layout needs, copied so that it can run on a worker thread.
struct LayoutInput {
  std::vector<ImVec2> sizes;                          // per item
  std::vector<std::pair<size_t, size_t>> edges;       // item indices, parallel to graph.edges
  std::vector<std::pair<size_t, size_t>> leaf_edges;  // AccumulateGrad item -> leaf item
};

struct Layout {
  std::vector<ImVec2> centers;        // per item (zoom 1, y down)
  std::vector<EdgeShape> edges;       // parallel to graph.edges
  std::vector<EdgeShape> leaf_edges;  // parallel to graph.leaves
  ImVec2 size;
  bool graphviz = false;
};

ImVec2 bezier_at(ImVec2 a, ImVec2 b, ImVec2 c, ImVec2 d, float t);
// Puts the input_nr label beside the middle of the edge's path.
void mid_label(EdgeShape& s);
#ifdef IPT_HAVE_GRAPHVIZ
// Runs on a worker thread, one job at a time (Graphviz keeps global state). Returns a layout
// with graphviz == false when Graphviz cannot lay the graph out.
Layout graphviz_layout(const LayoutInput& in);
#endif
// Rank = longest path from a root, boxes side by side in each rank, straight edges.
Layout fallback_layout(const LayoutInput& in);

}  // namespace ipt::gui::graph
