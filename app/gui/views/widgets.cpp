#include "app/gui/views/widgets.h"

#include <imgui.h>

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

}  // namespace ipt::gui
