#include "app/gui/view.h"

#include <imgui.h>

#include "app/gui/i18n.h"

namespace ipt::gui {

void View::draw(ViewContext& ctx) {
  if (shows_events() && ctx.doc.events.empty()) {
    draw_empty_state(tr("No events yet: run a step or a snippet."));
    return;
  }
  draw_content(ctx);
}

void draw_empty_state(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

}  // namespace ipt::gui
