// The Dispatch view: the step's dispatcher calls as a tree; for the selected call, its key sets
// as rows of chips (tensors ∪ included − excluded = merged), the redispatch chain as nested
// boxes, and the operator's own dispatch table with the chain's entries highlighted.
//
// Note [The Dispatch view reads only the trace]
// Like every view, this one is a pure function of the recorded events and the selection: it
// never asks the runtime or the Dispatcher. The calls come from core/views/dispatch_model
// (dispatch_forest); an operator's table comes from the "dispatch table" instant event the
// dispatcher records at the operator's first call (Note [The dispatch table travels with the
// trace]), so it is searched in all events, not only in the step shown. Derived data is
// cached by (generation, first, last); a frame draws only visible list rows and one call.
//
// [SECTION] index
//   model        calls of the step, their chains and badges; tables by operator
//   helpers      small drawing helpers (help marker, badges, colored chains)
//   view         layout (list on top, or on the left when wide), cache, selection, empty states
//   call list    the tree of calls (clipped, expandable)
//   key sets     (dispatch_key_grid.cpp) tensors ∪ included − excluded = merged, as a grid of chips
//   chain        the redispatch chain as nested boxes, with details and nested calls
//   table        the operator's dispatch table
//   details      the selected call: title, schema, badges and the three sections above
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "app/gui/i18n.h"
#include "app/gui/views/dispatch_key_grid.h"
#include "app/gui/views/key_chips.h"
#include "app/gui/views/source_link.h"
#include "app/gui/views/views.h"
#include "app/gui/views/widgets.h"
#include "core/dispatch/dispatch_key_set.h"
#include "core/views/dispatch_model.h"

namespace ipt::gui {

namespace {

using views::DispatchNode;
constexpr size_t npos = static_cast<size_t>(-1);

// [SECTION] model ------------------------------------------------------------------------

uint64_t fbit(Functionality f) { return DispatchKeySet::functionality_bit(f); }

bool is_autograd(Functionality f) {
  return f == Functionality::AutogradFunctionality || f == Functionality::AutogradOther ||
         f == Functionality::AutogradNestedTensor;
}

constexpr uint64_t kAutogradBits = DispatchKeySet::functionality_bit(Functionality::AutogradFunctionality) |
                                   DispatchKeySet::functionality_bit(Functionality::AutogradOther) |
                                   DispatchKeySet::functionality_bit(Functionality::AutogradNestedTensor);

// One call through the dispatcher (an entry call, not a redispatch) with its redispatch chain.
struct Call {
  const DispatchNode* node = nullptr;
  size_t parent = npos;  // the call whose kernel made this one
  int depth = 0;
  std::vector<const DispatchNode*> chain;  // node, then its redispatches of the same operator
  std::vector<size_t> nested;              // calls made by the kernels of the chain, in order
  std::vector<std::string> arg_labels;     // "self", "other", ... (from the tensor snapshots)
  bool grad_off = false;                   // entered Autograd, the autograd kernel saw grad mode off
  bool autograd_excluded = false;          // tensors have Autograd keys, the excluded set removed them
};

struct TableRow {
  std::string key;
  std::optional<DispatchKey> k;
  bool fallthrough = false;
  std::string site;  // FILE:LINE
  std::string kind;  // "kernel", "autograd kernel", ...
};

struct OpTable {
  std::string schema;
  std::vector<TableRow> rows;
};

OpTable op_table(const trace::DispatchTable& d) {
  OpTable t;
  t.schema = d.schema;
  for (const trace::DispatchTableRow& r : d.rows)
    t.rows.push_back(TableRow{r.key.name(), r.key, r.fallthrough, r.registered_at, r.kind});
  return t;
}

void chain_of(const DispatchNode& n, std::vector<const DispatchNode*>& out) {
  out.push_back(&n);
  for (const auto& c : n.children)
    if (c.step->redispatch && std::string_view(c.step->op) == n.step->op) {
      chain_of(c, out);
      return;
    }
}

bool chain_continues(const Call& call, const DispatchNode& child) {
  for (size_t i = 1; i < call.chain.size(); ++i)
    if (call.chain[i] == &child) return true;
  return false;
}

// [SECTION] helpers ----------------------------------------------------------------------

ImU32 lighter(KeyFamily f) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(key_family_color(f));
  c.x = c.x * 0.55f + 0.45f, c.y = c.y * 0.55f + 0.45f, c.z = c.z * 0.55f + 0.45f;
  return ImGui::ColorConvertFloat4ToU32(c);
}

void badge_grad_off() {
  badge(tr("Autograd entered, grad mode off: no graph recorded"), IM_COL32(222, 186, 60, 235),
        IM_COL32(30, 26, 10, 255));
}
void badge_excluded() {
  badge(tr("Autograd keys excluded: the Autograd kernel is skipped"), IM_COL32(62, 120, 210, 235),
        IM_COL32(245, 248, 255, 255));
}

// Draws "K1 → K2 → K3" with each key in its family color; returns the end x.
float draw_chain_keys(ImDrawList* dl, ImVec2 pos, const std::vector<const DispatchNode*>& chain) {
  float x = pos.x;
  const ImU32 arrow = IM_COL32(150, 150, 150, 255);
  for (size_t i = 0; i < chain.size(); ++i) {
    if (i) {
      dl->AddText(ImVec2(x, pos.y), arrow, " → ");
      x += ImGui::CalcTextSize(" → ").x;
    }
    std::string n = chain[i]->step->chosen.name();
    dl->AddText(ImVec2(x, pos.y), lighter(key_family(chain[i]->step->chosen)), n.c_str());
    x += ImGui::CalcTextSize(n.c_str()).x;
  }
  return x;
}

void small_badge_dot(ImDrawList* dl, ImVec2 center, ImU32 col) {
  dl->AddRectFilled(ImVec2(center.x - 4, center.y - 4), ImVec2(center.x + 4, center.y + 4), col, 2.0f);
}

std::string file_name(const std::string& site) {
  size_t s = site.find_last_of('/');
  return s == std::string::npos ? site : site.substr(s + 1);
}

// [SECTION] view -------------------------------------------------------------------------

class DispatchView : public View {
 public:
  const char* id() const override { return "dispatch"; }
  const char* title() const override { return "Dispatch"; }
  void default_rect(float& x, float& y, float& w, float& h) const override {
    x = 0.56f, y = 0.0f, w = 0.44f, h = 0.62f;
  }

