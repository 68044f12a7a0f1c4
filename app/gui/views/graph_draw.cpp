// The Graph view's shapes (graph_draw.h).
#include "app/gui/views/graph_draw.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

namespace ipt::gui::graph {

// Draws `text` with its top-left at `p`, at `size` px.
void text_at(ImDrawList* dl, ImVec2 p, float size, ImU32 col, const std::string& text) {
  dl->AddText(ImGui::GetFont(), size, p, col, text.c_str());
}

float text_w(const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }

// A small rounded chip with text; returns its width (zoom 1 units times `z`).
float chip(ImDrawList* dl, ImVec2 p, float z, const char* text, ImU32 bg, ImU32 fg) {
  const float fs = ImGui::GetFontSize() * z * 0.85f;
  const float w = ImGui::GetFont()->CalcTextSizeA(fs, FLT_MAX, 0, text).x + 8 * z;
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + fs + 3 * z), bg, 4 * z);
  dl->AddText(ImGui::GetFont(), fs, ImVec2(p.x + 4 * z, p.y + 1.5f * z), fg, text);
  return w;
}

void draw_edge(ImDrawList* dl, const EdgeShape& s, ImVec2 o, float z, ImU32 col, float thick, bool dashed) {
  if (s.pts.size() < 2) return;
  auto P = [&](ImVec2 p) { return ImVec2(o.x + p.x * z, o.y + p.y * z); };
  if (!dashed) {
    for (size_t i = 0; i + 3 < s.pts.size(); i += 3)
      dl->AddBezierCubic(P(s.pts[i]), P(s.pts[i + 1]), P(s.pts[i + 2]), P(s.pts[i + 3]), col, thick, 16);
    if (s.pts.size() % 3 != 1)  // not a bezier list: a polyline
      for (size_t i = 0; i + 1 < s.pts.size(); ++i) dl->AddLine(P(s.pts[i]), P(s.pts[i + 1]), col, thick);
  } else {
    std::vector<ImVec2> pl;
    for (size_t i = 0; i + 3 < s.pts.size(); i += 3)
      for (int t = 0; t <= 12; ++t)
        pl.push_back(bezier_at(P(s.pts[i]), P(s.pts[i + 1]), P(s.pts[i + 2]), P(s.pts[i + 3]), t / 12.0f));
    for (size_t i = 0; i + 1 < pl.size(); i += 2) dl->AddLine(pl[i], pl[i + 1], col, thick);
  }
  if (s.arrow) {
    const ImVec2 tip = P(s.tip), from = P(s.pts.back());
    ImVec2 d(tip.x - from.x, tip.y - from.y);
    float len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len < 1e-3f) {
      const ImVec2 prev = P(s.pts[s.pts.size() - 2]);
      d = ImVec2(tip.x - prev.x, tip.y - prev.y);
      len = std::max(1e-3f, std::sqrt(d.x * d.x + d.y * d.y));
    }
    d = ImVec2(d.x / len, d.y / len);
    const float a = 9 * z, w = 4.5f * z;
    const ImVec2 base(tip.x - d.x * a, tip.y - d.y * a);
    if (len > a * 0.5f) dl->AddLine(from, base, col, thick);
    dl->AddTriangleFilled(tip, ImVec2(base.x - d.y * w, base.y + d.x * w), ImVec2(base.x + d.y * w, base.y - d.x * w),
                          col);
  }
}

// An octagon (AccumulateGrad's shape, as in the DOT export).
void octagon(ImDrawList* dl, ImVec2 a, ImVec2 b, float cut, ImU32 fill, ImU32 border, float thick) {
  const ImVec2 pts[8] = {{a.x + cut, a.y}, {b.x - cut, a.y}, {b.x, a.y + cut}, {b.x, b.y - cut},
                         {b.x - cut, b.y}, {a.x + cut, b.y}, {a.x, b.y - cut}, {a.x, a.y + cut}};
  dl->AddConvexPolyFilled(pts, 8, fill);
  dl->AddPolyline(pts, 8, border, ImDrawFlags_Closed, thick);
}

}  // namespace ipt::gui::graph
