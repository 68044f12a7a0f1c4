// The Schema view: one operator schema, typed, picked or followed from the trace, read as the
// dispatcher reads it — its arguments and returns as a table, alias sets drawn as links
// between the arguments and the returns they may alias (written ones in red), its kind and
// why; for an operator the project has, the pipeline it went through and its last schema
// check (schema_pipeline.cpp).
//
// Note [What the Schema view shows]
// The text shown is, in order of precedence: a followed link (a ShowOperator request, from the
// Dispatch view's "registered at"), the operator of a dispatcher call selected in another
// view, what the reader typed or picked, and — when the shown step changes and the reader has
// not typed since — the step's last top-level dispatcher call. Whatever was typed stays as
// typed: a malformed text shows the parser's column and message under it and nothing else
// changes. The model is core/views/schema_model (a pure function of the text); the trace is
// searched once per document for the operators' dispatch tables and schema checks.
//
// [SECTION] index
//   model        operator -> schema text, recorded tables and checks
//   picker       the project's operators and PyTorch 2.15's 2,590, filtered
//   view         following the trace and the selection, input line, error caret
//   rows         arguments and returns, with the alias links drawn in a gutter
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/gui/i18n.h"
#include "app/gui/views/schema_pipeline.h"
#include "app/gui/views/views.h"
#include "core/ops/generated_sources.h"
#include "core/ops/op_sources.h"
#include "core/views/dispatch_model.h"
#include "core/views/schema_model.h"

namespace ipt::gui {

namespace {

using schema::FunctionSchema;

// [SECTION] model ------------------------------------------------------------------------

// The trace's "dispatch table" events by operator (the first one), and each operator's
// "schema check" events in order (the view shows the last one up to the shown step's end).
struct Recorded {
  std::unordered_map<std::string, const trace::DispatchTable*> tables;
  std::unordered_map<std::string, std::vector<std::pair<size_t, const trace::SchemaCheck*>>> checks;
};

Recorded index_trace(const std::vector<trace::Event>& events) {
  Recorded r;
  for (size_t i = 0; i < events.size(); ++i) {
    const trace::Event& e = events[i];
    if (const auto* d = std::get_if<trace::DispatchTable>(&e.payload)) r.tables.emplace(d->op, d);
    else if (const auto* c = std::get_if<trace::SchemaCheck>(&e.payload)) r.checks[c->op].emplace_back(i, c);
  }
  return r;
}

const trace::SchemaCheck* last_check(const Recorded& r, const std::string& op, size_t before) {
  auto it = r.checks.find(op);
  if (it == r.checks.end()) return nullptr;
  // In event order, so the last one before `before` is found by bisection (a checked run may
  // record millions).
  const auto& v = it->second;
  auto after = std::lower_bound(v.begin(), v.end(), before, [](const auto& e, size_t b) { return e.first < b; });
  return after == v.begin() ? nullptr : std::prev(after)->second;
}

ImVec4 kind_color(FunctionSchema::Kind k) {
  switch (k) {
    case FunctionSchema::Kind::Functional: return ImVec4(0.35f, 0.65f, 0.4f, 1);
    case FunctionSchema::Kind::Inplace: return ImVec4(0.85f, 0.55f, 0.2f, 1);
    case FunctionSchema::Kind::Out: return ImVec4(0.55f, 0.45f, 0.85f, 1);
    case FunctionSchema::Kind::Mutable: return ImVec4(0.8f, 0.3f, 0.3f, 1);
  }
  return ImVec4(0.5f, 0.5f, 0.5f, 1);
}

ImU32 set_color(const std::string& set, bool write) {
  if (write) return IM_COL32(235, 95, 80, 255);
  static const ImU32 palette[] = {IM_COL32(90, 160, 240, 255), IM_COL32(120, 200, 140, 255),
                                  IM_COL32(200, 150, 240, 255), IM_COL32(230, 200, 90, 255)};
  return palette[std::hash<std::string>{}(set) % 4];
}

// [SECTION] picker -----------------------------------------------------------------------

struct Picker {
  std::vector<std::string> ours, theirs;  // loaded at the first opening
  char filter[128] = "";
  int source = 0;  // 0: this project, 1: PyTorch 2.15
  std::vector<int> shown;
  std::string shown_for;
  int shown_source = -1;

