// The Schema view's pipeline section (see schema_pipeline.h).
//
// [SECTION] index
//   helpers        numbered listings, badges
//   sections       YAML entry, parsed schema, generated code, registrations, derivative, dispatch
//                  table; the check
#include "app/gui/views/schema_pipeline.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/i18n.h"
#include "app/gui/views/widgets.h"
#include "core/ops/generated_sources.h"

namespace ipt::gui {

namespace {

// [SECTION] helpers ----------------------------------------------------------------------

const ImVec4 kHandWritten(1.0f, 0.72f, 0.35f, 1.0f);  // what a person wrote
const ImVec4 kGenerated(0.55f, 0.78f, 1.0f, 1.0f);    // what the generator wrote
const ImVec4 kViolation(1.0f, 0.45f, 0.4f, 1.0f);

// Lines numbered from `first`, the line `mark` highlighted; returns the marked line's top y.
float numbered_lines(const std::vector<std::string_view>& lines, int first, int mark) {
  ListingMarks marks;
  marks.mark = mark;
  marks.mark_color = IM_COL32(200, 160, 40, 90);
  marks.digits = 5;
  return code_listing(lines, first, marks);
}

void file_label(const SourceSite& s) { ImGui::TextDisabled("%s", s.str().c_str()); }

void origin(bool hand_written) {
  ImGui::TextColored(hand_written ? kHandWritten : kGenerated, "%s",
                     hand_written ? tr("calls hand-written code") : tr("generated wrapper"));
}

// [SECTION] sections ---------------------------------------------------------------------

void yaml_section(const OpSources& src) {
  ImGui::TextColored(kHandWritten, "%s", tr("hand-written"));
  ImGui::SameLine();
  file_label(src.yaml);
  numbered_lines(split_lines(src.yaml_entry), src.yaml.line, 0);
}

void parsed_section(const OpSources& src, const std::string& canonical) {
  ImGui::TextWrapped("%s", canonical.c_str());
  if (src.schema_registration.found()) {
    ImGui::TextDisabled("%s", tr("registered by"));
    ImGui::SameLine();
    ImGui::TextColored(kGenerated, "%s", tr("generated"));
    ImGui::SameLine();
    file_label(src.schema_registration);
  }
}

// generated_definition, found once per pipeline shown: drawn every frame, it would rescan the file.
const Definition& definition_of(PipelineState& st, const std::string& file, const std::string& name) {
  auto [it, fresh] = st.definitions.try_emplace(file + " " + name);
  if (fresh) it->second = generated_definition(file, name);
  return it->second;
}

// A generated definition, folded under one line naming it and its site.
void definition_node(const char* label, const SourceSite& site, const std::string& name, PipelineState& st) {
  if (!site.found()) return;
  const std::string head = std::string(tr(label)) + "  " + name + "###" + site.str();
  const bool open = ImGui::TreeNode(head.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("%s", site.str().c_str());
  if (!open) return;
  const Definition& d = definition_of(st, site.file, name);
  if (d.first > 0) {
    const float rows = std::min(18.0f, static_cast<float>(d.lines.size()) + 1);
    ImGui::BeginChild(("def_" + site.str()).c_str(), ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing()), true,
                      ImGuiWindowFlags_HorizontalScrollbar);
    numbered_lines(d.lines, d.first, 0);
    ImGui::EndChild();
  }
  ImGui::TreePop();
}

void generated_section(const OpSources& src, PipelineState& st) {
  ImGui::TextColored(kGenerated, "%s", tr("generated"));
  ImGui::SameLine();
  ImGui::TextDisabled("%s %s", tr("C++ name"), src.id.c_str());
  if (src.declaration.found()) {
    const SourceLines l = generated_source_lines(src.declaration.file, src.declaration.line, src.declaration.line);
    ImGui::TextDisabled("%s", tr("declaration"));
    ImGui::SameLine();
    file_label(src.declaration);
    numbered_lines(l.lines, l.first, 0);
  }
  definition_node("Python binding", src.python_binding, "op_" + src.id, st);
  if (src.backward_node.found()) definition_node("backward node", src.backward_node, src.id + "_Node", st);
  else ImGui::TextDisabled("%s", tr("No backward node: the operator has no derivative formula of its own."));
}

void kernel_details(const KernelSite& k, PipelineState& st) {
  ImGui::Indent();
  const float y = numbered_lines(k.block, k.block_first, k.at.line);
  if (st.scroll_to_open && y >= 0) {
    ImGui::SetScrollFromPosY(y - ImGui::GetScrollY(), 0.3f);
    st.scroll_to_open = false;
  }
  if (!k.wrapper.empty()) {
    ImGui::TextColored(kGenerated, "%s %s", tr("generated wrapper"), k.wrapper.c_str());
    const Definition& d = definition_of(st, k.at.file, k.wrapper);
    if (d.first > 0) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s:%d", k.at.file.c_str(), d.first);
      const std::string id = "def_" + k.at.str();
      ImGui::BeginChild(
          id.c_str(),
          ImVec2(0, std::min(18.0f, static_cast<float>(d.lines.size()) + 1) * ImGui::GetTextLineHeightWithSpacing()),
          true, ImGuiWindowFlags_HorizontalScrollbar);
      numbered_lines(d.lines, d.first, 0);
      ImGui::EndChild();
    }
  }
  for (const auto& h : k.hand_written)
    ImGui::TextColored(kHandWritten, "%s: %s", tr("calls hand-written code"), h.c_str());
  ImGui::Unindent();
}

void registrations_section(const OpSources& src, PipelineState& st) {
  ImGui::TextDisabled("%s", tr("Each line the build wrote to register a kernel; click one to read it."));
  const KernelSite* open = nullptr;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("registrations", 4, flags)) {
    ImGui::TableSetupColumn(tr("key"));
    ImGui::TableSetupColumn(tr("registered at"));
    ImGui::TableSetupColumn(tr("kernel"));
    ImGui::TableSetupColumn(tr("code"), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const KernelSite& k : src.kernels) {
      const std::string site = k.at.str();
      const bool is_open = st.open_site == site;
      if (is_open) open = &k;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(site.c_str());
      if (ImGui::Selectable(k.key.c_str(), is_open, ImGuiSelectableFlags_SpanAllColumns))
        st.open_site = is_open ? "" : site;
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      const std::string shown = site.substr(site.find_last_of('/') + 1);
      ImGui::TextDisabled("%s", shown.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", site.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(k.name.c_str());
      ImGui::TableSetColumnIndex(3);
      origin(k.wrapper.empty() && !k.hand_written.empty());
    }
    ImGui::EndTable();
  }
  if (open) {
    ImGui::Spacing();
    ImGui::Text("%s  %s", open->key.c_str(), open->at.str().c_str());
    kernel_details(*open, st);
  }
}

void derivative_section(const OpSources& src) {
  if (!src.derivative.found()) {
    ImGui::TextDisabled("%s",
                        tr("No derivative formula: autograd composes it, or the operator is not differentiable."));
    return;
  }
  ImGui::TextColored(kHandWritten, "%s", tr("hand-written"));
  ImGui::SameLine();
  file_label(src.derivative);
  numbered_lines(split_lines(src.derivative_entry), src.derivative.line, 0);
}

void table_section(const OpSources& src, const trace::DispatchTable* t, PipelineState& st) {
  if (!t) {
    ImGui::TextDisabled("%s", tr("The operator has not run in this recording: no dispatch table recorded."));
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("schema_dispatch_table", 3, flags)) return;
  ImGui::TableSetupColumn(tr("key"));
  ImGui::TableSetupColumn(tr("kind"));
  ImGui::TableSetupColumn(tr("registered at"), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const auto& r : t->rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(r.key.name().c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextDisabled("%s%s", r.fallthrough ? "fallthrough · " : "", r.kind);
    ImGui::TableSetColumnIndex(2);
    const bool ours = std::any_of(src.kernels.begin(), src.kernels.end(),
                                  [&](const KernelSite& k) { return k.at.str() == r.registered_at; });
    if (ours) {
      ImGui::PushID(&r);
      ImGui::PushStyleColor(ImGuiCol_Text, kGenerated);
      if (ImGui::Selectable(r.registered_at)) st.open_site = r.registered_at, st.scroll_to_open = true;
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Open this registration above"));
      ImGui::PopID();
    } else {
      ImGui::TextUnformatted(r.registered_at);
    }
  }
  ImGui::EndTable();
}

void check_section(const trace::SchemaCheck* c) {
  if (c->findings.empty()) {
    ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "%s",
                       tr("The last call kept its schema's promises: nothing written, nothing aliased."));
    return;
  }
  for (const auto& f : c->findings) {
    const bool bad = trace::is_violation(f.kind);
    ImGui::TextColored(bad ? kViolation : ImVec4(0.6f, 0.85f, 0.6f, 1), "%s %s", bad ? "×" : "•", f.kind);
    ImGui::SameLine();
    ImGui::TextDisabled("%s", f.argument);
    ImGui::Indent();
    ImGui::TextWrapped("%s", f.message);
    ImGui::Unindent();
  }
}

bool header(const char* label) { return ImGui::CollapsingHeader(tr(label), ImGuiTreeNodeFlags_DefaultOpen); }

}  // namespace

void draw_schema_pipeline(const OpSources& src, const std::string& canonical, const trace::DispatchTable* table,
                          PipelineState& st) {
  if (header("1  YAML entry")) yaml_section(src);
  if (header("2  Parsed schema")) parsed_section(src, canonical);
  if (header("3  Generated code")) generated_section(src, st);
  if (header("4  Generated registrations")) registrations_section(src, st);
  if (header("5  Derivative formula")) derivative_section(src);
  if (header("6  Dispatch table")) table_section(src, table, st);
}

void draw_schema_check(const trace::SchemaCheck* check) {
  if (!check) {  // one quiet line: most runs are not checked
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", tr("No check recorded for this operator: run it under the schema check mode "
                                 "(SchemaCheckMode, or IPT_SCHEMA_CHECK=1)."));
    ImGui::PopTextWrapPos();
    return;
  }
  if (header("Schema check at the last call")) check_section(check);
}

}  // namespace ipt::gui
