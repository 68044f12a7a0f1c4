#pragma once
// Widgets every view shares.

namespace ipt::gui {

// A dimmed "(?)" that shows `text` in a tooltip, wrapped at `wrap_em` font sizes.
void help_marker(const char* text, float wrap_em = 32.0f);

}  // namespace ipt::gui
