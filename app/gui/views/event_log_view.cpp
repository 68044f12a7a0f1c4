// The event log: every recorded event in order, one row each (seq, time, thread, category,
// phase, name indented by nesting, a short payload summary), with a search box, category
// and operator filters, the shown step marked, and click-to-select.
//
// [SECTION] index
//   model       per-document operator of each event (nesting: the shared TraceIndex)
//   summaries   the short payload text of a row, built lazily and cached by event index
//   filter      the filtered row list, rebuilt only when the document, the step or a filter changes
//   toolbar     "this step only", search, operator combo, category checkboxes
//   table       ImGuiListClipper rows, tooltips, selection and scroll-into-view
//
// Note [Event log cost]
// A trace can hold 100,000 events and more. Nothing here walks all events per frame:
//  - the model (each event's operator) is built once per TraceDoc::generation; the nesting
//    (depth, Begin/End partners, parents) is the document's shared TraceIndex;
//  - the filtered list of row indices is rebuilt only when a FilterKey field changes (the
//    document, the step range [first, last), "this step only", the categories, the operator
//    or the search text);
//  - summaries are formatted only for rows the clipper shows, cached by event index (a search
//    formats each event's summary once per search text, without keeping it, and typing on
//    only re-checks the rows that still match);
//  - each frame draws only the visible rows (ImGuiListClipper), so the cost follows pixels,
//    not event count (as in Tracy).
//
// The view is a pure function of the recorded trace and the selection: it reads
// TraceDoc::events and writes only Selection::event / Selection::tensor on a click.

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include "app/gui/i18n.h"
#include "app/gui/views/event_text.h"
#include "app/gui/views/views.h"
#include "core/dispatch/dispatch_key_set.h"
#include "core/trace/events.h"

namespace ipt::gui {

namespace {

using trace::Category;
using trace::Event;
using trace::Phase;

constexpr uint32_t kNone = UINT32_MAX;
constexpr int kNumCategories = static_cast<int>(trace::Category::Compile) + 1;  // Dispatch .. Compile
constexpr uint32_t kAllCategories = (1u << kNumCategories) - 1;
constexpr size_t kSummaryMax = 240;  // bytes of a row's summary (the tooltip shows everything)

// First line of `s`; `more` is set when there was more text after it.
std::string_view first_line(std::string_view s, bool& more) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  size_t nl = s.find('\n');
  more = nl != std::string_view::npos;
  return more ? s.substr(0, nl) : s;
}

// Case-insensitive substring test; `needle_lower` is already lower case and non-empty.
bool contains_nocase(std::string_view hay, std::string_view needle_lower) {
  if (needle_lower.size() > hay.size()) return false;
  const size_t last = hay.size() - needle_lower.size();
  const char first = needle_lower[0];
  for (size_t i = 0; i <= last; ++i) {
    if (std::tolower(static_cast<unsigned char>(hay[i])) != first) continue;
    size_t k = 1;
    while (k < needle_lower.size() && std::tolower(static_cast<unsigned char>(hay[i + k])) == needle_lower[k]) ++k;
    if (k == needle_lower.size()) return true;
  }
  return false;
}

// Glyphs the UI font may lack (the default font has ASCII only): chosen once per document.
struct Glyphs {
  const char* arrow = "->";
  const char* ellipsis = "...";
  void detect() {
    ImFont* f = ImGui::GetFont();
    arrow = f && f->FindGlyphNoFallback(0x2192) ? "\xE2\x86\x92" : "->";      // →
    ellipsis = f && f->FindGlyphNoFallback(0x2026) ? "\xE2\x80\xA6" : "...";  // …
  }
};

// [SECTION] summaries ----------------------------------------------------------------------

// "node=5  name=MulBackward0  next=4:0,none", each value cut to one short line.
std::string fields_summary(const trace::Fields& fields, const Glyphs& g) {
  std::string s;
  for (const auto& [k, v] : fields) {
    if (!s.empty()) s += "  ";
    s += k ? k : "";
    s += '=';
    bool more = false;
    std::string val(first_line(v, more));
    if (more) val += g.ellipsis;
    truncate_utf8(val, 48, g.ellipsis);
    s += val;
    if (s.size() > kSummaryMax) break;
  }
  return s;
}

std::string summarize(const Event& e, const Glyphs& g) {
  std::string s;
  std::visit(
      [&](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, trace::DispatchStep>) {
          s = p.chosen.name();
          s += ' ';
          s += g.arrow;
          s += ' ';
          s += p.kernel;
          if (p.redispatch) s += "  (redispatch)";
        } else if constexpr (std::is_same_v<T, trace::TensorMeta>) {
          s = "tensor #" + std::to_string(p.tensor_id) + " size=" + join_dims(p.sizes) +
              " stride=" + join_dims(p.strides);
          if (p.storage_offset != 0) s += " offset=" + std::to_string(p.storage_offset);
          s += " storage #" + std::to_string(p.storage_id);
          if (p.label && *p.label) {
            s += "  ";
            s += p.label;
          }
        } else if constexpr (std::is_same_v<T, trace::StorageInfo>) {
          s = "storage #" + std::to_string(p.storage_id) + "  " + std::to_string(p.nbytes) + " B  " + p.device +
              (p.freed ? "  freed" : "  allocated");
        } else if constexpr (std::is_same_v<T, trace::ScriptLine>) {
          s = "line " + std::to_string(p.line);
        } else if constexpr (std::is_same_v<T, trace::Text>) {
          bool more = false;
          s = first_line(p.text, more);
          if (more) s += g.ellipsis;
        } else if constexpr (std::is_same_v<T, trace::KernelDetail>) {
          s = fields_summary(p.fields, g);
        } else if constexpr (std::is_same_v<T, trace::GraphNode> || std::is_same_v<T, trace::EngineStep> ||
                             std::is_same_v<T, trace::DeviceWork> || std::is_same_v<T, trace::DeviceMemory> ||
                             std::is_same_v<T, trace::SchemaCheck> || std::is_same_v<T, trace::CompileArtifact>) {
          s = fields_summary(trace::payload_fields(p), g);
        } else if constexpr (std::is_same_v<T, trace::GraphNodes>) {
          s = std::to_string(p.nodes.size()) + " nodes";
        } else if constexpr (std::is_same_v<T, trace::AutogradDecision>) {
          s = std::string(p.op) + ": " + trace::decision_text(p);
        } else if constexpr (std::is_same_v<T, trace::DispatchTable>) {
          s = std::string(p.op) + "  " + std::to_string(p.rows.size()) + " entries";
        }
      },
      e.payload);
  truncate_utf8(s, kSummaryMax, g.ellipsis);
  return s;
}

