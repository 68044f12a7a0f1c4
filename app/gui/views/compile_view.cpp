// The Compile view: what torch.compile did in the run, compile by compile.
//
// Note [What the Compile view shows]
// On the left, every compiled frame (a function, or a resume function after a graph break)
// and its compiles [0/0], [0/1], ...; a recompile says which guard sent it there. On the
// right, the chosen compile: why it happened; the frame's source with the graph break marked
// on the user's line; the captured graph, its lines tinted by the kernel the lowering fused
// them into; the guards, the ones a later call failed in red with their expected and actual
// values; AOTAutograd's forward and backward graphs; the fusion decisions; the generated code;
// and the time of each phase and the cache hits since. It reads the trace's `compile` events
// only (core/views/compile_model), so a saved trace shows the same. It opens at the last
// compile of the shown step (or before it).
//
// [SECTION] index
//   model     the compile model of the events up to the shown step's end, built once
//   list      frames and their compiles
//   details   the chosen compile's sections
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>

#include "app/gui/i18n.h"
#include "app/gui/views/code_text.h"
#include "app/gui/views/views.h"
#include "core/views/compile_model.h"

namespace ipt::gui {

namespace {

const ImVec4 kRed(0.95f, 0.4f, 0.4f, 1);
const ImVec4 kDim(0.6f, 0.6f, 0.6f, 1);

// A kernel's tint: its number in the graph picks it, so a kernel has one colour in every listing.
ImU32 kernel_tint(int kernel_index) {
  static const ImU32 tints[] = {IM_COL32(60, 110, 180, 90), IM_COL32(60, 160, 90, 90),  IM_COL32(170, 120, 40, 90),
                                IM_COL32(150, 70, 160, 90), IM_COL32(40, 150, 150, 90), IM_COL32(170, 70, 70, 90)};
  return tints[static_cast<size_t>(std::max(kernel_index, 0)) % (sizeof(tints) / sizeof(tints[0]))];
}

// "fn (/some/dir/prog.py:3)" -> "fn (prog.py:3)": the list is narrow.
std::string short_frame(const std::string& frame) {
  const size_t open = frame.find(" (");
  const size_t slash = frame.rfind('/');
  if (open == std::string::npos || slash == std::string::npos || slash < open) return frame;
  return frame.substr(0, open + 2) + frame.substr(slash + 1);
}

std::string ms(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

class CompileView final : public View {
 public:
  const char* id() const override { return "compile"; }
  const char* title() const override { return "Compile"; }
  void default_rect(float& x, float& y, float& w, float& h) const override {
    x = 0.56f;
    y = 0.03f;
    w = 0.44f;
    h = 0.6f;
  }

  void draw_content(ViewContext& c) override {
    refresh(c);
    if (model_.compiles.empty()) {
      draw_empty_state(
          tr("No torch.compile in this run yet. Compile a function (torch.compile(fn)) and call it: "
             "each compile of each frame shows here."));
      return;
    }
    ImGui::BeginChild("frames", ImVec2(ImGui::GetFontSize() * 14, 0), true);
    draw_list();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("details", ImVec2(0, 0), false);
    if (chosen_ < model_.compiles.size()) draw_details(model_.compiles[chosen_]);
    ImGui::EndChild();
  }

 private:
  // [SECTION] model ------------------------------------------------------------------------
  void refresh(ViewContext& c) {
    if (generation_ == c.doc.generation && last_ == c.doc.last) return;
    const bool new_doc = generation_ != c.doc.generation;
    generation_ = c.doc.generation;
    last_ = c.doc.last;
    model_ = views::build_compile_model(c.doc.events, 0, c.doc.last);
    // Open at the last compile of the shown step, else the last one before it.
    if (new_doc || chosen_ >= model_.compiles.size())
      chosen_ = model_.compiles.empty() ? 0 : model_.compiles.size() - 1;
  }

  // [SECTION] list -------------------------------------------------------------------------
  void draw_list() {
    for (const auto& fr : model_.frames) {
      const std::vector<size_t>& compiles = fr.compiles;
      const views::CompileRecord& first = model_.compiles[compiles.front()];
      char label[320];
      char after[64] = "";
      if (fr.epoch > 0) std::snprintf(after, sizeof after, " (%s %d)", tr("after reset"), fr.epoch);
      std::snprintf(label, sizeof label, "%s %d%s: %s###frame%d_%d", tr("frame"), fr.frame_id, after,
                    short_frame(first.frame).c_str(), fr.epoch, fr.frame_id);
      ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
      if (!ImGui::TreeNode(label)) continue;
      for (size_t k : compiles) {
        const views::CompileRecord& r = model_.compiles[k];
        std::string item = "[" + r.compile_id + "]";
        if (r.graph_break) item += std::string("  ") + tr("graph break");
        else if (!r.reasons.empty()) item += std::string("  ") + tr("recompile");
        if (ImGui::Selectable((item + "###c" + std::to_string(r.epoch) + "_" + r.compile_id).c_str(), chosen_ == k))
          chosen_ = k;
        if (ImGui::IsItemHovered() && !r.reasons.empty()) {
          ImGui::BeginTooltip();
          for (const auto& f : r.reasons)
            ImGui::TextUnformatted(
                ("- " + views::compile_id_text(f.frame_id, f.compile_index) + ": " + f.reason).c_str());
          ImGui::EndTooltip();
        }
      }
      ImGui::TreePop();
    }
    ImGui::Separator();
    ImGui::TextColored(kDim, "%s: %lld", tr("cache misses"), static_cast<long long>(model_.cache_misses));
  }

  // [SECTION] details ----------------------------------------------------------------------
  void draw_details(const views::CompileRecord& r) {
    ImGui::Text("[%s]  %s", r.compile_id.c_str(), r.frame.c_str());
    if (r.last_check_ns >= 0)
      ImGui::TextColored(kDim, "%s %lld   %s %lld ns (%s %d)", tr("cache hits:"), static_cast<long long>(r.hits),
                         tr("last guard check:"), static_cast<long long>(r.last_check_ns), tr("cache entries:"),
                         r.last_entries);
    else ImGui::TextColored(kDim, "%s %lld", tr("cache hits:"), static_cast<long long>(r.hits));
    if (!r.phases.empty()) {
      std::string p;
      for (const auto& ph : r.phases) p += (p.empty() ? "" : "   ") + ph.name + " " + ms(ph.ns);
      ImGui::TextColored(kDim, "%s", p.c_str());
    }
    if (!r.reasons.empty()) {
      ImGui::TextColored(kRed, "%s", tr("Recompiled: no cache entry's guards held"));
      for (const auto& f : r.reasons)
        ImGui::BulletText("%s: %s", views::compile_id_text(f.frame_id, f.compile_index).c_str(), f.reason.c_str());
    }
    if (!r.source.empty() && ImGui::CollapsingHeader(tr("Source"), ImGuiTreeNodeFlags_DefaultOpen)) draw_source(r);
    const bool aot = !r.aot_forward.empty();
    if (!r.graph.empty() && ImGui::CollapsingHeader(tr("Captured graph"), ImGuiTreeNodeFlags_DefaultOpen))
      draw_fused("graph", r.graph, aot || r.fusion.empty() ? nullptr : &r.fusion[0]);
    if (!r.guards.empty() && ImGui::CollapsingHeader(tr("Guards"), ImGuiTreeNodeFlags_DefaultOpen)) draw_guards(r);
    if (aot && ImGui::CollapsingHeader(tr("AOTAutograd: forward graph"), ImGuiTreeNodeFlags_DefaultOpen))
      draw_fused("aot_fw", r.aot_forward, r.fusion.size() > 0 ? &r.fusion[0] : nullptr);
    if (!r.aot_backward.empty() &&
        ImGui::CollapsingHeader(tr("AOTAutograd: backward graph"), ImGuiTreeNodeFlags_DefaultOpen))
      draw_fused("aot_bw", r.aot_backward, r.fusion.size() > 1 ? &r.fusion[1] : nullptr);
    if (!r.fusion.empty() && ImGui::CollapsingHeader(tr("Fusion decisions"))) draw_decisions(r);
    if (!r.output_code.empty() && ImGui::CollapsingHeader(tr("Generated code")))
      draw_code_text("output_code", r.output_code, ImGui::GetFontSize() * 30);
  }

  void draw_source(const views::CompileRecord& r) {
    const views::GraphBreakInfo* b = r.graph_break ? &*r.graph_break : nullptr;
    std::string text;
    for (size_t i = 0; i < r.source.size(); ++i) {
      char num[16];
      std::snprintf(num, sizeof num, "%4d  ", r.first_line + static_cast<int>(i));
      text += num + r.source[i] + "\n";
    }
    draw_code_text("source", text, ImGui::GetFontSize() * 14, [&](int i, const std::string&) {
      CodeLineStyle st;
      if (b && b->file == r.file && b->line == r.first_line + i) {
        st.background = IM_COL32(170, 50, 50, 110);
        st.tooltip = std::string(tr("Graph break here: ")) + b->reason;
      }
      return st;
    });
    if (b) {
      ImGui::TextColored(kRed, "%s %s:%d", tr("Graph break at"), b->file.c_str(), b->line);
      ImGui::TextWrapped("%s", b->reason.c_str());
    }
  }

  void draw_fused(const char* id, const std::string& code, const std::vector<trace::FusionDecision>* decisions) {
    std::unordered_map<std::string, const trace::FusionDecision*> by_node;
    if (decisions)
      for (const trace::FusionDecision& d : *decisions) by_node[d.node] = &d;
    draw_code_text(id, code, ImGui::GetFontSize() * 18, [&](int, const std::string& line) {
      CodeLineStyle st;
      const std::string name = views::defined_name(line);
      auto it = by_node.find(name);
      if (it != by_node.end()) {
        if (it->second->kernel[0]) st.background = kernel_tint(it->second->kernel_index);
        st.tooltip = name + ": " + views::fusion_decision_text(*it->second);
      }
      return st;
    });
    if (decisions && !by_node.empty())
      ImGui::TextColored(kDim, "%s",
                         tr("Tinted lines were fused into one kernel (a colour per kernel); hover a line for why."));
  }

  void draw_guards(const views::CompileRecord& r) {
    draw_code_text("guards", r.guards, ImGui::GetFontSize() * 16, [&](int i, const std::string&) {
      CodeLineStyle st;
      if (const views::GuardFailure* f = views::failure_at_line(i, r.failed_later)) {
        st.text = IM_COL32(240, 100, 100, 255);
        st.tooltip = std::string(tr("Failed later: ")) + f->reason;
        if (!f->expected.empty() || !f->actual.empty())
          st.tooltip += std::string("\n") + tr("expected") + " " + f->expected + ", " + tr("actual") + " " + f->actual;
      }
      return st;
    });
    for (const auto& f : r.failed_later)
      ImGui::TextColored(kRed, "%s %s", tr("A later call failed:"), f.reason.c_str());
  }

  void draw_decisions(const views::CompileRecord& r) {
    const char* graphs[] = {"", ""};
    if (!r.aot_forward.empty()) {
      graphs[0] = tr("forward graph");
      graphs[1] = tr("backward graph");
    }
    for (size_t g = 0; g < r.fusion.size(); ++g) {
      if (g < 2 && graphs[g][0]) ImGui::TextColored(kDim, "%s", graphs[g]);
      if (!ImGui::BeginTable(("fusion" + std::to_string(g)).c_str(), 2,
                             ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders))
        continue;
      for (const trace::FusionDecision& d : r.fusion[g]) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        if (d.kernel[0]) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, kernel_tint(d.kernel_index));
        ImGui::TextUnformatted(d.node);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextWrapped("%s", views::fusion_decision_text(d).c_str());
      }
      ImGui::EndTable();
    }
  }

  uint64_t generation_ = ~0ull;
  size_t last_ = ~size_t{0};
  views::CompileModel model_;
  size_t chosen_ = 0;
};

}  // namespace

std::unique_ptr<View> make_compile_view() { return std::make_unique<CompileView>(); }

}  // namespace ipt::gui
