#pragma once
// Drawing pieces of the Tensor & storage view: its palette (one color per storage), value
// cells with centered text, and headers made of wrapped text pieces and badges.
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ipt::gui::cells {

// [SECTION] colors & cells -------------------------------------------------------------

struct Rgb {
  int r, g, b;
};
// Distinct hues (Tableau 10), chosen by storage id so a storage keeps its color across steps.
Rgb storage_rgb(uint64_t storage_id);
inline ImU32 rgba(Rgb c, float a) { return IM_COL32(c.r, c.g, c.b, static_cast<int>(a * 255)); }
ImU32 lighter(Rgb c, float t, float a = 1);

struct CellStyle {
  ImU32 fill, border, text;
  float border_w = 1;
};
inline const ImU32 kWhite = IM_COL32(245, 245, 245, 255);
inline const ImU32 kText = IM_COL32(225, 225, 230, 255);
inline const ImU32 kDim = IM_COL32(135, 135, 145, 255);
inline const ImU32 kDark = IM_COL32(18, 18, 22, 255);
inline const ImU32 kUnusedFill = IM_COL32(36, 36, 42, 255);
inline const ImU32 kUnusedBorder = IM_COL32(62, 62, 70, 255);
inline const ImU32 kUnusedText = IM_COL32(112, 112, 122, 255);
inline const ImU32 kWritten = IM_COL32(255, 176, 64, 255);
inline const ImU32 kFormula = IM_COL32(255, 214, 110, 255);
inline const ImU32 kSelect = IM_COL32(255, 230, 150, 235);  // the selected tensor and the cells it reads
// The hovered element / cell and what it maps to, in the formula's color.
inline const CellStyle kHot{IM_COL32(255, 214, 110, 245), IM_COL32(255, 255, 255, 255), IM_COL32(18, 18, 22, 255), 2};
inline const CellStyle kWarm{IM_COL32(255, 214, 110, 150), IM_COL32(255, 230, 170, 220), IM_COL32(18, 18, 22, 255),
                             1.5f};

constexpr float kCellW = 44, kCellH = 24;  // the default cell; big tensors use smaller ones
constexpr float kMinCellW = 32;
constexpr int64_t kMaxCols = 64, kMaxRows = 64, kMaxRowsBig = 12;
constexpr size_t kMaxStripRows = 6;
constexpr float kIndent = 14;  // strips and cards start right of the storage band

inline float font_size() { return ImGui::GetFontSize(); }
inline float small_size() { return std::max(9.0f, ImGui::GetFontSize() * 0.7f); }  // indices, metadata

// printf into a std::string (translated format strings keep their placeholders in order).
std::string format(const char* fmt, ...);
// Text centered in [a, b], shrunk to fit the width.
void centered_text(ImDrawList* dl, ImVec2 a, ImVec2 b, const char* text, ImU32 col, float size);
void draw_cell(ImDrawList* dl, ImVec2 a, ImVec2 b, const CellStyle& st, const char* text);

// [SECTION] segments -------------------------------------------------------------------

// A header: pieces of text and badges laid out left to right, wrapping to the next line
// when a piece does not fit. Measured first (height), then drawn at a position.
struct Segment {
  std::string text;
  ImU32 color = 0;
  ImU32 badge = 0;  // badge background; 0: plain text
  std::string tooltip;
  bool small = false;
  bool break_before = false;  // start a new line
};

struct Segments {
  std::vector<Segment> items;
  void text(std::string t, ImU32 c, bool small = false) { items.push_back({std::move(t), c, 0, {}, small, false}); }
  void badge(std::string t, ImU32 bg, ImU32 fg, std::string tip = {}) {
    items.push_back({std::move(t), fg, bg, std::move(tip), true, false});
  }
  void newline() { items.push_back({"", 0, 0, {}, false, true}); }
};

// Lays out (and, with dl, draws) the segments from `pos` within `width`; returns the height.
// Plain text wraps between words, a badge moves whole; a line is as tall as its first piece.
float layout_segments(const Segments& s, ImVec2 pos, float width, ImDrawList* dl, bool hover_ok);

}  // namespace ipt::gui::cells
