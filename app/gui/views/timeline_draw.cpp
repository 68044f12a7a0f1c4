// The Timeline's drawing (see timeline_draw.h).
#include "app/gui/views/timeline_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "app/gui/i18n.h"
#include "app/gui/views/event_text.h"

namespace ipt::gui::timeline {

using trace::TraceIndex;
using views::Box;
using views::TimeWindow;

namespace {

constexpr double kMinPx = 3;  // slices narrower than this fold (Note [Folding narrow slices])

// "host thread 0" in the reader's language (the index names tracks in English).
std::string track_label(const trace::TraceIndex::Track& track) {
  constexpr std::string_view kHost = "host thread", kStream = "stream";
  if (std::string_view(track.name).substr(0, kHost.size()) == kHost)
    return tr("host thread") + track.name.substr(kHost.size());
  if (std::string_view(track.name).substr(0, kStream.size()) == kStream)
    return tr("stream") + track.name.substr(kStream.size());
  return track.name;
}

// A slice's colour: its category's, a little lighter or darker per name so that neighbours
// with different names stand apart (as Perfetto and Tracy colour by name).
ImU32 slice_color(const trace::Event& e) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(category_color(e.category));
  uint32_t h = 2166136261u;
  for (const char* p = e.name; p && *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 16777619u;
  const float k = 0.62f + 0.3f * static_cast<float>(h % 97) / 96.0f;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x * k, c.y * k, c.z * k, 1.0f));
}

float clampx(double x, float width) {
  return static_cast<float>(std::clamp(x, -4.0, static_cast<double>(width) + 4.0));
}

bool inside(ImVec2 m, ImVec2 a, ImVec2 b) { return m.x >= a.x && m.x < b.x && m.y >= a.y && m.y < b.y; }

}  // namespace

RowLayout layout_rows(const TraceIndex& index, float row_h) {
  RowLayout r;
  r.row_h = row_h;
  float y = 0;
  for (const auto& t : index.tracks) {
    r.track_y.push_back(y);
    y += row_h * static_cast<float>(t.levels.size() + 1) + 6;
  }
  r.total_h = y;
  return r;
}

int draw_step_bands(ImDrawList* dl, ImVec2 pos, float width, float h, const TimeWindow& w,
                    const std::vector<std::pair<int64_t, int64_t>>& steps, int shown, ImVec2 mouse) {
  int hovered = -1;
  const ImVec4 clip(pos.x, pos.y, pos.x + width, pos.y + h);
  dl->PushClipRect(ImVec2(clip.x, clip.y), ImVec2(clip.z, clip.w), true);
  for (size_t k = 0; k < steps.size(); ++k) {
    const double x0 = w.px(static_cast<double>(steps[k].first)), x1 = w.px(static_cast<double>(steps[k].second));
    if (x1 < 0 || x0 > width) continue;
    const ImVec2 a(pos.x + clampx(x0, width), pos.y),
        b(pos.x + std::max(clampx(x1, width), clampx(x0, width) + 1), pos.y + h);
    const bool is_shown = static_cast<int>(k) == shown;
    const bool hot = inside(mouse, a, b);
    if (hot) hovered = static_cast<int>(k);
    const ImU32 fill =
        is_shown ? IM_COL32(240, 210, 100, 150) : (k % 2 ? IM_COL32(90, 90, 110, 120) : IM_COL32(70, 70, 90, 120));
    dl->AddRectFilled(a, b, hot ? IM_COL32(250, 230, 140, 170) : fill);
    dl->AddLine(ImVec2(a.x, a.y), ImVec2(a.x, b.y), IM_COL32(240, 210, 100, 220));
    char label[48];
    std::snprintf(label, sizeof label, "%s %zu", tr("Step"), k + 1);
    if (b.x - a.x > ImGui::CalcTextSize(label).x + 6)
      dl->AddText(nullptr, 0, ImVec2(a.x + 4, a.y + (h - ImGui::GetFontSize()) * 0.5f), IM_COL32(20, 20, 24, 255),
                  label, nullptr, 0, &clip);
  }
  dl->PopClipRect();
  return hovered;
}

