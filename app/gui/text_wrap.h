#pragma once
// Word wrapping that also breaks between CJK characters (Dear ImGui 1.86 wraps only at
// spaces, so a Chinese sentence would overflow or jump to the next line whole).

#include <string_view>

namespace ipt::gui {

// Draws `text` wrapped to the available width: breaks at spaces for Latin words and between
// any two CJK characters; keeps '\n' as paragraph breaks.
void text_wrapped_cjk(std::string_view text);

}  // namespace ipt::gui
