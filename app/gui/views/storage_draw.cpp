#include "app/gui/views/storage_draw.h"

#include <algorithm>
#include <cfloat>
#include <cstdarg>
#include <cstdio>

namespace ipt::gui::cells {

namespace {
constexpr Rgb kPalette[] = {{78, 121, 167}, {242, 142, 43},  {89, 161, 79},   {225, 87, 89},  {118, 183, 178},
                            {237, 201, 72}, {176, 122, 161}, {255, 157, 167}, {156, 117, 95}, {168, 204, 84}};
}  // namespace

Rgb storage_rgb(uint64_t storage_id) { return kPalette[storage_id % (sizeof kPalette / sizeof kPalette[0])]; }

ImU32 lighter(Rgb c, float t, float a) {
  return IM_COL32(c.r + static_cast<int>((255 - c.r) * t), c.g + static_cast<int>((255 - c.g) * t),
                  c.b + static_cast<int>((255 - c.b) * t), static_cast<int>(a * 255));
}

std::string format(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

void centered_text(ImDrawList* dl, ImVec2 a, ImVec2 b, const char* text, ImU32 col, float size) {
  ImFont* f = ImGui::GetFont();
  ImVec2 ts = f->CalcTextSizeA(size, FLT_MAX, 0, text);
  const float maxw = b.x - a.x - 4;
  if (ts.x > maxw && ts.x > 0) {
    size = std::max(7.0f, size * maxw / ts.x);
    ts = f->CalcTextSizeA(size, FLT_MAX, 0, text);
  }
  dl->AddText(f, size, ImVec2(a.x + (b.x - a.x - ts.x) * 0.5f, a.y + (b.y - a.y - ts.y) * 0.5f), col, text);
}

void draw_cell(ImDrawList* dl, ImVec2 a, ImVec2 b, const CellStyle& st, const char* text) {
  a.x += 1, a.y += 1, b.x -= 1, b.y -= 1;
  dl->AddRectFilled(a, b, st.fill, 2);
  dl->AddRect(a, b, st.border, 2, 0, st.border_w);
  if (text && *text) centered_text(dl, a, b, text, st.text, font_size());
}

float layout_segments(const Segments& s, ImVec2 pos, float width, ImDrawList* dl, bool hover_ok) {
  ImFont* f = ImGui::GetFont();
  auto height_of = [](bool small) { return small ? small_size() + 5 : ImGui::GetTextLineHeight() + 3; };
  float x = 0, y = 0, line_h = 0;
  auto new_line = [&] { y += line_h, x = 0, line_h = 0; };
  for (const auto& seg : s.items) {
    if (seg.break_before) {
      new_line();
      if (seg.text.empty()) continue;
    }
    const float size = seg.small ? small_size() + 1 : font_size();
    if (seg.badge) {
      const ImVec2 ts = f->CalcTextSizeA(size, FLT_MAX, 0, seg.text.c_str());
      const float w = ts.x + 10;
      if (x > 0 && x + w > width) new_line();
      if (line_h == 0) line_h = height_of(seg.small);
      if (dl) {
        const ImVec2 a(pos.x + x, pos.y + y + 1), b(a.x + w, pos.y + y + line_h - 2);
        dl->AddRectFilled(a, b, seg.badge, 4);
        dl->AddText(f, size, ImVec2(a.x + 5, a.y + (b.y - a.y - ts.y) * 0.5f), seg.color, seg.text.c_str());
        if (hover_ok && !seg.tooltip.empty() && ImGui::IsMouseHoveringRect(a, b))
          ImGui::SetTooltip("%s", seg.tooltip.c_str());
      }
      x += w + 6;
      continue;
    }
    // Plain text, word by word.
    const float space = f->CalcTextSizeA(size, FLT_MAX, 0, " ").x;
    const char* p = seg.text.c_str();
    const char* end = p + seg.text.size();
    while (p < end) {
      const char* q = p;
      while (q < end && *q != ' ') ++q;
      const ImVec2 ts = f->CalcTextSizeA(size, FLT_MAX, 0, p, q);
      if (x > 0 && x + ts.x > width) new_line();
      if (line_h == 0) line_h = height_of(seg.small);
      if (dl) dl->AddText(f, size, ImVec2(pos.x + x, pos.y + y + (line_h - 1 - ts.y) * 0.5f), seg.color, p, q);
      x += ts.x + space;
      p = q;
      while (p < end && *p == ' ') ++p;
    }
    x += 2;
  }
  return y + line_h;
}

}  // namespace ipt::gui::cells