void draw_ruler(ImDrawList* dl, ImVec2 pos, float width, float h, const TimeWindow& w, int64_t origin_ns,
                const char* micro) {
  dl->AddRectFilled(pos, ImVec2(pos.x + width, pos.y + h), IM_COL32(32, 32, 40, 255));
  const int64_t step = views::tick_step(w.ns_per_px, 90);
  const double rel0 = w.t0 - static_cast<double>(origin_ns);
  int64_t k = static_cast<int64_t>(std::floor(rel0 / static_cast<double>(step)));
  dl->PushClipRect(pos, ImVec2(pos.x + width, pos.y + h), true);
  for (int guard = 0; guard < 200; ++guard, ++k) {
    const double rel = static_cast<double>(k) * static_cast<double>(step);
    const double x = w.px(rel + static_cast<double>(origin_ns));
    if (x > width) break;
    const float fx = pos.x + static_cast<float>(x);
    dl->AddLine(ImVec2(fx, pos.y + h * 0.45f), ImVec2(fx, pos.y + h), IM_COL32(170, 170, 185, 255));
    for (int m = 1; m < 5; ++m) {  // minor ticks
      const float mx = fx + static_cast<float>(static_cast<double>(step) * m / 5.0 / w.ns_per_px);
      dl->AddLine(ImVec2(mx, pos.y + h * 0.75f), ImVec2(mx, pos.y + h), IM_COL32(110, 110, 125, 255));
    }
    const std::string label = views::format_ns(rel, micro);
    dl->AddText(ImVec2(fx + 3, pos.y), IM_COL32(210, 210, 220, 255), label.c_str());
  }
  dl->PopClipRect();
}

void draw_tracks(const Canvas& c, const TimeWindow& w, const TraceDoc& doc, const RowLayout& rows,
                 std::optional<size_t> selected, Hover& hover, std::vector<Box>& scratch) {
  const TraceIndex& index = *doc.index;
  const float width = static_cast<float>(w.width);
  const float rh = rows.row_h;
  ImFont* font = ImGui::GetFont();
  const float fs = ImGui::GetFontSize();
  struct Label {
    ImVec2 pos;
    ImVec4 clip;
    ImU32 color;
    const char* name = nullptr;  // a slice's name, or
    std::string count;           // a folded run's count
  };
  std::vector<Label> labels;
  // The selected event's slice (an End selects its Begin's).
  std::optional<uint32_t> sel_begin;
  if (selected && *selected < index.size()) {
    const uint32_t m = index.match[*selected];
    sel_begin = static_cast<uint32_t>(m != TraceIndex::kNone && m < *selected ? m : *selected);
  }
  for (size_t t = 0; t < index.tracks.size(); ++t) {
    const auto& track = index.tracks[t];
    const float ty = c.origin.y + rows.track_y[t];
    const float track_bottom = ty + rh * static_cast<float>(track.levels.size() + 1);
    if (track_bottom < c.clip_y0 || ty > c.clip_y1) continue;
    // Header row.
    c.dl->AddRectFilled(ImVec2(c.origin.x, ty), ImVec2(c.origin.x + width, ty + rh), IM_COL32(45, 45, 56, 255));
    c.dl->AddText(ImVec2(c.origin.x + 6, ty + (rh - fs) * 0.5f), IM_COL32(220, 220, 230, 255),
                  track_label(track).c_str());
    for (size_t lv = 0; lv < track.levels.size(); ++lv) {
      const float y0 = ty + rh * static_cast<float>(lv + 1), y1 = y0 + rh - 1;
      if (y1 < c.clip_y0 || y0 > c.clip_y1) continue;
      const auto& level = track.levels[lv];
      labels.clear();
      scratch.clear();
      views::fold_slices(level.slices, w, kMinPx, scratch);
      for (const Box& b : scratch) {
        const ImVec2 a(c.origin.x + clampx(b.x0, width), y0);
        const ImVec2 z(c.origin.x + std::max(clampx(b.x1, width), clampx(b.x0, width) + 1.0f), y1);
        const trace::Event& e = doc.events[b.event];
        if (b.count == 1) {
          c.dl->AddRectFilled(a, z, slice_color(e));
          if (z.x - a.x > 24)
            labels.push_back({ImVec2(std::max(a.x, c.origin.x) + 3, y0 + (rh - fs) * 0.5f - 1),
                              ImVec4(a.x + 2, a.y, z.x - 2, z.y),
                              IM_COL32(15, 15, 20, 255),
                              e.name,
                              {}});
          if (sel_begin && *sel_begin == b.event) c.dl->AddRect(a, z, IM_COL32(255, 255, 255, 255), 0, 0, 2.0f);
        } else {
          // A folded run: the category's colour, dimmed and striped, with its count when it fits.
          ImVec4 col = ImGui::ColorConvertU32ToFloat4(category_color(e.category));
          c.dl->AddRectFilled(a, z,
                              ImGui::ColorConvertFloat4ToU32(ImVec4(col.x * 0.45f, col.y * 0.45f, col.z * 0.45f, 1)));
          for (float x = a.x + 3; x < z.x; x += 6)
            c.dl->AddLine(ImVec2(x, y0 + 2), ImVec2(x, y1 - 2), IM_COL32(0, 0, 0, 70));
          std::string count = std::to_string(b.count);
          if (z.x - a.x > ImGui::CalcTextSize(count.c_str()).x + 6)
            labels.push_back({ImVec2(std::max(a.x, c.origin.x) + 3, y0 + (rh - fs) * 0.5f - 1),
                              ImVec4(a.x, a.y, z.x, z.y), IM_COL32(230, 230, 235, 255), nullptr, std::move(count)});
        }
        if (c.mouse_in && inside(c.mouse, a, ImVec2(std::max(z.x, a.x + 3), z.y + 1))) hover = Hover{true, false, b};
      }
      scratch.clear();
      views::fold_marks(level.marks, w, kMinPx, scratch);
      for (const Box& b : scratch) {
        const float x0 = c.origin.x + clampx(b.x0, width), x1 = c.origin.x + clampx(b.x1, width);
        const ImU32 col = category_color(doc.events[b.event].category);
        if (b.count == 1) {
          c.dl->AddTriangleFilled(ImVec2(x0 - 4, y0 + 1), ImVec2(x0 + 4, y0 + 1), ImVec2(x0, y0 + rh * 0.55f), col);
          c.dl->AddLine(ImVec2(x0, y0 + 1), ImVec2(x0, y1), col);
        } else {
          c.dl->AddRectFilled(ImVec2(x0 - 2, y0 + 1), ImVec2(std::max(x1, x0) + 2, y0 + rh * 0.5f), col);
        }
        if (selected && *selected == b.event)
          c.dl->AddCircle(ImVec2(x0, y0 + rh * 0.3f), 6, IM_COL32(255, 255, 255, 255), 0, 2);
        if (c.mouse_in && !hover.any && inside(c.mouse, ImVec2(x0 - 4, y0), ImVec2(std::max(x1, x0) + 4, y1)))
          hover = Hover{true, true, b};
      }
      // Slice labels last: the instants of the same level must not cover them.
      for (const Label& l : labels)
        c.dl->AddText(font, fs, l.pos, l.color, l.name ? l.name : l.count.c_str(), nullptr, 0, &l.clip);
    }
  }
}