  // Draws the popup; returns the picked schema text or "".
  std::string draw() {
    std::string picked;
    if (!ImGui::BeginPopup("schema_picker")) return picked;
    if (ours.empty()) ours = yaml_schemas(), theirs = pytorch_schemas();
    const std::string a = std::string(tr("This project")) + " (" + std::to_string(ours.size()) + ")";
    const std::string b = std::string(tr("PyTorch 2.15")) + " (" + std::to_string(theirs.size()) + ")";
    ImGui::RadioButton(a.c_str(), &source, 0);
    ImGui::SameLine();
    ImGui::RadioButton(b.c_str(), &source, 1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    ImGui::InputTextWithHint("##filter", tr("filter: add, (a!), out ..."), filter, sizeof filter);
    const auto& list = source == 0 ? ours : theirs;
    if (shown_for != filter || shown_source != source) {
      shown_for = filter, shown_source = source;
      shown.clear();
      for (size_t i = 0; i < list.size(); ++i)
        if (list[i].find(filter) != std::string::npos) shown.push_back(static_cast<int>(i));
    }
    ImGui::TextDisabled("%zu", shown.size());
    ImGui::BeginChild("picker_list", ImVec2(ImGui::GetFontSize() * 46, ImGui::GetFontSize() * 22), true,
                      ImGuiWindowFlags_HorizontalScrollbar);
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(shown.size()));
    while (clip.Step())
      for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
        const std::string& s = list[static_cast<size_t>(shown[static_cast<size_t>(r)])];
        ImGui::PushID(r);
        if (ImGui::Selectable(s.c_str())) picked = s;
        ImGui::PopID();
      }
    ImGui::EndChild();
    if (!picked.empty()) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return picked;
  }
};

// [SECTION] view -------------------------------------------------------------------------

const std::string kNone;

class SchemaView : public View {
 public:
  const char* id() const override { return "schema"; }
  const char* title() const override { return "Schema"; }
  void default_rect(float& x, float& y, float& w, float& h) const override {
    x = 0.56f, y = 0.0f, w = 0.44f, h = 0.62f;
  }

  void draw_content(ViewContext& c) override {
    follow(c);
    draw_input();
    if (failed_.error.size()) draw_error();
    if (!model_.ok) return;
    if (failed_.error.size()) {
      ImGui::Separator();
      ImGui::TextDisabled("%s", tr("The last schema that parsed:"));
      ImGui::TextDisabled("%s", model_.canonical.c_str());
    }
    draw_kind();
    ImGui::BeginChild("schema_body", ImVec2(0, 0), false);
    draw_rows();
    ImGui::Spacing();
    if (src_.found()) {
      draw_schema_check(last_check(recorded_, src_.op, c.doc.last));
      auto t = recorded_.tables.find(src_.op);
      draw_schema_pipeline(src_, model_.canonical, t == recorded_.tables.end() ? nullptr : t->second, pipeline_);
    } else {
      ImGui::TextDisabled("%s", tr("Not an operator of this project: only its schema is shown."));
    }
    ImGui::EndChild();
  }

 private:
  char buf_[2048] = "";
  std::string parsed_;
  views::SchemaModel model_;   // the last text that parsed (what the view shows)
  views::SchemaModel failed_;  // the text typed since, when it does not parse (error empty: none)
  OpSources src_;
  Recorded recorded_;
  uint64_t rec_gen_ = UINT64_MAX, step_gen_ = UINT64_MAX;
  size_t step_first_ = 0, step_last_ = 0;
  std::optional<size_t> seen_event_;
  bool edited_ = false;
  Picker picker_;
  PipelineState pipeline_;

  // The schema text of an operator: as its recorded dispatch table has it, else its YAML line.
  std::string schema_of(const std::string& op) const {
    auto t = recorded_.tables.find(op);
    if (t != recorded_.tables.end() && *t->second->schema) return t->second->schema;
    const std::optional<std::string> entry = schema_yaml_entry(op);  // not op_sources: reparse finds those
    if (!entry) return "";
    std::string line = entry->substr(0, entry->find('\n'));
    return line.rfind("- func: ", 0) == 0 ? line.substr(8) : line;
  }

  void show(const std::string& text) {
    std::snprintf(buf_, sizeof buf_, "%s", text.c_str());
    reparse();
  }

  bool show_op(const std::string& op) {
    std::string s = schema_of(op.find("::") == std::string::npos ? "aten::" + op : op);
    if (!s.empty()) show(s);
    return !s.empty();
  }

