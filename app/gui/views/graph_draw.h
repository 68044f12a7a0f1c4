#pragma once
// The Graph view's shapes, drawn with ImDrawList: text, chips, edges with arrowheads, octagons.

#include <imgui.h>

#include <string>

#include "app/gui/views/graph_layout.h"

namespace ipt::gui::graph {

// Draws `text` with its top-left at `p`, at `size` px.
void text_at(ImDrawList* dl, ImVec2 p, float size, ImU32 col, const std::string& text);
float text_w(const std::string& s);
// A small rounded chip with text; returns its width (zoom 1 units times `z`).
float chip(ImDrawList* dl, ImVec2 p, float z, const char* text, ImU32 bg, ImU32 fg);
// An edge at offset `o` and zoom `z`, solid or dashed, with its arrowhead.
void draw_edge(ImDrawList* dl, const EdgeShape& s, ImVec2 o, float z, ImU32 col, float thick, bool dashed);
// An octagon (AccumulateGrad's shape, as in the DOT export).
void octagon(ImDrawList* dl, ImVec2 a, ImVec2 b, float cut, ImU32 fill, ImU32 border, float thick);

}  // namespace ipt::gui::graph