void draw_flows(const Canvas& c, const TimeWindow& w, const TraceIndex& index, const RowLayout& rows,
                std::optional<size_t> selected, size_t max_flows) {
  const float width = static_cast<float>(w.width);
  size_t drawn = 0;
  auto row_y = [&](uint32_t e) {
    const size_t t = index.track[e];
    return c.origin.y + rows.level_y(t, index.depth[e]);
  };
  for (const auto& f : index.flows) {
    const double xa = w.px(static_cast<double>(f.t_from)), xb = w.px(static_cast<double>(f.t_to));
    if ((xa < 0 && xb < 0) || (xa > width && xb > width)) continue;
    if (index.track[f.from] >= rows.track_y.size() || index.track[f.to] >= rows.track_y.size()) continue;
    const bool hot = selected && (*selected == f.from || *selected == f.to || index.match[f.to] == *selected);
    if (drawn >= max_flows && !hot) continue;
    ++drawn;
    const ImVec2 a(c.origin.x + clampx(xa, width), row_y(f.from) + rows.row_h * 0.5f);
    const ImVec2 b(c.origin.x + clampx(xb, width), row_y(f.to) + rows.row_h * 0.5f);
    const ImU32 col = hot ? IM_COL32(255, 255, 255, 255) : IM_COL32(255, 140, 140, 150);
    const float dx = std::max(20.0f, std::fabs(b.x - a.x) * 0.3f);
    c.dl->AddBezierCubic(a, ImVec2(a.x + dx, a.y), ImVec2(b.x - dx, b.y), b, col, hot ? 2.0f : 1.0f);
    c.dl->AddTriangleFilled(ImVec2(b.x, b.y), ImVec2(b.x - 7, b.y - 4), ImVec2(b.x - 7, b.y + 4), col);
  }
}

}  // namespace ipt::gui::timeline