  bool shows_events() const override { return true; }
  void draw_content(ViewContext& c) override {
    const TraceDoc& doc = c.doc;
    rebuild(doc);
    resolve_selection(c);
    if (calls_.empty()) {
      draw_empty_state(tr("No dispatcher calls in this step."));
      return;
    }

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float row_h = ImGui::GetTextLineHeightWithSpacing();
    const float split = 6.0f;
    const bool side = avail.x >= 980.0f;
    if (side) {
      const float w = std::clamp(side_frac_ * avail.x, 200.0f, avail.x - 360.0f);
      ImGui::BeginGroup();
      draw_list_header();
      ImGui::BeginChild("calls", ImVec2(w, 0), true);
      draw_call_list(c);
      ImGui::EndChild();
      ImGui::EndGroup();
      ImGui::SameLine(0, 0);
      ImGui::InvisibleButton("##split", ImVec2(split, avail.y));
      splitter_feedback(true);
      if (ImGui::IsItemActive())
        side_frac_ = std::clamp(side_frac_ + ImGui::GetIO().MouseDelta.x / avail.x, 0.15f, 0.6f);
      ImGui::SameLine(0, 0);
    } else {
      const float pad = ImGui::GetStyle().WindowPadding.y * 2;
      const float needed = static_cast<float>(rows_.size()) * row_h + pad;
      const float want = std::clamp(top_frac_ * avail.y, 2 * row_h + pad, std::max(2 * row_h + pad, avail.y - 160.0f));
      const float h = std::min(want, needed);
      draw_list_header();
      ImGui::BeginChild("calls", ImVec2(0, h), true);
      draw_call_list(c);
      ImGui::EndChild();
      ImGui::InvisibleButton("##split", ImVec2(avail.x, split));
      splitter_feedback(false);
      if (ImGui::IsItemActive()) {
        top_frac_ = std::clamp(h / avail.y + ImGui::GetIO().MouseDelta.y / avail.y, 0.08f, 0.8f);
      }
    }
    ImGui::BeginChild("details", ImVec2(0, 0), false);
    if (selected_ != npos) draw_details(c);
    else ImGui::TextDisabled("%s", tr("Select a call in the event log or in the list."));
    ImGui::EndChild();
  }

 private:
  // ---- model cache ----
  uint64_t gen_ = UINT64_MAX, table_gen_ = UINT64_MAX;
  size_t first_ = 0, last_ = 0;
  std::vector<DispatchNode> forest_;
  std::vector<Call> calls_;
  std::vector<size_t> roots_;
  std::unordered_map<size_t, std::pair<size_t, int>> by_event_;  // Begin event -> (call, chain position)
  std::unordered_map<std::string, OpTable> tables_;
  std::vector<char> expanded_;
  std::vector<size_t> rows_;  // visible rows of the call list (call indices)
  bool rows_dirty_ = true;