  void reparse() {
    if (parsed_ == buf_) return;
    parsed_ = buf_;
    views::SchemaModel m = views::schema_model(parsed_);
    if (!m.ok) {
      failed_ = std::move(m);
      if (failed_.error.empty()) failed_.error = "malformed schema";
      return;
    }
    failed_ = views::SchemaModel{};
    const std::string op = views::qualified_name(m.schema);
    if (op != src_.op) src_ = op_sources(op), pipeline_ = PipelineState{};
    model_ = std::move(m);
  }

  // Note [What the Schema view shows].
  void follow(ViewContext& c) {
    const TraceDoc& doc = c.doc;
    if (rec_gen_ != doc.generation) rec_gen_ = doc.generation, recorded_ = index_trace(doc.events);
    follow_step(c);
    // A link, after the step: it wins (Note [Views ask each other by typed requests]).
    if (std::optional<ShowOperator> asked = c.requests.take<ShowOperator>()) {
      if (asked->op.find('(') != std::string::npos || !show_op(asked->op)) show(asked->op);  // kept as asked
      pipeline_.open_site = asked->site;
      pipeline_.scroll_to_open = true;
      edited_ = false;
    } else if (c.sel.event != seen_event_) {
      seen_event_ = c.sel.event;
      if (c.sel.event && *c.sel.event < doc.events.size())
        if (const auto* d = std::get_if<trace::DispatchStep>(&doc.events[*c.sel.event].payload)) {
          show_op(d->op);
          edited_ = false;
        }
    }
  }

  // A new step shows what the lesson step names, else its last top-level dispatcher call.
  void follow_step(ViewContext& c) {
    const TraceDoc& doc = c.doc;
    if (step_gen_ == doc.generation && step_first_ == doc.first && step_last_ == doc.last) return;
    const bool same_run = step_gen_ == doc.generation;
    step_gen_ = doc.generation, step_first_ = doc.first, step_last_ = doc.last;
    if (edited_ && same_run) return;  // stepping through a loaded trace keeps what was typed
    edited_ = false;
    const AppState& s = c.state;
    const std::string& asked = s.lesson && !s.show_playground && s.trace_path.empty()
                                   ? s.lesson->steps[static_cast<size_t>(s.current_step)].schema
                                   : kNone;
    if (!asked.empty()) {
      if (asked.find('(') != std::string::npos || !show_op(asked)) show(asked);
      return;
    }
    const auto forest = views::dispatch_forest(doc.events, doc.first, doc.last);
    if (!forest.empty()) show_op(forest.back().step->op);
    else if (!buf_[0]) show("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  }

  void draw_input() {
    const float pick_w = ImGui::CalcTextSize(tr("Pick…")).x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - pick_w - ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::InputTextWithHint("##schema", tr("type a schema: name.overload(args) -> returns"), buf_, sizeof buf_)) {
      edited_ = true;
      reparse();
    }
    ImGui::SameLine();
    if (ImGui::Button(tr("Pick…"))) ImGui::OpenPopup("schema_picker");
    std::string picked = picker_.draw();
    if (!picked.empty()) {
      show(picked);
      edited_ = true;
    }
  }

  void draw_error() {
    // The caret goes under the column, measured in the input's own font.
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float x =
        ImGui::GetStyle().FramePadding.x +
        ImGui::CalcTextSize(parsed_.c_str(), parsed_.c_str() + std::min(failed_.error_column, parsed_.size())).x;
    const ImU32 red = IM_COL32(255, 110, 100, 255);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float s = ImGui::GetFontSize() * 0.35f;
    dl->AddTriangleFilled(ImVec2(p.x + x, p.y), ImVec2(p.x + x - s, p.y + s * 1.6f),
                          ImVec2(p.x + x + s, p.y + s * 1.6f), red);
    ImGui::Dummy(ImVec2(0, s * 1.8f));
    // The message's first line; the rest repeats the text with a caret for a fixed-width
    // terminal, which the triangle above replaces.
    const std::string first = failed_.error.substr(0, failed_.error.find('\n'));
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "RuntimeError: %s", first.c_str());
    if (!failed_.error_detail.empty() && first.find(failed_.error_detail) == std::string::npos)
      ImGui::TextDisabled("%s", failed_.error_detail.c_str());
    ImGui::PopTextWrapPos();
  }