// [SECTION] model --------------------------------------------------------------------------

// What the log derives from one document, built once per generation. The nesting (depth,
// enclosing Begin, Begin/End partner) is the document's shared TraceIndex.
struct DocModel {
  uint64_t generation = UINT64_MAX;
  size_t size = 0;
  std::shared_ptr<const trace::TraceIndex> index;
  std::vector<int32_t> op;       // index into ops (dispatch Begin/End), or -1
  std::vector<std::string> ops;  // operators seen, sorted
  int64_t t0 = 0;                // time origin (the first event)
  // Summaries of the rows shown, by event index (bounded: cleared when it grows large).
  std::unordered_map<uint32_t, std::string> summary;
  Glyphs glyphs;

  void build(const TraceDoc& doc) {
    const std::vector<Event>& ev = doc.events;
    generation = doc.generation;
    size = ev.size();
    index = doc.index;
    const size_t n = ev.size();
    op.assign(n, -1);
    summary.clear();
    ops.clear();
    t0 = n ? ev.front().ts_ns : 0;
    glyphs.detect();

    std::unordered_map<std::string_view, int32_t> op_ids;
    for (size_t i = 0; i < n; ++i) {
      const Event& e = ev[i];
      if (e.phase == Phase::End) {
        if (uint32_t b = index->match[i]; b != kNone && b < i) op[i] = op[b];
      } else if (e.phase == Phase::Begin) {
        if (const auto* d = std::get_if<trace::DispatchStep>(&e.payload); d && d->op && *d->op) {
          auto [it, fresh] = op_ids.try_emplace(d->op, static_cast<int32_t>(op_ids.size()));
          op[i] = it->second;
        }
      }
    }
    // Sort the operator names and renumber.
    std::vector<std::pair<std::string_view, int32_t>> sorted(op_ids.begin(), op_ids.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<int32_t> remap(sorted.size());
    for (size_t k = 0; k < sorted.size(); ++k) {
      remap[static_cast<size_t>(sorted[k].second)] = static_cast<int32_t>(k);
      ops.emplace_back(sorted[k].first);
    }
    for (auto& o : op)
      if (o >= 0) o = remap[static_cast<size_t>(o)];
  }

  const std::string& summary_of(const std::vector<Event>& ev, size_t i) {
    auto it = summary.find(static_cast<uint32_t>(i));
    if (it != summary.end()) return it->second;
    if (summary.size() > 20000) summary.clear();
    return summary.emplace(static_cast<uint32_t>(i), summarize(ev[i], glyphs)).first->second;
  }

  uint16_t depth(size_t i) const { return index->depth[i]; }
  uint32_t match(size_t i) const { return index->match[i]; }

  // True when event i belongs to operator `f`: its own call or any call enclosing it.
  bool in_operator(size_t i, int32_t f) const {
    for (uint32_t k = static_cast<uint32_t>(i); k != kNone; k = index->parent[k])
      if (op[k] == f) return true;
    // An End's parent chain starts above its Begin; the Begin's op was checked via op[i].
    return false;
  }
};

// [SECTION] filter -------------------------------------------------------------------------

// Everything the filtered row list depends on; it is rebuilt only when this changes.
struct FilterKey {
  uint64_t generation = UINT64_MAX;
  size_t size = 0, first = 0, last = 0;
  bool step_only = true;
  uint32_t categories = kAllCategories;
  int32_t op = -1;
  std::string search;  // lower case
  bool operator==(const FilterKey&) const = default;
};

class EventLogView : public View {
 public:
  const char* id() const override { return "events"; }
  const char* title() const override { return "Event log"; }
  void default_rect(float& x, float& y, float& w, float& h) const override {
    x = 0.56f, y = 0.62f, w = 0.44f, h = 0.38f;
  }

