#include "app/gui/text_wrap.h"

#include <imgui.h>

#include <string>

namespace ipt::gui {

namespace {

// Length in bytes of the UTF-8 sequence starting with byte c.
size_t utf8_len(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xE) return 3;
  if ((c >> 3) == 0x1E) return 4;
  return 1;
}

// CJK ideographs, kana, full-width forms and CJK punctuation may break on either side.
bool breakable_wide(std::string_view ch) {
  if (ch.size() < 3) return false;
  unsigned cp = (static_cast<unsigned char>(ch[0]) & 0x0F) << 12 | (static_cast<unsigned char>(ch[1]) & 0x3F) << 6 |
                (static_cast<unsigned char>(ch[2]) & 0x3F);
  return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFFEF) ||
         (cp >= 0x3000 && cp <= 0x303F);
}

void wrap_line(std::string_view line, float width) {
  if (line.empty()) {
    ImGui::NewLine();
    return;
  }
  size_t start = 0;
  while (start < line.size()) {
    float w = 0;
    size_t i = start, last_break = std::string_view::npos;
    while (i < line.size()) {
      size_t n = utf8_len(static_cast<unsigned char>(line[i]));
      std::string_view ch = line.substr(i, n);
      float cw = ImGui::CalcTextSize(ch.data(), ch.data() + ch.size()).x;
      if (w + cw > width && i > start) break;
      w += cw;
      if (ch == " ") last_break = i + 1;
      else if (breakable_wide(ch)) last_break = i + n;
      i += n;
    }
    size_t end = i;
    if (i < line.size() && last_break != std::string_view::npos && last_break > start) end = last_break;
    std::string_view piece = line.substr(start, end - start);
    ImGui::TextUnformatted(piece.data(), piece.data() + piece.size());
    start = end;
    while (start < line.size() && line[start] == ' ') ++start;
  }
}

}  // namespace

void text_wrapped_cjk(std::string_view text) {
  const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x);
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (nl == std::string_view::npos && line.empty()) break;
    wrap_line(line, width);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
}

}  // namespace ipt::gui
