#pragma once
// Links from a kernel's "registered at" site to the Schema view. Generated code is embedded in
// the program (core/ops/generated_sources.h), so a site in build/generated/ can be opened there,
// at its registration; other sites (hand-written fallbacks) are plain text.

#include <imgui.h>

#include <string_view>

#include "app/gui/app_state.h"

namespace ipt::gui {

bool is_generated_site(std::string_view site);
// Asks the Schema view to show `op` with the registration at `site` open, and to come to the front.
void open_in_schema_view(Requests& requests, const char* op, const char* site);
// Draws `site` at `pos` without laying it out (the cursor is kept); a generated one is a link.
void draw_site_link(Requests& requests, const char* op, const char* site, ImVec2 pos, ImU32 plain);

}  // namespace ipt::gui
