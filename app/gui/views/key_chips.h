#pragma once
// Key chips: a dispatch key drawn as a small rounded rectangle with its name, colored by the
// family of its functionality (backend, BackendSelect, ADInplaceOrView, Autograd, Autocast,
// other). Used by the Dispatch view; any view that shows key sets can use them.
//
// Chips are drawn at an absolute screen position and do not move the ImGui cursor, so callers
// can lay them out in aligned grids; the caller reserves the space (ImGui::Dummy).

#include <imgui.h>

#include <string>

#include "core/dispatch/dispatch_key.h"

namespace ipt::gui {

enum class KeyFamily { Backend, BackendSelect, InplaceOrView, Autograd, Autocast, Other, Undefined };

KeyFamily key_family(DispatchKey k);
// The family's base color (alpha 0..1).
ImU32 key_family_color(KeyFamily f, float alpha = 1.0f);

// How a chip is drawn; flags combine.
enum ChipStyle : unsigned {
  ChipNormal = 0,
  ChipChosen = 1u << 0,       // bright outline: the key that picked the kernel
  ChipFallthrough = 1u << 1,  // dimmed and struck through: skipped, a fallthrough for this operator
  ChipCrossed = 1u << 2,      // dimmed with a red cross: removed by the excluded set
  ChipHollow = 1u << 3,       // outline only (members of the excluded set)
  ChipSmall = 1u << 4,        // less padding
  ChipFocus = 1u << 5,        // thin white outline (a step of the redispatch chain)
};

ImVec2 key_chip_size(const char* name, unsigned style = ChipNormal);
// Draws a chip with its top-left corner at `pos` (width: `width` when > 0, else its natural
// width). Returns true when the mouse hovers it (in the current window).
bool draw_key_chip(ImDrawList* dl, ImVec2 pos, const char* name, KeyFamily family, unsigned style = ChipNormal,
                   float width = 0.0f);
// A chip with its state explained in a tooltip (a cell of the key grid, a step of the chain).
struct KeyCell {
  std::string name;
  KeyFamily fam = KeyFamily::Other;
  unsigned style = ChipNormal;
  const char* tip = nullptr;  // state explained in the tooltip
  int col = -1;               // the key grid's aligned column, -1: flowing after the columns
};
// The chip's tooltip: its name and, when set, its state.
void key_cell_tooltip(const KeyCell& cell);

// A chip at the cursor position, laid out like a normal item (advances the cursor).
bool key_chip(const char* name, KeyFamily family, unsigned style = ChipNormal);

}  // namespace ipt::gui
