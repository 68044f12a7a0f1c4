#include "app/gui/views/source_link.h"

#include <algorithm>

#include "app/gui/i18n.h"

namespace ipt::gui {

bool is_generated_site(std::string_view site) { return site.rfind("build/generated/", 0) == 0; }

void open_in_schema_view(Requests& requests, const char* op, const char* site) {
  requests.post(ShowOperator{op, site});
  requests.post(FocusView{"schema"});
}

void draw_site_link(Requests& requests, const char* op, const char* site, ImVec2 pos, ImU32 plain) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (!is_generated_site(site)) {
    dl->AddText(pos, plain, site);
    return;
  }
  const ImVec2 size = ImGui::CalcTextSize(site);
  const ImVec2 back = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(pos);
  ImGui::PushID(site);
  const bool clicked = ImGui::InvisibleButton("##site", ImVec2(std::max(size.x, 1.0f), size.y));
  const bool hovered = ImGui::IsItemHovered();
  ImGui::PopID();
  ImGui::SetCursorScreenPos(back);
  const ImU32 link = hovered ? IM_COL32(160, 205, 255, 255) : IM_COL32(120, 175, 240, 255);
  dl->AddText(pos, link, site);
  if (hovered) {
    dl->AddLine(ImVec2(pos.x, pos.y + size.y), ImVec2(pos.x + size.x, pos.y + size.y), link);
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    ImGui::SetTooltip("%s", tr("Open the generated code in the Schema view"));
  }
  if (clicked) open_in_schema_view(requests, op, site);
}

}  // namespace ipt::gui
