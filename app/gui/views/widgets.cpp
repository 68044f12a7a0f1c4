#include "app/gui/views/widgets.h"

#include <algorithm>
#include <sstream>

namespace ipt::gui {

void help_marker(const char* text, float wrap_em) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * wrap_em);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void badge(const char* text, ImU32 bg, ImU32 fg) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float pad = 6.0f;
  const float wrap = std::max(80.0f, ImGui::GetContentRegionAvail().x - 2 * pad);
  ImVec2 ts = ImGui::CalcTextSize(text, nullptr, false, wrap);
  ImVec2 max(p.x + ts.x + 2 * pad, p.y + ts.y + 2 * 3.0f);
  dl->AddRectFilled(p, max, bg, 4.0f);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(p.x + pad, p.y + 3.0f), fg, text, nullptr, wrap);
  ImGui::Dummy(ImVec2(max.x - p.x, max.y - p.y));
}

float code_listing(const std::vector<std::string_view>& lines, int first, const ListingMarks& marks) {
  float mark_y = -1;
  const ImU32 err = IM_COL32(190, 60, 60, 120);
  for (size_t i = 0; i < lines.size(); ++i) {
    const int n = first + static_cast<int>(i);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    const float w = ImGui::GetContentRegionAvail().x;
    if (marks.error > 0 && n == marks.error)
      ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + h), err);
    else if (n == marks.mark) ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + h), marks.mark_color);
    if (n == marks.mark) mark_y = ImGui::GetCursorPosY();
    ImGui::TextDisabled("%*d", marks.digits, n);
    ImGui::SameLine();
    ImGui::TextUnformatted(lines[i].data(), lines[i].data() + lines[i].size());
    if (marks.error > 0 && n == marks.error && marks.error_col > 0) {
      ImGui::TextDisabled("%*s", marks.digits, "");
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1, 0.5f, 0.45f, 1), "%s^",
                         std::string(static_cast<size_t>(marks.error_col - 1), ' ').c_str());
    }
  }
  return mark_y;
}

void draw_code_listing(const std::string& code, int mark_line, int error_line, int error_col) {
  std::vector<std::string> text;
  std::istringstream in(code);
  for (std::string line; std::getline(in, line);) text.push_back(std::move(line));
  const std::vector<std::string_view> lines(text.begin(), text.end());
  ListingMarks marks;
  marks.mark = mark_line;
  marks.error = error_line;
  marks.error_col = error_col;
  code_listing(lines, 1, marks);
}

}  // namespace ipt::gui
