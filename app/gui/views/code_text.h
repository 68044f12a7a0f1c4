#pragma once
// A read-only code listing with Python / C++ syntax colours, each line optionally tinted and
// explained by a tooltip (the Compile view's graphs, guards and generated code).

#include <functional>
#include <string>

#include <imgui.h>

namespace ipt::gui {

struct CodeLineStyle {
  ImU32 background = 0;  // 0: none
  ImU32 text = 0;        // 0: syntax colours; else the whole line in this colour
  std::string tooltip;   // shown when the line is hovered
};

// Draws `text` in a child region of at most `max_height` pixels (0: as tall as the text).
// `style` (may be empty) styles line i (0-based).
void draw_code_text(const char* id, const std::string& text, float max_height,
                    const std::function<CodeLineStyle(int, const std::string&)>& style = {});

}  // namespace ipt::gui