  // ---- selection and UI state ----
  size_t selected_ = npos;
  int focus_pos_ = -1;                    // chain position picked from the event log
  std::optional<size_t> seen_sel_event_;  // last ctx.sel.event handled
  bool scroll_list_ = false, scroll_table_ = false;
  bool interesting_only_ = true;
  DispatchKeyGrid key_grid_;
  float top_frac_ = 0.28f, side_frac_ = 0.36f;

  void rebuild(const TraceDoc& doc) {
    if (table_gen_ != doc.generation) {
      table_gen_ = doc.generation;
      tables_.clear();
      for (const auto& e : doc.events) {
        if (e.category != trace::Category::Dispatch || e.phase != trace::Phase::Instant) continue;
        const auto* d = std::get_if<trace::DispatchTable>(&e.payload);
        if (d && !tables_.count(d->op)) tables_.emplace(d->op, op_table(*d));
      }
    }
    if (gen_ == doc.generation && first_ == doc.first && last_ == doc.last) return;
    gen_ = doc.generation, first_ = doc.first, last_ = doc.last;
    forest_ = views::dispatch_forest(doc.events, doc.first, doc.last);
    calls_.clear();
    roots_.clear();
    by_event_.clear();
    for (const auto& r : forest_) roots_.push_back(add_call(doc, r, npos, 0));
    expanded_.assign(calls_.size(), calls_.size() <= 200 ? 1 : 0);
    rows_dirty_ = true;
    selected_ = npos;
    focus_pos_ = -1;
    seen_sel_event_.reset();
    scroll_list_ = scroll_table_ = true;
  }

  size_t add_call(const TraceDoc& doc, const DispatchNode& n, size_t parent, int depth) {
    const size_t idx = calls_.size();
    calls_.emplace_back();
    {
      Call& c = calls_[idx];
      c.node = &n;
      c.parent = parent;
      c.depth = depth;
      chain_of(n, c.chain);
      for (size_t i = 0; i < c.chain.size(); ++i) by_event_[c.chain[i]->event_index] = {idx, static_cast<int>(i)};
      const trace::DispatchStep& s = *n.step;
      // Argument labels: the tensor snapshots recorded right after the call begins.
      for (size_t i = n.event_index + 1, k = 0; i < doc.events.size() && k < s.arg_key_sets.size(); ++i, ++k) {
        const auto* m = std::get_if<trace::TensorMeta>(&doc.events[i].payload);
        if (!m) break;
        std::string l = m->label;
        if (l.empty() || l == "result") break;
        c.arg_labels.push_back(l + "  #" + std::to_string(m->tensor_id));
      }
      while (c.arg_labels.size() < s.arg_key_sets.size())
        c.arg_labels.push_back(std::string(tr("arg")) + " " + std::to_string(c.arg_labels.size()));
      // Badges.
      if (is_autograd(s.chosen.functionality))
        for (const auto* cn : c.chain)
          for (const auto* d : cn->details)
            if (const auto* a = std::get_if<trace::AutogradDecision>(&d->payload))
              if (!a->grad_mode) c.grad_off = true;
      uint64_t args = 0;
      for (uint64_t a : s.arg_key_sets) args |= a;
      c.autograd_excluded = (s.tls_excluded & fbit(Functionality::AutogradFunctionality)) && (args & kAutogradBits) &&
                            !(s.merged & kAutogradBits);
    }
    for (size_t ci = 0; ci < calls_[idx].chain.size(); ++ci) {
      const DispatchNode* cn = calls_[idx].chain[ci];
      for (const auto& child : cn->children) {
        if (chain_continues(calls_[idx], child)) continue;
        size_t k = add_call(doc, child, idx, depth + 1);
        calls_[idx].nested.push_back(k);
      }
    }
    return idx;
  }

  void rebuild_rows() {
    rows_.clear();
    std::vector<size_t> stack(roots_.rbegin(), roots_.rend());
    while (!stack.empty()) {
      size_t i = stack.back();
      stack.pop_back();
      rows_.push_back(i);
      if (expanded_[i])
        for (auto it = calls_[i].nested.rbegin(); it != calls_[i].nested.rend(); ++it) stack.push_back(*it);
    }
    rows_dirty_ = false;
  }

  void select(ViewContext& c, size_t call) {
    selected_ = call;
    focus_pos_ = -1;
    c.sel.event = calls_[call].node->event_index;
    seen_sel_event_ = c.sel.event;
    scroll_table_ = true;
  }