  void draw_content(ViewContext& c) override {
    const TraceDoc& doc = c.doc;
    if (model_.generation != doc.generation || model_.size != doc.events.size()) {
      model_.build(doc);
      // Keep the operator filter across documents (e.g. lesson steps) when the operator is still there.
      auto it = std::find(model_.ops.begin(), model_.ops.end(), op_filter_name_);
      op_filter_ = it == model_.ops.end() ? -1 : static_cast<int32_t>(it - model_.ops.begin());
      last_sel_.reset();
      pending_scroll_row_ = -1;
    }
    update_rows(doc);  // widget changes of the last frame, document changes of this one
    follow_selection(c.sel);
    draw_toolbar(doc);
    if (doc.events.empty()) {
      draw_empty_state(tr("No events yet: run a step or a snippet."));
      return;
    }
    if (rows_.empty()) {
      draw_empty_state(tr("No events match the filters."));
      return;
    }
    draw_table(c);
  }

 private:
  // [SECTION] toolbar ----------------------------------------------------------------------
  void draw_toolbar(const TraceDoc& doc) {
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::Checkbox(tr("this step only"), &step_only_);
    ImGui::SameLine();
    char count[96];
    std::snprintf(count, sizeof count, "%zu / %zu %s", rows_.size(), doc.events.size(), tr("events"));
    ImGui::TextDisabled("%s", count);
    ImGui::SameLine();
    const float combo_w = std::min(220.0f, ImGui::GetContentRegionAvail().x * 0.3f);
    const float search_w = ImGui::GetContentRegionAvail().x - combo_w - style.ItemSpacing.x -
                           ImGui::CalcTextSize(tr("Operator")).x - style.ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(std::max(80.0f, search_w));
    ImGui::InputTextWithHint("##search", tr("Search"), search_buf_, sizeof search_buf_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(combo_w);
    const char* preview = op_filter_ >= 0 ? model_.ops[static_cast<size_t>(op_filter_)].c_str() : tr("All");
    if (ImGui::BeginCombo(tr("Operator"), preview, ImGuiComboFlags_HeightLarge)) {
      if (ImGui::Selectable(tr("All"), op_filter_ < 0)) {
        op_filter_ = -1;
        op_filter_name_.clear();
      }
      for (size_t k = 0; k < model_.ops.size(); ++k)
        if (ImGui::Selectable(model_.ops[k].c_str(), op_filter_ == static_cast<int32_t>(k))) {
          op_filter_ = static_cast<int32_t>(k);
          op_filter_name_ = model_.ops[k];
        }
      ImGui::EndCombo();
    }

    // Category checkboxes, coloured like the rows (a legend too); they wrap when narrow.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (int k = 0; k < kNumCategories; ++k) {
      const char* label = trace::category_name(static_cast<Category>(k));
      const float w = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
      if (k > 0 && ImGui::GetItemRectMax().x + style.ItemSpacing.x + w < right) ImGui::SameLine();
      bool on = (categories_ >> k) & 1u;
      ImGui::PushStyleColor(ImGuiCol_Text, category_color(static_cast<Category>(k)));
      if (ImGui::Checkbox(label, &on)) categories_ = on ? categories_ | (1u << k) : categories_ & ~(1u << k);
      ImGui::PopStyleColor();
    }
  }

