#pragma once
// Widgets every view shares: the help marker, badges and the numbered code listing.

#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

namespace ipt::gui {

// A dimmed "(?)" that shows `text` in a tooltip, wrapped at `wrap_em` font sizes.
void help_marker(const char* text, float wrap_em = 32.0f);

// A rounded badge with `text` wrapped across the available width.
void badge(const char* text, ImU32 bg, ImU32 fg);

// What a numbered listing marks: a line tinted `mark_color`, and a line in error, tinted red
// with a caret under column `error_col` (1-based; 0: no caret). Lines count from 1; 0: none.
struct ListingMarks {
  int mark = 0;
  ImU32 mark_color = IM_COL32(70, 110, 170, 110);
  int error = 0;
  int error_col = 0;
  int digits = 3;  // width of the line numbers
};
// Lines numbered from `first`; returns the marked line's top (window cursor y), or -1.
float code_listing(const std::vector<std::string_view>& lines, int first, const ListingMarks& marks);
// The same for a whole text, numbered from 1.
void draw_code_listing(const std::string& code, int mark_line, int error_line, int error_col);

}  // namespace ipt::gui
