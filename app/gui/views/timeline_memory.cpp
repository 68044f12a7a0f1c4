// The Timeline's device-memory section (see timeline_memory.h).
#include "app/gui/views/timeline_memory.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "app/gui/i18n.h"

namespace ipt::gui::timeline {

namespace {

constexpr float kGraphRows = 3;  // the memory graph's height, in rows

constexpr ImU32 kAllocated = IM_COL32(90, 170, 120, 255);
constexpr ImU32 kReserved = IM_COL32(200, 200, 120, 255);
constexpr ImU32 kBar = IM_COL32(70, 110, 160, 255);
constexpr ImU32 kPending = IM_COL32(150, 110, 60, 255);  // freed by the host, not yet reusable
constexpr ImU32 kHostMark = IM_COL32(235, 235, 240, 255);
constexpr ImU32 kDoneMark = IM_COL32(110, 220, 130, 255);
constexpr ImU32 kReuseMark = IM_COL32(240, 170, 80, 255);

std::string bytes_text(int64_t b) {
  char buf[32];
  if (b >= (1 << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1 << 20));
  else if (b >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(b) / 1024);
  else std::snprintf(buf, sizeof buf, "%" PRId64 " B", b);
  return buf;
}

void header(const Canvas& c, float y, float width, float rh, const std::string& text) {
  c.dl->AddRectFilled(ImVec2(c.origin.x, y), ImVec2(c.origin.x + width, y + rh), IM_COL32(45, 45, 56, 255));
  c.dl->AddText(ImVec2(c.origin.x + 6, y + (rh - ImGui::GetFontSize()) * 0.5f), IM_COL32(220, 220, 230, 255),
                text.c_str());
}

float xclamp(double x, float width) {
  return static_cast<float>(std::clamp(x, -4.0, static_cast<double>(width) + 4.0));
}

std::string block_tooltip(const views::BlockLife& b, int64_t t_origin, const char* micro) {
  auto at = [&](int64_t t) {
    return t < 0 ? std::string(tr("not in the trace")) : views::format_ns(static_cast<double>(t - t_origin), micro);
  };
  char head[96];
  std::snprintf(head, sizeof head, "0x%" PRIx64 "  %s  %s %d", b.addr, bytes_text(b.size).c_str(), tr("stream"),
                b.stream);
  std::string s = head;
  s += std::string("\n") + tr("allocated") + ": " + at(b.alloc_ns);
  s += std::string("\n") + tr("host returned") + ": " + at(b.host_returned_ns);
  s += std::string("\n") + tr("kernel done") + ": " + at(b.work_done_ns);
  s += std::string("\n") + tr("freed by the host") + ": " + at(b.free_requested_ns);
  s += std::string("\n") + tr("reusable") + ": " + at(b.reusable_ns);
  return s;
}

}  // namespace

float memory_height(const views::DeviceMemoryModel& m, float row_h) {
  if (m.empty()) return 0;
  return row_h * (1 + kGraphRows) + 6 + row_h * static_cast<float>(1 + m.rows) + 6;
}

std::string draw_memory(const Canvas& c, const views::TimeWindow& w, const views::DeviceMemoryModel& m, float y0,
                        float row_h, int64_t t_origin, const char* micro) {
  if (m.empty()) return "";
  const float width = static_cast<float>(w.width);
  std::string tip;
  // The graph: allocated as filled columns, reserved as a line, one sample per pixel column.
  float y = c.origin.y + y0;
  header(c, y, width, row_h, std::string(tr("GPU memory")) + "  (" + tr("peak") + " " + bytes_text(m.peak) + ")");
  const float g0 = y + row_h, g1 = g0 + row_h * kGraphRows - 2;
  if (g1 >= c.clip_y0 && g0 <= c.clip_y1 && m.peak > 0) {
    const float scale = (g1 - g0) / static_cast<float>(m.peak);
    float prev_r = -1;
    for (float px = 0; px < width; px += 1) {
      const views::MemorySample* s = views::sample_at(m, static_cast<int64_t>(w.t_at(px)));
      if (!s) continue;
      const float ya = g1 - scale * static_cast<float>(s->allocated), yr = g1 - scale * static_cast<float>(s->reserved);
      if (s->allocated > 0) c.dl->AddLine(ImVec2(c.origin.x + px, g1), ImVec2(c.origin.x + px, ya), kAllocated);
      c.dl->AddLine(ImVec2(c.origin.x + px, prev_r < 0 ? yr : prev_r), ImVec2(c.origin.x + px + 1, yr), kReserved,
                    1.5f);
      prev_r = yr;
      if (c.mouse_in && c.mouse.y >= g0 && c.mouse.y < g1 && c.mouse.x >= c.origin.x + px &&
          c.mouse.x < c.origin.x + px + 1)
        tip = std::string(tr("allocated")) + " " + bytes_text(s->allocated) + "\n" + tr("reserved") + " " +
              bytes_text(s->reserved);
    }
  }
  // The blocks: one bar from alloc to reusable, darker once the host has freed it; a white
  // tick when the call that wrote it returned, a green one when its kernel ended.
  y = g0 + row_h * kGraphRows + 6;
  header(c, y, width, row_h, tr("Device memory blocks: allocated, host returned, kernel done, reusable"));
  const float lanes0 = y + row_h;
  for (const views::BlockLife& b : m.blocks) {
    const int64_t end = b.reusable_ns >= 0 ? b.reusable_ns : static_cast<int64_t>(w.t1());
    if (static_cast<double>(end) < w.t0 || static_cast<double>(b.alloc_ns) > w.t1()) continue;
    const float ly0 = lanes0 + row_h * static_cast<float>(b.row) + 2, ly1 = ly0 + row_h - 5;
    if (ly1 < c.clip_y0 || ly0 > c.clip_y1) continue;
    const float xa = c.origin.x + xclamp(w.px(static_cast<double>(b.alloc_ns)), width);
    const float xe = std::max(xa + 1, c.origin.x + xclamp(w.px(static_cast<double>(end)), width));
    const float xf =
        b.free_requested_ns >= 0 ? c.origin.x + xclamp(w.px(static_cast<double>(b.free_requested_ns)), width) : xe;
    c.dl->AddRectFilled(ImVec2(xa, ly0), ImVec2(std::max(xa + 1, xf), ly1), kBar);
    if (xf < xe) c.dl->AddRectFilled(ImVec2(xf, ly0), ImVec2(xe, ly1), kPending);
    auto tick = [&](int64_t t, ImU32 col) {
      if (t < 0) return;
      const float x = c.origin.x + xclamp(w.px(static_cast<double>(t)), width);
      c.dl->AddLine(ImVec2(x, ly0 - 1), ImVec2(x, ly1 + 1), col, 2.0f);
    };
    tick(b.host_returned_ns, kHostMark);
    tick(b.work_done_ns, kDoneMark);
    if (b.reusable_ns >= 0) tick(b.reusable_ns, kReuseMark);
    if (c.mouse_in && c.mouse.x >= xa - 2 && c.mouse.x <= xe + 2 && c.mouse.y >= ly0 && c.mouse.y < ly1)
      tip = block_tooltip(b, t_origin, micro);
  }
  return tip;
}

}  // namespace ipt::gui::timeline