  void update_rows(const TraceDoc& doc) {
    FilterKey key;
    key.generation = doc.generation;
    key.size = doc.events.size();
    key.first = std::min(doc.first, doc.events.size());
    key.last = std::clamp(doc.last, key.first, doc.events.size());
    key.step_only = step_only_;
    key.categories = categories_;
    key.op = op_filter_;
    key.search = search_buf_;
    for (char& ch : key.search) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (key == filter_) return;
    // Typing on: a search text that contains the last one can only match rows that matched it.
    FilterKey same_but_search = key;
    same_but_search.search = filter_.search;
    const bool narrows = same_but_search == filter_ && key.search.find(filter_.search) != std::string::npos;
    const bool step_moved = key.generation != filter_.generation || key.first != filter_.first ||
                            key.last != filter_.last || key.step_only != filter_.step_only;
    filter_ = key;

    auto found = [&](size_t i) {
      const Event& e = doc.events[i];
      return contains_nocase(e.name ? e.name : "", key.search) ||
             contains_nocase(summarize(e, model_.glyphs), key.search);
    };
    if (narrows) {
      std::erase_if(rows_, [&](uint32_t i) { return !found(i); });
    } else {
      const size_t begin = key.step_only ? key.first : 0, end = key.step_only ? key.last : key.size;
      rows_.clear();
      for (size_t i = begin; i < end; ++i) {
        const Event& e = doc.events[i];
        if (!((key.categories >> static_cast<int>(e.category)) & 1u)) continue;
        if (key.op >= 0 && !model_.in_operator(i, key.op)) continue;
        if (!key.search.empty() && !found(i)) continue;
        rows_.push_back(static_cast<uint32_t>(i));
      }
    }
    // A new step (or document): show its first row near the top.
    if (step_moved) {
      auto it = std::lower_bound(rows_.begin(), rows_.end(), static_cast<uint32_t>(key.step_only ? 0 : key.first));
      if (it != rows_.end()) scroll_to(static_cast<int>(it - rows_.begin()), 0.1f);
    }
    if (pending_scroll_row_ >= static_cast<int>(rows_.size())) pending_scroll_row_ = -1;
  }

  // When another view changes the selected event, scroll it into view once.
  void follow_selection(const Selection& sel) {
    if (sel.event == last_sel_) return;
    last_sel_ = sel.event;
    if (!sel.event) return;
    auto it = std::lower_bound(rows_.begin(), rows_.end(), static_cast<uint32_t>(*sel.event));
    if (it != rows_.end() && *it == *sel.event) scroll_to(static_cast<int>(it - rows_.begin()), 0.5f);
  }

  void scroll_to(int row, float ratio) {
    pending_scroll_row_ = row;
    pending_scroll_ratio_ = ratio;
  }