  void draw_kind() {
    const char* k = schema::kind_name(model_.kind);
    ImGui::PushStyleColor(ImGuiCol_Button, kind_color(model_.kind));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, kind_color(model_.kind));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, kind_color(model_.kind));
    ImGui::SmallButton(tr(k));
    ImGui::PopStyleColor(3);
    ImGui::SameLine();
    std::string why = tr(views::kind_reason_text(model_.reason));
    for (size_t i = 0; i < model_.because.size(); ++i) why += (i ? ", " : "  (") + model_.because[i];
    if (!model_.because.empty()) why += ")";
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(why.c_str());
    ImGui::PopTextWrapPos();
  }

  // [SECTION] rows ------------------------------------------------------------------------

  bool is_because(const std::string& name) const {
    return std::find(model_.because.begin(), model_.because.end(), name) != model_.because.end();
  }

  static std::string notes(const views::SchemaRow& r) {
    std::string n;
    auto add = [&](const std::string& s) { n += (n.empty() ? "" : " · ") + s; };
    if (r.is_out) add(tr("out="));
    else if (r.kwarg_only) add(tr("keyword-only"));
    if (r.write) add(tr("written"));
    for (const auto& s : r.sets) add(std::string(tr("alias set")) + " " + s);
    if (!r.after.empty() && r.after != r.sets) add("→ " + r.after.front());
    return n;
  }

  void draw_rows() {
    const float gutter = 18.0f + 10.0f * static_cast<float>(model_.links.size());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuter |
                                  ImGuiTableFlags_SizingFixedFit;
    std::vector<float> arg_y(model_.args.size()), ret_y(model_.returns.size());
    float gutter_x = 0;
    if (!ImGui::BeginTable("schema_rows", 5, flags)) return;
    ImGui::TableSetupColumn("##links", ImGuiTableColumnFlags_WidthFixed, gutter);
    ImGui::TableSetupColumn(tr("name"));
    ImGui::TableSetupColumn(tr("type"));
    ImGui::TableSetupColumn(tr("default"));
    ImGui::TableSetupColumn(tr("notes"), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    auto section = [&](const char* label) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(1);
      ImGui::TextDisabled("%s", tr(label));
    };
    auto row = [&](const views::SchemaRow& r, float& y, const std::string& fallback_name) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      gutter_x = ImGui::GetCursorScreenPos().x;
      y = ImGui::GetCursorScreenPos().y + ImGui::GetTextLineHeight() * 0.5f;
      if (r.write) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(190, 70, 60, 70));
      else if (is_because(r.name)) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(200, 160, 40, 60));
      ImGui::TableSetColumnIndex(1);
      if (r.name.empty()) ImGui::TextDisabled("%s", fallback_name.c_str());
      else ImGui::TextUnformatted(r.name.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(r.type.c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(r.default_value.c_str());
      ImGui::TableSetColumnIndex(4);
      ImGui::TextDisabled("%s", notes(r).c_str());
    };
    section("arguments");
    if (model_.args.empty()) section("(none)");
    for (size_t i = 0; i < model_.args.size(); ++i) row(model_.args[i], arg_y[i], "");
    section("returns");
    if (model_.returns.empty()) section("(none)");
    for (size_t i = 0; i < model_.returns.size(); ++i) row(model_.returns[i], ret_y[i], "#" + std::to_string(i));
    ImGui::EndTable();
    draw_links(gutter_x, gutter, arg_y, ret_y);
    if (!model_.links.empty())
      ImGui::TextDisabled(
          "%s", tr("Links: an argument and a return with an alias set in common may share memory; red: written."));
  }

  void draw_links(float x0, float gutter, const std::vector<float>& arg_y, const std::vector<float>& ret_y) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float right = x0 + gutter - 4.0f;
    for (size_t i = 0; i < model_.links.size(); ++i) {
      const views::AliasLink& l = model_.links[i];
      if (l.arg >= arg_y.size() || l.ret >= ret_y.size()) continue;
      const ImU32 col = set_color(l.set, l.write);
      const float x = x0 + 4.0f + 10.0f * static_cast<float>(i);
      const float ya = arg_y[l.arg], yr = ret_y[l.ret];
      const float th = l.write ? 2.5f : 1.5f;
      dl->AddLine(ImVec2(right, ya), ImVec2(x, ya), col, th);
      dl->AddLine(ImVec2(x, ya), ImVec2(x, yr), col, th);
      dl->AddLine(ImVec2(x, yr), ImVec2(right, yr), col, th);
      dl->AddTriangleFilled(ImVec2(right + 3, yr), ImVec2(right - 3, yr - 4), ImVec2(right - 3, yr + 4), col);
      dl->AddText(ImVec2(x + 2, (ya + yr) * 0.5f - ImGui::GetFontSize() * 0.5f), col, l.set.c_str());
    }
  }
};

}  // namespace

std::unique_ptr<View> make_schema_view() { return std::make_unique<SchemaView>(); }

}  // namespace ipt::gui
