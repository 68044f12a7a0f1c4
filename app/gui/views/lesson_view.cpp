// The lesson player: lesson browser, step list, narration, the step's code with the running
// line marked, Next / Previous / Run to here / Reset, and the step's output.
#include <imgui.h>

#include <sstream>

#include "app/gui/i18n.h"
#include "app/gui/text_wrap.h"
#include "app/gui/views/views.h"
#include "app/gui/views/widgets.h"

namespace ipt::gui {

namespace {

class LessonBrowserView : public View {
 public:
  const char* id() const override { return "lessons"; }
  const char* title() const override { return "Lessons"; }
  void default_rect(float& x, float& y, float& w, float& h) const override { x = 0, y = 0, w = 0.2f, h = 1.0f; }

  void draw_content(ViewContext& c) override {
    AppState& s = c.state;
    if (!s.index_error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", s.index_error.c_str());
      return;
    }
    for (const auto& e : s.index) {
      std::string label = std::to_string(e.number) + ". " + e.title.in(lang_code());
      const bool current = s.lesson && s.lesson->number == e.number && !s.show_playground;
      if (!e.file) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s  (%s)", label.c_str(), tr("coming"));
        ImGui::PopStyleColor();
        continue;
      }
      ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x);
      if (ImGui::Selectable((label + "##lesson" + std::to_string(e.number)).c_str(), current)) open_lesson(s, e.number);
      ImGui::PopTextWrapPos();
      if (current) {
        ImGui::Indent();
        for (int k = 0; k < s.step_count(); ++k) {
          const auto& st = s.lesson->steps[static_cast<size_t>(k)];
          std::string sl = std::to_string(k + 1) + "  " + st.title.in(lang_code()) + "##step" + std::to_string(k);
          if (ImGui::Selectable(sl.c_str(), k == s.current_step)) run_lesson_to(s, k);
        }
        ImGui::Unindent();
      }
    }
    if (!s.lesson_error.empty()) {
      ImGui::Separator();
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", s.lesson_error.c_str());
      ImGui::PopTextWrapPos();
    }
    ImGui::Separator();
    if (ImGui::Selectable(tr("Playground"), s.show_playground)) s.show_playground = true;
  }
};

// Code with line numbers; `mark_line` (1-based) is highlighted, `error_line` in red.
// A trace opened from a file: its title, fields and source, and its steps (ranges of events).
void draw_loaded_trace(AppState& s) {
  ImGui::TextDisabled("%s", s.trace_path.c_str());
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(s.doc.meta.title.c_str());
  ImGui::PopTextWrapPos();
  for (const auto& [k, v] : s.doc.meta.fields) ImGui::TextDisabled("%s: %s", k.c_str(), v.c_str());
  ImGui::Text("%zu %s", s.doc.events.size(), tr("events"));
  if (s.doc.step_begin.size() > 1) {
    ImGui::Separator();
    for (size_t k = 0; k < s.doc.step_begin.size(); ++k) {
      std::string label = std::string(tr("Step")) + " " + std::to_string(k + 1);
      if (ImGui::Selectable(label.c_str(), s.doc.first == s.doc.step_begin[k])) show_trace_step(s, k);
    }
  }
  if (!s.doc.meta.source.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("%s", tr("Code"));
    ImGui::BeginChild("trace_source", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    draw_code_listing(s.doc.meta.source, 0, 0, 0);
    ImGui::EndChild();
  }
}

class LessonPlayerView : public View {
 public:
  const char* id() const override { return "player"; }
  const char* title() const override { return "Lesson"; }
  void default_rect(float& x, float& y, float& w, float& h) const override { x = 0.2f, y = 0, w = 0.36f, h = 1.0f; }

  void draw_content(ViewContext& c) override {
    AppState& s = c.state;
    if (s.show_playground) {
      draw_playground(c);
      return;
    }
    if (!s.trace_path.empty()) {
      draw_loaded_trace(s);
      return;
    }
    if (!s.lesson) {
      ImGui::TextWrapped("%s", s.lesson_error.empty() ? tr("Lessons") : s.lesson_error.c_str());
      return;
    }
    const auto& st = s.lesson->steps[static_cast<size_t>(s.current_step)];
    ImGui::TextDisabled("%s %d · %s %d/%d", tr("Lesson"), s.lesson->number, tr("Step"), s.current_step + 1,
                        s.step_count());
    text_wrapped_cjk(s.lesson->title.in(lang_code()));
    ImGui::Separator();
    if (ImGui::Button(tr("Previous")) && s.current_step > 0) run_lesson_to(s, s.current_step - 1);
    ImGui::SameLine();
    if (ImGui::Button(tr("Next")) && s.current_step + 1 < s.step_count()) run_lesson_to(s, s.current_step + 1);
    ImGui::SameLine();
    if (ImGui::Button(tr("Run to here"))) run_lesson_to(s, s.current_step);
    ImGui::SameLine();
    if (ImGui::Button(tr("Reset"))) run_lesson_to(s, 0);
    ImGui::SameLine();
    ImGui::TextDisabled("(← → space)");

    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.85f, 0.55f, 1));
    text_wrapped_cjk(st.title.in(lang_code()));
    ImGui::PopStyleColor();
    const float avail = ImGui::GetContentRegionAvail().y;
    ImGui::BeginChild("narration", ImVec2(0, avail * 0.42f), true);
    text_wrapped_cjk(st.narration.in(lang_code()));
    ImGui::EndChild();

    ImGui::TextDisabled("%s", tr("Code"));
    const StepOutput* out = s.outputs.size() > static_cast<size_t>(s.current_step)
                                ? &s.outputs[static_cast<size_t>(s.current_step)]
                                : nullptr;
    ImGui::BeginChild("code", ImVec2(0, ImGui::GetContentRegionAvail().y * 0.45f), true,
                      ImGuiWindowFlags_HorizontalScrollbar);
    draw_code_listing(st.code, s.running_line, out && !out->error.empty() ? out->error_line : 0,
                      out ? out->error_col : 0);
    ImGui::EndChild();

    ImGui::TextDisabled("%s", tr("Output"));
    ImGui::BeginChild("output", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    if (out) {
      ImGui::TextUnformatted(out->text.c_str());
      if (!out->error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", out->error.c_str());
    }
    ImGui::EndChild();
  }
};

}  // namespace

std::unique_ptr<View> make_lesson_browser_view() { return std::make_unique<LessonBrowserView>(); }
std::unique_ptr<View> make_lesson_player_view() { return std::make_unique<LessonPlayerView>(); }

}  // namespace ipt::gui