  // [SECTION] table ------------------------------------------------------------------------
  void draw_table(ViewContext& c) {
    const auto& ev = c.doc.events;
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##events", 7, flags, ImVec2(0, 0))) return;
    const float digit = ImGui::CalcTextSize("0").x;
    const float line_h = ImGui::GetTextLineHeight();
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, digit * 6);
    ImGui::TableSetupColumn("\xC2\xB5s", ImGuiTableColumnFlags_WidthFixed, digit * 9);  // µs
    ImGui::TableSetupColumn("tid", ImGuiTableColumnFlags_WidthFixed, digit * 3);
    ImGui::TableSetupColumn(tr("Category"), ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("autograd").x);
    ImGui::TableSetupColumn("##phase", ImGuiTableColumnFlags_WidthFixed, line_h);
    ImGui::TableSetupColumn(tr("Name"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(tr("Details"), ImGuiTableColumnFlags_WidthStretch, 1.1f);
    ImGui::TableHeadersRow();

    const bool mark_step = !filter_.step_only && filter_.first < filter_.last;
    const ImU32 step_bg = IM_COL32(70, 110, 170, 75);
    const float indent = digit * 2;
    const std::optional<size_t> selected = c.sel.event;

    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(rows_.size()));
    if (pending_scroll_row_ >= 0) clip.ForceDisplayRangeByIndices(pending_scroll_row_, pending_scroll_row_ + 1);
    while (clip.Step()) {
      for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
        const size_t i = rows_[static_cast<size_t>(r)];
        const Event& e = ev[i];
        ImGui::TableNextRow();
        if (mark_step && i >= filter_.first && i < filter_.last)
          ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, step_bg);

        // Column 0: seq, and the selectable that spans the row.
        ImGui::TableSetColumnIndex(0);
        char seq[24];
        std::snprintf(seq, sizeof seq, "%" PRIu64, e.seq);
        const bool is_sel = selected && (*selected == i || (model_.match(i) != kNone && *selected == model_.match(i)));
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Selectable(seq, is_sel, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
          select(c.sel, ev, i);
        if (ImGui::IsItemHovered() && !std::holds_alternative<std::monostate>(e.payload)) draw_payload_tooltip(e);
        ImGui::PopID();
        if (r == pending_scroll_row_) {
          ImGui::SetScrollHereY(pending_scroll_ratio_);
          pending_scroll_row_ = -1;
        }

        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%.1f", static_cast<double>(e.ts_ns - model_.t0) / 1000.0);
        ImGui::TableSetColumnIndex(2);
        ImGui::Text("%u", e.tid);
        ImGui::TableSetColumnIndex(3);
        const ImU32 col = category_color(e.category);
        ImGui::PushStyleColor(ImGuiCol_Text, col);
        ImGui::TextUnformatted(trace::category_name(e.category));
        ImGui::PopStyleColor();
        ImGui::TableSetColumnIndex(4);
        draw_phase_marker(e.phase, col, line_h);
        ImGui::TableSetColumnIndex(5);
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + indent * std::min<int>(model_.depth(i), 24));
        if (e.phase == Phase::End) ImGui::TextDisabled("%s", e.name);
        else ImGui::TextUnformatted(e.name);
        ImGui::TableSetColumnIndex(6);
        const std::string& s = model_.summary_of(ev, i);
        if (!s.empty()) ImGui::TextUnformatted(s.data(), s.data() + s.size());
      }
    }
    pending_scroll_row_ = -1;  // it was drawn (or no longer exists)
    ImGui::EndTable();
  }

  // ▶ begin, ◀ end, • instant: drawn shapes, so every font shows them.
  static void draw_phase_marker(Phase ph, ImU32 col, float h) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float r = h * 0.28f, cx = p.x + h * 0.5f, cy = p.y + h * 0.5f;
    if (ph == Phase::Begin) {
      dl->AddTriangleFilled(ImVec2(cx - r * 0.8f, cy - r), ImVec2(cx - r * 0.8f, cy + r), ImVec2(cx + r, cy), col);
    } else if (ph == Phase::End) {
      dl->AddTriangleFilled(ImVec2(cx + r * 0.8f, cy - r), ImVec2(cx + r * 0.8f, cy + r), ImVec2(cx - r, cy),
                            IM_COL32(150, 150, 160, 255));
    } else {
      dl->AddCircleFilled(ImVec2(cx, cy), r * 0.55f, col, 8);
    }
    ImGui::Dummy(ImVec2(h, h));
  }

  void select(Selection& sel, const std::vector<Event>& ev, size_t i) {
    const Event& e = ev[i];
    const size_t target = e.phase == Phase::End && model_.match(i) != kNone ? model_.match(i) : i;
    sel.event = target;
    if (const auto* t = std::get_if<trace::TensorMeta>(&e.payload)) sel.tensor = t->tensor_id;
    last_sel_ = sel.event;  // our own change: no scrolling
  }

  DocModel model_;
  FilterKey filter_;
  std::vector<uint32_t> rows_;  // event indices shown, ascending
  bool step_only_ = true;
  uint32_t categories_ = kAllCategories;
  int32_t op_filter_ = -1;      // index into model_.ops, or -1: all
  std::string op_filter_name_;  // the same, by name (kept when the document changes)
  char search_buf_[256] = "";
  std::optional<size_t> last_sel_;
  int pending_scroll_row_ = -1;  // a row to scroll into view on the next table draw
  float pending_scroll_ratio_ = 0.5f;
};

}  // namespace

std::unique_ptr<View> make_event_log_view() { return std::make_unique<EventLogView>(); }

}  // namespace ipt::gui
