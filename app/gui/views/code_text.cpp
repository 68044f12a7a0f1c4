#include "app/gui/views/code_text.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "core/util/split_lines.h"

namespace ipt::gui {

namespace {

const ImU32 kKeyword = IM_COL32(197, 134, 192, 255);
const ImU32 kType = IM_COL32(78, 201, 176, 255);
const ImU32 kString = IM_COL32(206, 145, 120, 255);
const ImU32 kNumber = IM_COL32(181, 206, 168, 255);
const ImU32 kComment = IM_COL32(120, 140, 120, 255);
const ImU32 kPlain = IM_COL32(220, 220, 220, 255);

bool is_keyword(const std::string& w) {
  static const char* kws[] = {"def",    "return", "import",      "from",     "for",    "if",      "else",
                              "in",     "None",   "True",        "False",    "class",  "extern",  "void",
                              "const",  "auto",   "static_cast", "decltype", "pragma", "include", "del",
                              "lambda", "with",   "not",         "and",      "or",     "is"};
  for (const char* k : kws)
    if (w == k) return true;
  return false;
}
bool is_type(const std::string& w) {
  static const char* types[] = {"float", "double", "int64_t", "long", "int", "bool", "Tensor", "torch", "std"};
  for (const char* t : types)
    if (w == t) return true;
  return false;
}

struct Token {
  std::string text;
  ImU32 color;
};

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> out;
  size_t i = 0;
  const size_t n = line.size();
  while (i < n) {
    const char c = line[i];
    if ((c == '#' && line.find("#include") != 0 && line.find("#pragma") == std::string::npos) ||
        (c == '/' && i + 1 < n && line[i + 1] == '/')) {
      out.push_back({line.substr(i), kComment});
      break;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < n && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      out.push_back({line.substr(i, j - i), kString});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '.')) ++j;
      out.push_back({line.substr(i, j - i), kNumber});
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_')) ++j;
      std::string w = line.substr(i, j - i);
      out.push_back({w, is_keyword(w) ? kKeyword : is_type(w) ? kType : kPlain});
      i = j;
    } else {
      size_t j = i;
      while (j < n && !std::isalnum(static_cast<unsigned char>(line[j])) && line[j] != '_' && line[j] != '"' &&
             line[j] != '\'' && !(line[j] == '/' && j + 1 < n && line[j + 1] == '/') && line[j] != '#')
        ++j;
      if (j == i) j = i + 1;
      out.push_back({line.substr(i, j - i), kPlain});
      i = j;
    }
  }
  return out;
}

}  // namespace

void draw_code_text(const char* id, const std::string& text, float max_height,
                    const std::function<CodeLineStyle(int, const std::string&)>& style) {
  const std::vector<std::string_view> lines = split_lines(text);
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  const float want = lh * static_cast<float>(lines.size()) + ImGui::GetStyle().ScrollbarSize + 8;
  const float h = max_height > 0 ? std::min(want, max_height) : want;
  ImGui::BeginChild(id, ImVec2(0, h), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(lines.size()), lh);
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const std::string line(lines[static_cast<size_t>(i)]);  // only the lines shown are copied
      CodeLineStyle st = style ? style(i, line) : CodeLineStyle{};
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (st.background) {
        const float w = std::max(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize(line.c_str()).x);
        ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + lh), st.background);
      }
      ImGui::BeginGroup();
      if (line.empty()) {
        ImGui::TextUnformatted(" ");
      } else if (st.text) {
        ImGui::PushStyleColor(ImGuiCol_Text, st.text);
        ImGui::TextUnformatted(line.c_str());
        ImGui::PopStyleColor();
      } else {
        bool first = true;
        for (const Token& t : tokenize(line)) {
          if (!first) ImGui::SameLine(0, 0);
          first = false;
          ImGui::PushStyleColor(ImGuiCol_Text, t.color);
          ImGui::TextUnformatted(t.text.c_str());
          ImGui::PopStyleColor();
        }
      }
      ImGui::EndGroup();
      if (!st.tooltip.empty() && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
        ImGui::TextUnformatted(st.tooltip.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::EndChild();
}

}  // namespace ipt::gui