  // Follows ctx.sel.event when another view (the event log) points at a dispatch step.
  void resolve_selection(ViewContext& c) {
    if (c.sel.event != seen_sel_event_) {
      seen_sel_event_ = c.sel.event;
      if (c.sel.event) {
        auto it = by_event_.find(*c.sel.event);
        if (it != by_event_.end()) {
          selected_ = it->second.first;
          focus_pos_ = it->second.second > 0 ? it->second.second : -1;
          for (size_t p = calls_[selected_].parent; p != npos; p = calls_[p].parent)
            if (!expanded_[p]) expanded_[p] = 1, rows_dirty_ = true;
          scroll_list_ = scroll_table_ = true;
        }
      }
    }
    if (selected_ == npos && !roots_.empty()) selected_ = roots_.back();
    if (rows_dirty_) rebuild_rows();
  }

  void splitter_feedback(bool vertical) {
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
      ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
      ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_SeparatorHovered));
    }
  }

  // [SECTION] call list -----------------------------------------------------------------

  void draw_list_header() {
    ImGui::TextDisabled("%s (%zu)", tr("Calls"), calls_.size());
    ImGui::SameLine();
    help_marker(tr("Select a call in the event log or in the list."), 30.0f);
  }

  void draw_call_list(ViewContext& c) {
    const float row_h = ImGui::GetTextLineHeightWithSpacing();
    const float indent = ImGui::GetFontSize() * 1.1f;
    if (scroll_list_) {
      scroll_list_ = false;
      auto it = std::find(rows_.begin(), rows_.end(), selected_);
      if (it != rows_.end()) {
        const float y = static_cast<float>(it - rows_.begin()) * row_h;
        const float h = ImGui::GetWindowHeight();
        if (y < ImGui::GetScrollY() || y + row_h > ImGui::GetScrollY() + h - row_h)
          ImGui::SetScrollY(std::max(0.0f, y - h * 0.4f));
      }
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(rows_.size()), row_h);
    while (clip.Step()) {
      for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
        const size_t ci = rows_[static_cast<size_t>(r)];
        const Call& call = calls_[ci];
        ImGui::PushID(r);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const bool clicked = ImGui::Selectable("##call", ci == selected_, ImGuiSelectableFlags_AllowDoubleClick);
        const float x_arrow = p.x + static_cast<float>(call.depth) * indent;
        const float th = ImGui::GetTextLineHeight();
        const bool has_children = !call.nested.empty();
        if (clicked) {
          const float mx = ImGui::GetIO().MousePos.x;
          const bool on_arrow = mx >= x_arrow - 2 && mx <= x_arrow + th;
          if (has_children && (on_arrow || ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))) {
            expanded_[ci] = !expanded_[ci];
            rows_dirty_ = true;
          }
          if (!on_arrow || !has_children) select(c, ci);
        }
        if (has_children) {
          const ImU32 col = IM_COL32(190, 190, 190, 255);
          const float cx = x_arrow + th * 0.5f, cy = p.y + th * 0.5f, s = th * 0.25f;
          if (expanded_[ci])
            dl->AddTriangleFilled(ImVec2(cx - s, cy - s * 0.6f), ImVec2(cx + s, cy - s * 0.6f),
                                  ImVec2(cx, cy + s * 0.8f), col);
          else
            dl->AddTriangleFilled(ImVec2(cx - s * 0.6f, cy - s), ImVec2(cx - s * 0.6f, cy + s),
                                  ImVec2(cx + s * 0.8f, cy), col);
        }
        float x = x_arrow + th + 2;
        const char* op = call.node->step->op;
        dl->AddText(ImVec2(x, p.y), ImGui::GetColorU32(ImGuiCol_Text), op);
        x += ImGui::CalcTextSize(op).x + ImGui::GetFontSize();
        x = draw_chain_keys(dl, ImVec2(x, p.y), call.chain);
        x += 8;
        if (call.grad_off) small_badge_dot(dl, ImVec2(x + 4, p.y + th * 0.5f), IM_COL32(222, 186, 60, 255)), x += 12;
        if (call.autograd_excluded) small_badge_dot(dl, ImVec2(x + 4, p.y + th * 0.5f), IM_COL32(62, 120, 210, 255));
        if ((call.grad_off || call.autograd_excluded) && ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          if (call.grad_off)
            ImGui::TextColored(ImVec4(0.87f, 0.73f, 0.24f, 1), "%s",
                               tr("Autograd entered, grad mode off: no graph recorded"));
          if (call.autograd_excluded)
            ImGui::TextColored(ImVec4(0.45f, 0.62f, 0.95f, 1), "%s",
                               tr("Autograd keys excluded: the Autograd kernel is skipped"));
          ImGui::EndTooltip();
        }
        ImGui::PopID();
      }
    }
  }

  // [SECTION] chain ---------------------------------------------------------------------

  void draw_chain_box(ViewContext& c, const Call& call, size_t pos, float right) {
    const DispatchNode* n = call.chain[pos];
    const trace::DispatchStep& s = *n->step;
    const TraceDoc& doc = c.doc;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const KeyFamily fam = key_family(s.chosen);
    const float pad = 8.0f;
    const float th = ImGui::GetTextLineHeight();
    const float chip_h = key_chip_size("X").y;
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const bool focus = static_cast<int>(pos) == focus_pos_;

    // Header: number, key chip, kind and kernel; then where the kernel was registered.
    const float header_h = 5.0f + chip_h + 3.0f + th + 5.0f;
    dl->AddRectFilled(p0, ImVec2(right, p0.y + header_h), key_family_color(fam, 0.30f), 5.0f,
                      ImDrawFlags_RoundCornersTop);
    float x = p0.x + pad;
    const float y = p0.y + 5.0f;
    {
      const float r = chip_h * 0.5f;
      dl->AddCircleFilled(ImVec2(x + r, y + r), r, IM_COL32(235, 235, 235, 255));
      char num[8];
      std::snprintf(num, sizeof num, "%zu", pos + 1);
      const ImVec2 ns = ImGui::CalcTextSize(num);
      dl->AddText(ImVec2(x + r - ns.x * 0.5f, y + r - ns.y * 0.5f), IM_COL32(20, 20, 20, 255), num);
      x += 2 * r + 8;
    }
    std::string key = s.chosen.name();
    KeyCell cell{key, fam, pos == 0 ? static_cast<unsigned>(ChipChosen) : static_cast<unsigned>(ChipNormal),
                 pos == 0 ? tr("chosen: the highest-priority key") : tr("redispatch")};
    if (draw_key_chip(dl, ImVec2(x, y), key.c_str(), fam, cell.style)) key_cell_tooltip(cell);
    x += key_chip_size(key.c_str()).x + 8;
    const float ty = y + (chip_h - th) * 0.5f;
    dl->AddText(ImVec2(x, ty), dim, "→");
    x += ImGui::CalcTextSize("→ ").x;
    dl->AddText(ImVec2(x, ty), dim, s.kernel_kind);
    x += ImGui::CalcTextSize(s.kernel_kind).x + ImGui::CalcTextSize(" ").x;
    dl->AddText(ImVec2(x, ty), IM_COL32(255, 255, 255, 255), s.kernel);
    {
      const std::string lead = std::string(tr("registered at")) + " ";
      const ImVec2 at(p0.x + pad, y + chip_h + 3.0f);
      dl->AddText(at, dim, lead.c_str());
      draw_site_link(c.requests, s.op, s.registered_at, ImVec2(at.x + ImGui::CalcTextSize(lead.c_str()).x, at.y), dim);
    }
    ImGui::SetCursorScreenPos(ImVec2(p0.x + pad, p0.y + header_h + 5.0f));

    // Redispatch: the keys it was called with (only keys below the wrapper).
    if (pos > 0) {
      const float lx = ImGui::GetCursorScreenPos().x;
      const float ly = ImGui::GetCursorScreenPos().y;
      const char* lab = tr("redispatched with");
      dl->AddText(ImVec2(lx, ly + 1), dim, lab);
      float cx = lx + ImGui::CalcTextSize(lab).x + 8;
      std::vector<DispatchKey> ks = DispatchKeySet::from_raw(s.merged | s.skipped_fallthrough).keys();
      std::reverse(ks.begin(), ks.end());
      float cy = ly;
      const float sh = key_chip_size("X", ChipSmall).y;
      for (const auto& k : ks) {
        std::string nm = k.name();
        KeyCell kc{nm, key_family(k), ChipSmall, nullptr};
        if (s.skipped_fallthrough & fbit(k.functionality))
          kc.style |= ChipFallthrough, kc.tip = tr("fallthrough for this operator");
        if (k == s.chosen) kc.style |= ChipFocus;
        const float w = key_chip_size(nm.c_str(), ChipSmall).x;
        if (cx + w > right - pad) cx = lx, cy += sh + 4;
        if (draw_key_chip(dl, ImVec2(cx, cy), nm.c_str(), kc.fam, kc.style)) key_cell_tooltip(kc);
        cx += w + 5;
      }
      ImGui::Dummy(ImVec2(0, cy - ly + sh));
    }

    // Body, in recorded order: autograd decisions, kernel details, nested calls, the next box.
    struct Item {
      size_t index;
      const trace::Event* detail;
      const DispatchNode* child;
    };
    std::vector<Item> items;
    for (const auto* d : n->details) items.push_back({static_cast<size_t>(d - doc.events.data()), d, nullptr});
    for (const auto& ch : n->children) items.push_back({ch.event_index, nullptr, &ch});
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.index < b.index; });
    const float wrap_local = right - pad - ImGui::GetWindowPos().x;
    for (const auto& it : items) {
      const float bx = p0.x + pad;
      ImGui::SetCursorScreenPos(ImVec2(bx, ImGui::GetCursorScreenPos().y));
      if (it.detail) {
        const trace::Event& e = *it.detail;
        const auto* decision = std::get_if<trace::AutogradDecision>(&e.payload);
        const auto* t = std::get_if<trace::Text>(&e.payload);
        if (decision || t) {
          const std::string text = decision ? trace::decision_text(*decision) : t->text;
          const bool ag = e.category == trace::Category::Autograd;
          ImGui::PushStyleColor(ImGuiCol_Text, ag ? ImGui::ColorConvertU32ToFloat4(lighter(KeyFamily::Autograd))
                                                  : ImGui::GetStyleColorVec4(ImGuiCol_Text));
          ImGui::PushTextWrapPos(wrap_local);
          if (ag) ImGui::TextWrapped("%s: %s", e.name, text.c_str());
          else ImGui::TextWrapped("%s", text.c_str());
          ImGui::PopTextWrapPos();
          ImGui::PopStyleColor();
        } else if (const auto* k = std::get_if<trace::KernelDetail>(&e.payload)) {
          draw_kernel_detail(e.name, k->fields, bx, right - pad);
        } else if (const auto* g = std::get_if<trace::GraphNode>(&e.payload)) {
          draw_kernel_detail(e.name, trace::payload_fields(*g), bx, right - pad);
        } else if (const auto* x = std::get_if<trace::EngineStep>(&e.payload)) {
          draw_kernel_detail(e.name, trace::payload_fields(*x), bx, right - pad);
        }
      } else if (it.child) {
        auto found = by_event_.find(it.child->event_index);
        if (pos + 1 < call.chain.size() && it.child == call.chain[pos + 1]) {
          ImGui::Dummy(ImVec2(0, 2));
          ImGui::SetCursorScreenPos(ImVec2(bx + 6.0f, ImGui::GetCursorScreenPos().y));
          draw_chain_box(c, call, pos + 1, right - pad - 6.0f);
        } else if (found != by_event_.end()) {
          draw_nested_call_line(c, found->second.first, bx, right - pad);
        }
      }
    }
    float y_end = ImGui::GetCursorScreenPos().y + 2.0f;
    y_end = std::max(y_end, p0.y + header_h + 6.0f);
    dl->AddRectFilled(ImVec2(p0.x, p0.y + header_h), ImVec2(right, y_end), key_family_color(fam, 0.07f), 5.0f,
                      ImDrawFlags_RoundCornersBottom);
    dl->AddRect(p0, ImVec2(right, y_end), key_family_color(fam, 0.95f), 5.0f, 0, focus ? 3.0f : 1.5f);
    if (focus)
      dl->AddRect(ImVec2(p0.x - 2, p0.y - 2), ImVec2(right + 2, y_end + 2), IM_COL32(255, 255, 255, 160), 6.0f, 0,
                  1.0f);
    ImGui::SetCursorScreenPos(ImVec2(p0.x, y_end + 4.0f));
    ImGui::Dummy(ImVec2(right - p0.x, 0));
  }

  // "cblas_sgemm  transa CblasNoTrans  lda 3 ..." flowing across the box.
  void draw_kernel_detail(const char* name, const trace::Fields& fields, float x0, float right) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float th = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    float x = x0, y = p.y;
    dl->AddText(ImVec2(x, y), IM_COL32(140, 210, 255, 255), name);
    x += ImGui::CalcTextSize(name).x + 12;
    for (const auto& [key, v] : fields) {
      if (std::strcmp(key, "function") == 0 && v == name) continue;
      const float kw = ImGui::CalcTextSize(key).x, vw = ImGui::CalcTextSize(v.c_str()).x;
      if (x + kw + 5 + vw > right && x > x0) x = x0 + 12, y += th + 2;
      dl->AddText(ImVec2(x, y), dim, key);
      dl->AddText(ImVec2(x + kw + 5, y), IM_COL32(240, 240, 240, 255), v.c_str());
      x += kw + 5 + vw + 14;
    }
    ImGui::Dummy(ImVec2(0, y - p.y + th));
  }

  // A clickable line for a call made by a kernel (composite kernels, factories, ...).
  void draw_nested_call_line(ViewContext& c, size_t ci, float x0, float right) {
    const Call& call = calls_[ci];
    ImGui::PushID(static_cast<int>(ci));
    const ImVec2 p(x0, ImGui::GetCursorScreenPos().y);
    const float th = ImGui::GetTextLineHeight();
    ImGui::SetCursorScreenPos(p);
    const bool clicked = ImGui::InvisibleButton("##nested", ImVec2(std::max(10.0f, right - x0), th + 2));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (hovered) dl->AddRectFilled(p, ImVec2(right, p.y + th + 2), ImGui::GetColorU32(ImGuiCol_HeaderHovered), 3.0f);
    float x = p.x;
    dl->AddText(ImVec2(x, p.y + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), "↳ ");
    x += ImGui::CalcTextSize("↳ ").x;
    dl->AddText(ImVec2(x, p.y + 1), ImGui::GetColorU32(ImGuiCol_Text), call.node->step->op);
    x += ImGui::CalcTextSize(call.node->step->op).x + 10;
    x = draw_chain_keys(dl, ImVec2(x, p.y + 1), call.chain);
    const char* kern = call.chain.back()->step->kernel;
    std::string k = std::string("  ") + kern;
    dl->AddText(ImVec2(x, p.y + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), k.c_str());
    if (clicked) {
      select(c, ci);
      for (size_t q = calls_[ci].parent; q != npos; q = calls_[q].parent)
        if (!expanded_[q]) expanded_[q] = 1, rows_dirty_ = true;
      scroll_list_ = true;
    }
    ImGui::PopID();
  }

  // [SECTION] table ---------------------------------------------------------------------

  void draw_table(ViewContext& c, const Call& call) {
    const trace::DispatchStep& s = *call.node->step;
    auto it = tables_.find(s.op);
    if (it == tables_.end()) {
      draw_empty_state(tr("No dispatch table recorded for this operator."));
      return;
    }
    const OpTable& t = it->second;
    // Interesting keys: the call's keys, the chain's, and the usual landmarks.
    uint64_t args = 0;
    for (uint64_t a : s.arg_key_sets) args |= a;
    const DispatchKeySet call_keys = DispatchKeySet::from_raw(args | s.tls_included | s.merged);
    auto interesting = [&](const TableRow& r) {
      if (!r.k) return true;
      const DispatchKey& k = *r.k;
      if (call_keys.has(k)) return true;
      for (const auto* cn : call.chain)
        if (cn->step->chosen == k) return true;
      switch (k.functionality) {
        case Functionality::Undefined:
        case Functionality::BackendSelect:
        case Functionality::ADInplaceOrView:
        case Functionality::AutogradOther:
        case Functionality::AutogradNestedTensor: return true;
        case Functionality::Dense:
        case Functionality::AutogradFunctionality:
          return k.backend == BackendComponent::CPU || k.backend == BackendComponent::Meta;
        default: return false;
      }
    };
    std::vector<int> shown;
    for (size_t i = 0; i < t.rows.size(); ++i)
      if (!interesting_only_ || interesting(t.rows[i])) shown.push_back(static_cast<int>(i));
    auto chain_no = [&](const TableRow& r) -> int {
      if (!r.k) return 0;
      for (size_t i = 0; i < call.chain.size(); ++i)
        if (call.chain[i]->step->chosen == *r.k) return static_cast<int>(i) + 1;
      return 0;
    };

    ImGui::Checkbox(tr("Only interesting keys"), &interesting_only_);
    ImGui::SameLine();
    ImGui::TextDisabled("%zu / %zu", shown.size(), t.rows.size());

    const float row_h = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2;
    const float max_h = std::max(6 * row_h, std::min(320.0f, ImGui::GetContentRegionAvail().y - 8));
    const float h = std::min(max_h, row_h * static_cast<float>(shown.size() + 1) + 3.0f);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuter |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("dispatch_table", 4, flags, ImVec2(0, h))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(tr("key"), ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(tr("kind"), ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(tr("registered at"), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    if (scroll_table_) {
      scroll_table_ = false;
      for (size_t i = 0; i < shown.size(); ++i)
        if (chain_no(t.rows[static_cast<size_t>(shown[i])]) == 1) {
          const float y = static_cast<float>(i) * row_h;
          if (y < ImGui::GetScrollY() || y + 2 * row_h > ImGui::GetScrollY() + h)
            ImGui::SetScrollY(std::max(0.0f, y - h * 0.35f));
          break;
        }
    }
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(shown.size()), row_h);
    while (clip.Step()) {
      for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
        const TableRow& r = t.rows[static_cast<size_t>(shown[static_cast<size_t>(i)])];
        const int no = chain_no(r);
        const KeyFamily fam = r.k ? key_family(*r.k) : KeyFamily::Other;
        ImGui::TableNextRow();
        if (no == 1) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(200, 160, 40, 110));
        else if (no > 1) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(90, 130, 200, 80));
        const bool skipped = r.fallthrough && r.k && (s.skipped_fallthrough & fbit(r.k->functionality));
        ImGui::TableSetColumnIndex(0);
        if (no) ImGui::TextColored(no == 1 ? ImVec4(1, 0.9f, 0.4f, 1) : ImVec4(0.75f, 0.85f, 1, 1), "%d", no);
        ImGui::TableSetColumnIndex(1);
        // A key the call's tensors or included set had, removed by the excluded set.
        const bool excluded = !no && r.k && call_keys.has(*r.k) && (s.tls_excluded & fbit(r.k->functionality));
        ImVec4 kc = r.fallthrough ? ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)
                                  : ImGui::ColorConvertU32ToFloat4(lighter(fam));
        if (excluded) kc = ImVec4(0.9f, 0.4f, 0.35f, 1);
        ImGui::PushStyleColor(ImGuiCol_Text, kc);
        ImGui::TextUnformatted(r.key.c_str());
        ImGui::PopStyleColor();
        if (excluded) {
          const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
          ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, (a.y + b.y) * 0.5f), ImVec2(b.x, (a.y + b.y) * 0.5f),
                                              IM_COL32(235, 90, 80, 220), 1.5f);
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("excluded by the thread-local excluded set"));
        } else if (skipped && ImGui::IsItemHovered()) {
          ImGui::SetTooltip("%s", tr("fallthrough for this operator"));
        }
        ImGui::TableSetColumnIndex(2);
        if (r.fallthrough) ImGui::TextDisabled("fallthrough [%s]", r.kind.c_str());
        else if (no) ImGui::Text("%s", r.kind.c_str());
        else ImGui::TextDisabled("%s", r.kind.c_str());
        ImGui::TableSetColumnIndex(3);
        std::string f = file_name(r.site);
        if (is_generated_site(r.site)) {
          // Generated code is embedded in the program: the link opens it in the Schema view.
          ImGui::PushID(&r);
          ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.78f, 1.0f, no ? 1.0f : 0.7f));
          if (ImGui::Selectable(f.c_str())) open_in_schema_view(c.requests, s.op, r.site.c_str());
          ImGui::PopStyleColor();
          ImGui::PopID();
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\n%s", r.site.c_str(), tr("Open the generated code in the Schema view"));
        } else {
          if (no) ImGui::TextUnformatted(f.c_str());
          else ImGui::TextDisabled("%s", f.c_str());
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.site.c_str());
        }
      }
    }
    ImGui::EndTable();
  }

  // [SECTION] details -------------------------------------------------------------------

  void draw_details(ViewContext& c) {
    const Call& call = calls_[selected_];
    const trace::DispatchStep& s = *call.node->step;
    // Title: the operator, the kernel that did the work, the schema.
    ImGui::TextColored(ImVec4(0.98f, 0.88f, 0.55f, 1), "%s", s.op);
    ImGui::SameLine();
    ImGui::TextDisabled("→ %s %s", tr("kernel"), call.chain.back()->step->kernel);
    if (call.parent != npos) {
      ImGui::TextDisabled("%s", tr("called by"));
      ImGui::SameLine();
      const char* pop = calls_[call.parent].node->step->op;
      std::string lab = std::string(pop) + "##parent";
      const size_t parent = call.parent;
      if (ImGui::SmallButton(lab.c_str())) {
        select(c, parent);
        scroll_list_ = true;
        return;
      }
    }
    auto it = tables_.find(s.op);
    if (it != tables_.end() && !it->second.schema.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(it->second.schema.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
    }
    if (call.grad_off) badge_grad_off();
    if (call.autograd_excluded) badge_excluded();
    ImGui::Spacing();

    if (ImGui::CollapsingHeader(tr("Dispatch key sets"), ImGuiTreeNodeFlags_DefaultOpen)) {
      key_grid_.draw(*call.node->step, call.arg_labels);
      ImGui::Spacing();
    }
    if (ImGui::CollapsingHeader(tr("Redispatch chain"), ImGuiTreeNodeFlags_DefaultOpen)) {
      const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x - 2.0f;
      draw_chain_box(c, call, 0, right);
      ImGui::Spacing();
    }
    if (ImGui::CollapsingHeader(tr("Dispatch table"), ImGuiTreeNodeFlags_DefaultOpen)) draw_table(c, call);
  }
};

}  // namespace

std::unique_ptr<View> make_dispatch_view() { return std::make_unique<DispatchView>(); }

}  // namespace ipt::gui
