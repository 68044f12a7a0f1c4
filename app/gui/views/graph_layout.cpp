// The Graph view's layout: Graphviz's dot, or a plain layering (graph_layout.h).
#include "app/gui/views/graph_layout.h"

#include <algorithm>
#include <cstdio>
#include <string>

#ifdef IPT_HAVE_GRAPHVIZ
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#endif

namespace ipt::gui::graph {

ImVec2 bezier_at(ImVec2 a, ImVec2 b, ImVec2 c, ImVec2 d, float t) {
  const float u = 1 - t, w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t;
  return ImVec2(w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x, w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y);
}

// The input_nr label beside the middle of the edge's path.
void mid_label(EdgeShape& s) {
  if (s.pts.size() < 4) return;
  const size_t segs = (s.pts.size() - 1) / 3;
  const float t = segs * 0.5f;
  const size_t k = std::min(segs - 1, static_cast<size_t>(t));
  const ImVec2 m =
      bezier_at(s.pts[3 * k], s.pts[3 * k + 1], s.pts[3 * k + 2], s.pts[3 * k + 3], t - static_cast<float>(k));
  s.label = ImVec2(m.x + 8, m.y);
}

#ifdef IPT_HAVE_GRAPHVIZ
// Note [Graph layout]. Runs on a worker thread, one job at a time (Graphviz keeps global
// state). Returns a layout with graphviz == false when Graphviz cannot lay the graph out.
Layout graphviz_layout(const LayoutInput& in) {
  Layout out;
  static GVC_t* gvc = [] {
    agseterr(AGERR);  // no warnings on stderr
    return gvContext();
  }();
  if (!gvc) return out;
  // Edges carry no labels: Graphviz's edge labels add ranks and make dot many times slower on
  // graphs with long edges; the view puts input_nr beside each edge's middle itself.
  std::string dot =
      "digraph g { graph [rankdir=TB, nodesep=0.3, ranksep=0.42, ordering=out];\n"
      "node [shape=box, fixedsize=true, label=\"\"];\n";
  char buf[256];
  for (size_t i = 0; i < in.sizes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "i%zu [width=%.4f, height=%.4f];\n", i, in.sizes[i].x / 72.0, in.sizes[i].y / 72.0);
    dot += buf;
  }
  for (size_t k = 0; k < in.edges.size(); ++k) {
    std::snprintf(buf, sizeof buf, "i%zu -> i%zu [ipt=\"e%zu\"];\n", in.edges[k].first, in.edges[k].second, k);
    dot += buf;
  }
  for (size_t k = 0; k < in.leaf_edges.size(); ++k) {
    std::snprintf(buf, sizeof buf, "i%zu -> i%zu [ipt=\"l%zu\"];\n", in.leaf_edges[k].first, in.leaf_edges[k].second,
                  k);
    dot += buf;
  }
  dot += "}\n";
  Agraph_t* G = agmemread(dot.c_str());
  if (!G) return out;
  if (gvLayout(gvc, G, "dot") != 0) {
    agclose(G);
    return out;
  }
  out.centers.resize(in.sizes.size());
  out.edges.resize(in.edges.size());
  out.leaf_edges.resize(in.leaf_edges.size());
  const boxf bb = GD_bb(G);
  auto conv = [&](pointf p) { return ImVec2(static_cast<float>(p.x - bb.LL.x), static_cast<float>(bb.UR.y - p.y)); };
  for (Agnode_t* n = agfstnode(G); n; n = agnxtnode(G, n)) {
    size_t i = 0;
    if (std::sscanf(agnameof(n), "i%zu", &i) == 1 && i < out.centers.size()) out.centers[i] = conv(ND_coord(n));
    for (Agedge_t* e = agfstout(G, n); e; e = agnxtout(G, e)) {
      const char* id = agget(e, const_cast<char*>("ipt"));
      if (!id || !ED_spl(e) || ED_spl(e)->size < 1) continue;
      size_t k = 0;
      if (std::sscanf(id + 1, "%zu", &k) != 1) continue;
      EdgeShape* s = id[0] == 'e' && k < out.edges.size()        ? &out.edges[k]
                     : id[0] == 'l' && k < out.leaf_edges.size() ? &out.leaf_edges[k]
                                                                 : nullptr;
      if (!s) continue;
      const bezier& bz = ED_spl(e)->list[0];
      for (int j = 0; j < bz.size; ++j) s->pts.push_back(conv(bz.list[j]));
      s->arrow = bz.eflag != 0;
      s->tip = bz.eflag ? conv(bz.ep) : s->pts.back();
      mid_label(*s);
    }
  }
  out.size = ImVec2(static_cast<float>(bb.UR.x - bb.LL.x), static_cast<float>(bb.UR.y - bb.LL.y));
  out.graphviz = true;
  gvFreeLayout(gvc, G);
  agclose(G);
  return out;
}
#endif

// Without Graphviz (or until its layout is ready): rank = longest path from a root, boxes
// side by side in each rank, straight edges.
Layout fallback_layout(const LayoutInput& in) {
  Layout out;
  const size_t n = in.sizes.size();
  std::vector<int> rank(n, 0);
  for (size_t pass = 0; pass < n; ++pass) {  // Bellman-Ford style: graphs are DAGs
    bool changed = false;
    for (const auto* list : {&in.edges, &in.leaf_edges})
      for (const auto& [a, b] : *list)
        if (rank[b] < rank[a] + 1) rank[b] = rank[a] + 1, changed = true;
    if (!changed) break;
  }
  const int ranks = n == 0 ? 0 : *std::max_element(rank.begin(), rank.end()) + 1;
  std::vector<float> row_w(ranks, 0), row_h(ranks, 0);
  const float gap_x = 22, gap_y = 34;
  for (size_t i = 0; i < n; ++i) {
    row_w[rank[i]] += in.sizes[i].x + (row_w[rank[i]] > 0 ? gap_x : 0);
    row_h[rank[i]] = std::max(row_h[rank[i]], in.sizes[i].y);
  }
  const float width = ranks ? *std::max_element(row_w.begin(), row_w.end()) : 0;
  std::vector<float> x(ranks), y(ranks);
  float yy = 0;
  for (int r = 0; r < ranks; ++r) x[r] = (width - row_w[r]) / 2, y[r] = yy, yy += row_h[r] + gap_y;
  out.centers.resize(n);
  for (size_t i = 0; i < n; ++i) {
    out.centers[i] = ImVec2(x[rank[i]] + in.sizes[i].x / 2, y[rank[i]] + row_h[rank[i]] / 2);
    x[rank[i]] += in.sizes[i].x + gap_x;
  }
  auto straight = [&](size_t a, size_t b) {
    EdgeShape s;
    const ImVec2 p0(out.centers[a].x, out.centers[a].y + in.sizes[a].y / 2);
    const ImVec2 p3(out.centers[b].x, out.centers[b].y - in.sizes[b].y / 2);
    const float dy = (p3.y - p0.y) * 0.4f;
    s.pts = {p0, ImVec2(p0.x, p0.y + dy), ImVec2(p3.x, p3.y - dy), p3};
    s.tip = p3;
    mid_label(s);
    return s;
  };
  for (const auto& [a, b] : in.edges) out.edges.push_back(straight(a, b));
  for (const auto& [a, b] : in.leaf_edges) out.leaf_edges.push_back(straight(a, b));
  out.size = ImVec2(width, std::max(0.0f, yy - gap_y));
  return out;
}

}  // namespace ipt::gui::graph
