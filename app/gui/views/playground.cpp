// The playground: a multi-line editor preloaded with examples, Run, and the output and
// errors under it; an error marks its line and column. The editor text is never changed by
// running it.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/gui/i18n.h"
#include "app/gui/views/widgets.h"
#include "app/gui/views/views.h"

namespace ipt::gui {

void draw_playground(ViewContext& c) {
  AppState& s = c.state;
  ImGui::TextUnformatted(tr("Playground"));
  ImGui::SameLine();
  if (ImGui::Button(tr("Run")) || (ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))))
    run_playground(s);
  ImGui::SameLine();
  ImGui::TextDisabled("(Ctrl+Enter)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(220);
  if (ImGui::BeginCombo("##examples", tr("Examples"))) {
    for (const auto& [name, code] : playground_examples())
      if (ImGui::Selectable(name)) s.playground_code = code;
    ImGui::EndCombo();
  }
  const StepOutput& r = s.playground_result;
  ImVec2 size(-1, ImGui::GetContentRegionAvail().y * 0.55f);
  ImGui::InputTextMultiline("##code", &s.playground_code, size, ImGuiInputTextFlags_AllowTabInput);
  if (!r.error.empty() && r.error_line > 0) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "line %d, column %d", r.error_line, r.error_col);
    ImGui::BeginChild("errline", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 3), true);
    std::string line;
    size_t pos = 0;
    for (int i = 1; i < r.error_line && pos != std::string::npos; ++i) {
      pos = s.playground_code.find('\n', pos);
      if (pos != std::string::npos) ++pos;
    }
    if (pos != std::string::npos) {
      size_t end = s.playground_code.find('\n', pos);
      line = s.playground_code.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    }
    draw_code_listing(line, 0, 1, r.error_col);
    ImGui::EndChild();
  }
  ImGui::TextDisabled("%s", tr("Output"));
  ImGui::BeginChild("pg_output", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::TextUnformatted(r.text.c_str());
  if (!r.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", r.error.c_str());
  ImGui::EndChild();
}

}  // namespace ipt::gui
