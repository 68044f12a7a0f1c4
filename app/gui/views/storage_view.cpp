// The Tensor & storage view: each storage the shown step touches as a strip of cells with
// its values, and under it every tensor over that storage as a grid of its logical
// elements. Hovering an element fills in storage_offset + Σ index·stride and lights the
// storage cell it names; hovering a storage cell lights every element that reads it.
//
// [SECTION] index   (palette, cells and wrapped headers are in storage_draw.h, a tensor
//                   grid's geometry in storage_grid.h)
//   hover            the hovered element / cell, IPT_GUI_FAKE_HOVER for screenshots
//   view             model cache, top bar, storage blocks (header, strip), tensor cards
//
// The model (which tensors, which storages, names, index math) lives in core/views/storage_layout.h;
// see Note [Which tensors the storage view shows] there. This file only draws it.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/i18n.h"
#include "app/gui/views/storage_draw.h"
#include "app/gui/views/storage_grid.h"
#include "app/gui/views/views.h"
#include "core/views/storage_layout.h"

namespace ipt::gui {
namespace {

using storage::grid_geometry;
using storage::GridGeom;
using storage::kBandGap;
using storage::kSliceGap;
using storage::kSliceGapX;
using storage::slice_index;
using views::storage::StorageItem;
using views::storage::StorageModel;
using views::storage::TensorItem;
using views::storage::TensorKind;
using namespace cells;  // the palette, cells and headers this view draws with (storage_draw.h)

// [SECTION] hover ----------------------------------------------------------------------

struct Hover {
  enum Kind { None, Cell, Element } kind = None;
  uint64_t storage = 0;
  int64_t cell = 0;            // the storage cell (for an element: the one it maps to)
  uint64_t tensor = 0;         // Element only
  std::vector<int64_t> index;  // Element only
  bool operator==(const Hover&) const = default;
};

// IPT_GUI_FAKE_HOVER renders a hover state without a mouse, for screenshots:
//   IPT_GUI_FAKE_HOVER="2,6"     hovers cell 6 of storage #2
//   IPT_GUI_FAKE_HOVER="t7:2,1"  hovers element [2, 1] of tensor #7
// A real hover wins over the fake one. Unset (or unparsable): no effect.
Hover parse_fake_hover() {
  Hover h;
  const char* env = std::getenv("IPT_GUI_FAKE_HOVER");
  if (!env || !*env) return h;
  std::string s = env;
  std::vector<int64_t> nums;
  auto parse_list = [&](const std::string& t) {
    size_t i = 0;
    while (i < t.size()) {
      char* end = nullptr;
      long long v = std::strtoll(t.c_str() + i, &end, 10);
      if (end == t.c_str() + i) return false;
      nums.push_back(v);
      i = static_cast<size_t>(end - t.c_str());
      if (i < t.size() && t[i] != ',') return false;
      if (i < t.size()) ++i;
    }
    return true;
  };
  if (s[0] == 't') {
    size_t colon = s.find(':');
    if (colon == std::string::npos) return h;
    h.tensor = std::strtoull(s.c_str() + 1, nullptr, 10);
    if (!parse_list(s.substr(colon + 1))) return h;
    h.kind = Hover::Element;
    h.index = nums;
  } else {
    if (!parse_list(s) || nums.size() != 2) return h;
    h.kind = Hover::Cell;
    h.storage = static_cast<uint64_t>(nums[0]);
    h.cell = nums[1];
  }
  return h;
}

// The name a reader knows a tensor by: "b", or "tensor #7".
std::string tensor_name(const TensorItem& t) {
  return t.names.empty() ? "tensor #" + std::to_string(t.meta->tensor_id) : t.names.front();
}
// "b[2, 1]"; a 0-d tensor's only element is the tensor itself: "s".
std::string element_name(const TensorItem& t, const std::vector<int64_t>& index) {
  return tensor_name(t) + (index.empty() ? "" : views::storage::index_text(index));
}

// [SECTION] view -----------------------------------------------------------------------

class StorageView : public View {
 public:
  const char* id() const override { return "storage"; }
  const char* title() const override { return "Tensor & storage"; }
  void default_rect(float& x, float& y, float& w, float& h) const override {
    x = 0.56f, y = 0.0f, w = 0.44f, h = 0.62f;
  }

  void draw_content(ViewContext& c) override {
    c.sel.hover_storage.reset();
    c.sel.hover_cell.reset();
    next_ = Hover{};
    // An opaque background: cells and values must not mix with windows stacked behind.
    // The bottom-right corner is left alone: the resize grip is drawn there.
    {
      const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
      const float y0 = wp.y + ImGui::GetWindowContentRegionMin().y - ImGui::GetStyle().WindowPadding.y;
      const float grip =
          std::floor(std::max(font_size() * 1.35f, ImGui::GetStyle().WindowRounding + 1 + font_size() * 0.2f));
      ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
      bg.w = 1;
      const ImU32 col = ImGui::GetColorU32(bg);
      ImDrawList* dl = ImGui::GetWindowDrawList();
      const float r = ImGui::GetStyle().WindowRounding;
      dl->AddRectFilled(ImVec2(wp.x, y0), ImVec2(wp.x + ws.x, wp.y + ws.y - grip), col);
      dl->AddRectFilled(ImVec2(wp.x, wp.y + ws.y - grip), ImVec2(wp.x + ws.x - grip, wp.y + ws.y), col, r,
                        ImDrawFlags_RoundCornersBottomLeft);
    }
    if (c.doc.events.empty()) {
      draw_empty_state(tr("No events yet: run a step or a snippet."));
      hover_ = Hover{};
      return;
    }
    refresh(c.doc);
    draw_top_bar();
    ImGui::BeginChild("##storage_scroll", ImVec2(0, 0), false);
    if (model_.storages.empty() || visible_storages_ == 0) {
      ImGui::Spacing();
      ImGui::TextDisabled("%s", model_.step_tensors == 0
                                    ? tr("No tensors in this step.")
                                    : tr("Only temporaries in this step: tick Temporaries to see them."));
    }
    draw_blocks(c);
    ImGui::EndChild();

    // Hover: this frame's goes to the selection now, and is drawn next frame (the storage
    // strip is drawn before the tensors that may be hovered).
    if (next_.kind == Hover::None) next_ = fake_;
    if (next_.kind != Hover::None) {
      c.sel.hover_storage = next_.storage;
      c.sel.hover_cell = next_.cell;
    }
    if (!(next_ == hover_)) cell_readers_valid_ = false;
    hover_ = next_;
    last_sel_ = c.sel.tensor;
  }

 private:
  static constexpr float kCardPad = 6, kCardGap = 8, kMinCardW = 250;

  // ---- model cache ----
  uint64_t generation_ = UINT64_MAX;
  size_t first_ = SIZE_MAX, last_ = SIZE_MAX;
  StorageModel model_;
  bool show_earlier_ = false, show_temporaries_ = false;
  bool vis_earlier_ = false, vis_temporaries_ = false, vis_valid_ = false;
  Lang vis_lang_ = Lang::En;  // headers hold translated text
  // Per storage: the indices of the tensors shown, the cells they use, their headers.
  struct Shown {
    std::vector<size_t> tensors;
    std::vector<uint8_t> used;
    std::vector<Segments> headers;  // parallel to tensors
  };
  std::vector<Shown> shown_;
  size_t visible_storages_ = 0, temporaries_ = 0, earlier_ = 0;

  Hover hover_, next_, fake_ = parse_fake_hover();
  std::optional<uint64_t> last_sel_;
  // The elements that read the hovered cell (for the top line), rebuilt on hover change.
  std::string cell_readers_;
  bool cell_readers_valid_ = false;

  void refresh(const TraceDoc& doc) {
    if (doc.generation != generation_ || doc.first != first_ || doc.last != last_) {
      generation_ = doc.generation, first_ = doc.first, last_ = doc.last;
      model_ = views::storage::build_storage_model(doc.events, doc.first, doc.last);
      vis_valid_ = false;
      cell_readers_valid_ = false;
      temporaries_ = earlier_ = 0;
      for (const auto& s : model_.storages)
        for (const auto& t : s.tensors) {
          temporaries_ += t.kind == TensorKind::Temporary;
          earlier_ += t.kind == TensorKind::Earlier;
        }
    }
    if (!vis_valid_ || vis_earlier_ != show_earlier_ || vis_temporaries_ != show_temporaries_ || vis_lang_ != lang())
      rebuild_shown();
    if (fake_.kind == Hover::Element) {  // fill in where the faked element lives
      for (const auto& s : model_.storages)
        for (const auto& t : s.tensors)
          if (t.meta->tensor_id == fake_.tensor && fake_.index.size() == t.meta->sizes.size()) {
            fake_.storage = s.id;
            fake_.cell = views::storage::element_offset(*t.meta, fake_.index.data());
          }
    }
  }

  bool is_shown(const TensorItem& t) const {
    return t.kind == TensorKind::Step || (t.kind == TensorKind::Earlier && show_earlier_) ||
           (t.kind == TensorKind::Temporary && show_temporaries_);
  }

  void rebuild_shown() {
    vis_valid_ = true, vis_earlier_ = show_earlier_, vis_temporaries_ = show_temporaries_, vis_lang_ = lang();
    shown_.assign(model_.storages.size(), {});
    layouts_.assign(model_.storages.size(), {});
    cell_readers_valid_ = false;
    visible_storages_ = 0;
    for (size_t k = 0; k < model_.storages.size(); ++k) {
      const StorageItem& s = model_.storages[k];
      Shown& sh = shown_[k];
      sh.used.assign(s.values->size(), 0);
      // The step's tensors first, then earlier ones, then temporaries (each in creation order).
      for (TensorKind kind : {TensorKind::Step, TensorKind::Earlier, TensorKind::Temporary})
        for (size_t i = 0; i < s.tensors.size(); ++i) {
          if (s.tensors[i].kind != kind || !is_shown(s.tensors[i])) continue;
          sh.tensors.push_back(i);
          const auto& cov = s.tensors[i].covers;
          for (size_t j = 0; j < cov.size() && j < sh.used.size(); ++j) sh.used[j] |= cov[j] != 0;
        }
      if (!sh.tensors.empty()) ++visible_storages_;
      for (size_t i : sh.tensors) sh.headers.push_back(tensor_header(s, s.tensors[i], sh));
    }
  }

  Segments tensor_header(const StorageItem& s, const TensorItem& t, const Shown& sh) const {
    const Rgb col = storage_rgb(s.id);
    const auto& m = *t.meta;
    Segments seg;
    if (!t.names.empty()) {
      std::string names;
      for (size_t i = 0; i < t.names.size(); ++i) names += (i ? " = " : "") + t.names[i];
      seg.text(names, kWhite);
    }
    seg.text("tensor #" + std::to_string(m.tensor_id), lighter(col, 0.35f));
    if (m.label && *m.label) seg.text(std::string("(") + m.label + ")", kDim, true);
    if (m.is_view)
      seg.badge(tr("view"), IM_COL32(70, 90, 120, 255), kText,
                tr("A view: it shares its storage with the tensor it was made from."));
    if (t.new_storage) {
      const std::string tip = format(tr("%s: its input (self) is tensor #%llu on storage #%llu; the result's data was "
                                        "written to a new storage."),
                                     t.made_by, static_cast<unsigned long long>(t.from_tensor),
                                     static_cast<unsigned long long>(t.from_storage));
      seg.badge(tr("new storage"), IM_COL32(214, 120, 40, 255), kDark, tip);
      // "← contiguous(b)": the call and the input it copied from.
      std::string op = t.made_by;
      if (op.rfind("aten::", 0) == 0) op.erase(0, 6);
      std::string from = "#" + std::to_string(t.from_tensor);
      for (const auto& o : s.tensors)
        if (o.meta->tensor_id == t.from_tensor && !o.names.empty()) from = o.names.front();
      if (const StorageItem* fs = find_storage(t.from_storage))
        for (const auto& o : fs->tensors)
          if (o.meta->tensor_id == t.from_tensor && !o.names.empty()) from = o.names.front();
      seg.text("\xE2\x86\x90\xC2\xA0" + op + "(" + from + ")", IM_COL32(235, 160, 90, 255), true);
    }
    if (t.kind == TensorKind::Earlier)
      seg.badge(tr("earlier step"), IM_COL32(58, 58, 66, 255), kDim, tr("Not used in this step; made earlier."));
    if (t.kind == TensorKind::Temporary)
      seg.badge(tr("temporary"), IM_COL32(58, 58, 66, 255), kDim,
                tr("An intermediate of one statement (indexing, a wrapped scalar): no variable names it."));
    seg.newline();
    seg.text(std::string(tr("sizes")) + " " + views::storage::shape_text(m.sizes) + "  " + tr("strides") + " " +
                 views::storage::shape_text(m.strides) + "  storage_offset " + std::to_string(m.storage_offset),
             kDim, true);
    // Shared storage, named by the other tensors shown on it.
    std::string shares;
    int listed = 0;
    for (size_t i : sh.tensors) {
      const TensorItem& o = s.tensors[i];
      if (o.meta->tensor_id == m.tensor_id) continue;
      if (listed == 5) {
        shares += ", …";
        break;
      }
      shares += (listed++ ? ", #" : "#") + std::to_string(o.meta->tensor_id);
      if (!o.names.empty()) shares += " (" + o.names.front() + ")";
    }
    if (!shares.empty())
      seg.text(std::string(tr("shares storage with tensor")) + " " + shares, lighter(col, 0.2f, 0.9f), true);
    return seg;
  }

  // ---- top bar: toggles and the hover line ----

  void draw_top_bar() {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s (%zu)", tr("Earlier tensors"), earlier_);
    ImGui::Checkbox(buf, &show_earlier_);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", tr("Tensors made in earlier steps that share a storage with this step's tensors."));
    ImGui::SameLine();
    std::snprintf(buf, sizeof buf, "%s (%zu)", tr("Temporaries"), temporaries_);
    ImGui::Checkbox(buf, &show_temporaries_);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s",
                        tr("Intermediates of one statement that no variable names, e.g. b[2] in b[2, 1].item()."));
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(
          tr("Each storage is a strip of cells (its values, by storage index), in its own color; "
             "the tensors over it are grids of their elements. Element [i, j, …] reads cell "
             "storage_offset + Σ index·stride. Dim cells: no shown tensor reads them. "
             "Orange corner: written during this step. Click a tensor to select it."));
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }

    // The hover line: one line, always there, so the layout does not jump.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight() + 8;
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(30, 33, 40, 255), 4);
    Segments seg;
    describe_hover(seg);
    dl->PushClipRect(p, ImVec2(p.x + w, p.y + h), true);
    layout_segments(seg, ImVec2(p.x + 8, p.y + 5), FLT_MAX, dl, false);
    dl->PopClipRect();
    ImGui::Dummy(ImVec2(w, h));
    ImGui::Spacing();
  }

  const TensorItem* find_tensor(uint64_t id, const StorageItem** storage_out = nullptr) const {
    for (const auto& s : model_.storages)
      for (const auto& t : s.tensors)
        if (t.meta->tensor_id == id) {
          if (storage_out) *storage_out = &s;
          return &t;
        }
    return nullptr;
  }
  const StorageItem* find_storage(uint64_t id) const {
    for (const auto& s : model_.storages)
      if (s.id == id) return &s;
    return nullptr;
  }

  std::string cell_value(const StorageItem& s, int64_t cell) const {
    if (cell < 0 || cell >= s.elements) return "?";
    if (static_cast<size_t>(cell) < s.labels.size()) return s.labels[static_cast<size_t>(cell)];
    return "…";
  }

  void describe_hover(Segments& seg) {
    if (hover_.kind == Hover::Element) {
      const StorageItem* s = nullptr;
      const TensorItem* t = find_tensor(hover_.tensor, &s);
      if (t && hover_.index.size() == t->meta->sizes.size()) {
        seg.text(element_name(*t, hover_.index), kWhite);
        seg.text(views::storage::offset_formula(*t->meta, hover_.index), kFormula);
        seg.text("\xE2\x86\x92 storage #" + std::to_string(s->id) + " " + tr("cell") + " " +
                     std::to_string(hover_.cell) + " = " + cell_value(*s, hover_.cell),
                 lighter(storage_rgb(s->id), 0.3f));
        return;
      }
    } else if (hover_.kind == Hover::Cell) {
      if (const StorageItem* s = find_storage(hover_.storage)) {
        seg.text("storage #" + std::to_string(s->id) + " " + tr("cell") + " " + std::to_string(hover_.cell) + " = " +
                     cell_value(*s, hover_.cell),
                 lighter(storage_rgb(s->id), 0.3f));
        if (!cell_readers_valid_) {
          cell_readers_ = readers_of_cell(*s, hover_.cell);
          cell_readers_valid_ = true;
        }
        seg.text(cell_readers_, cell_readers_.rfind(tr("read by"), 0) == 0 ? kText : kDim);
        return;
      }
    }
    seg.text(tr("Hover an element: offset = storage_offset + Σ index·stride. Click a tensor to select it."), kDim);
  }

  // "read by a[1, 2], b[2, 1]" for the shown tensors' elements that map to `cell`.
  std::string readers_of_cell(const StorageItem& s, int64_t cell) const {
    const size_t k = static_cast<size_t>(&s - model_.storages.data());
    std::string out;
    int n = 0, total = 0;
    for (size_t i : shown_[k].tensors) {
      const TensorItem& t = s.tensors[i];
      views::storage::for_each_element(*t.meta, views::storage::kMaxEnumerated,
                                       [&](const std::vector<int64_t>& idx, int64_t off) {
                                         if (off != cell) return;
                                         ++total;
                                         if (n < 6) out += (n++ ? ", " : "") + element_name(t, idx);
                                       });
    }
    if (total == 0) return tr("not read by any shown tensor");
    if (total > n) out += ", … (" + std::to_string(total) + ")";
    return std::string(tr("read by")) + " " + out;
  }

  // ---- a storage block: header, strip, then its tensors ----

  // Everything about a storage block that depends only on the model, the toggles and the
  // width: measured once, reused every frame (Note: measuring text is the costly part).
  struct Card {
    GridGeom g;
    float w = 0, head_h = 0, h = 0;
  };
  struct BlockLayout {
    float avail = -1, font = 0;
    Segments head;
    float head_h = 0;
    float cw = kCellW, ch = kCellH;
    size_t per_row = 1, shown = 0, cells = 0, rows = 0;
    bool more = false, no_preview = false;
    float idx_h = 0, row_h = 0, strip_h = 0, block_h = 0;  // block_h: header + strip
    std::vector<Card> cards;
    std::vector<std::vector<size_t>> card_rows;  // indices into cards (= into Shown::tensors)
    std::vector<float> card_row_h;
    float total_h = 0;
  };
  std::vector<BlockLayout> layouts_;  // parallel to model_.storages
  // Where each block starts in the scrolled area (tops_[k]; tops_.back() is the end), for
  // the width and font the layouts were made for.
  std::vector<float> tops_;
  float tops_avail_ = -1, tops_font_ = 0;

  // The block showing tensor `id`, or the number of blocks.
  size_t block_of(uint64_t id) const {
    for (size_t k = 0; k < shown_.size(); ++k)
      for (size_t i : shown_[k].tensors)
        if (model_.storages[k].tensors[i].meta->tensor_id == id) return k;
    return shown_.size();
  }

  // Note [Only the blocks in view]
  // A loaded trace of a long program can hold a million storages. Every block is laid out
  // once per width and font (its height is then known), and each frame visits only the blocks
  // that meet the scrolled window, found by binary search in their tops; the rest only take
  // their space. A tensor selected in another view scrolls its block into view.
  void draw_blocks(ViewContext& c) {
    const size_t n = model_.storages.size();
    const float full_w = ImGui::GetContentRegionAvail().x;
    const float avail = full_w - kIndent - 4;
    if (layouts_.size() != n) layouts_.assign(n, {});
    if (tops_avail_ != avail || tops_font_ != font_size() || tops_.size() != n + 1) {
      tops_avail_ = avail, tops_font_ = font_size();
      tops_.assign(n + 1, 0);
      const float spacing = ImGui::GetStyle().ItemSpacing.y;
      for (size_t k = 0; k < n; ++k) {
        float h = 0;
        if (!shown_[k].tensors.empty()) {
          if (layouts_[k].avail != avail || layouts_[k].font != font_size()) layout_block(k, avail);
          h = layouts_[k].total_h + 8 + spacing;
        }
        tops_[k + 1] = tops_[k] + h;
      }
    }
    const float origin = ImGui::GetCursorPosY();
    if (c.sel.tensor && c.sel.tensor != last_sel_) {
      const size_t k = block_of(*c.sel.tensor);
      const float y = k < n ? origin + tops_[k] : 0;
      if (k < n && (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + ImGui::GetWindowHeight()))
        ImGui::SetScrollY(std::max(0.0f, y - 0.1f * ImGui::GetWindowHeight()));
    }
    const float view0 = ImGui::GetScrollY() - origin, view1 = view0 + ImGui::GetWindowHeight();
    size_t k = static_cast<size_t>(std::upper_bound(tops_.begin(), tops_.end() - 1, view0) - tops_.begin());
    k = k > 0 ? k - 1 : 0;
    ImGui::SetCursorPosY(origin + tops_[k]);
    for (; k < n && tops_[k] <= view1; ++k) draw_storage(c, k);
    ImGui::SetCursorPosY(origin + tops_[n]);
    ImGui::Dummy(ImVec2(1, 0));  // the scrolled area's full height
  }

  void layout_block(size_t k, float avail) {
    const StorageItem& s = model_.storages[k];
    const Shown& sh = shown_[k];
    BlockLayout& L = layouts_[k];
    L = BlockLayout{};
    L.avail = avail, L.font = font_size();
    const Rgb col = storage_rgb(s.id);

    // Header: "storage #2 · 48 bytes · float32".
    std::string label =
        "storage #" + std::to_string(s.id) + " \xC2\xB7 " + std::to_string(s.nbytes) + " bytes \xC2\xB7 " + s.dtype;
    if (std::string_view(s.device) != "cpu") label += std::string(" \xC2\xB7 ") + s.device;
    L.head.text(label, lighter(col, 0.3f));
    L.head.text(
        format(s.elements == 1 ? tr("(%lld element)") : tr("(%lld elements)"), static_cast<long long>(s.elements)),
        kDim, true);
    if (s.allocated_in_step)
      L.head.badge(tr("allocated in this step"), IM_COL32(60, 120, 70, 255), kWhite,
                   tr("A storage allocation event was recorded in this step."));
    if (s.freed_in_step)
      L.head.badge(tr("freed"), IM_COL32(120, 60, 60, 255), kWhite, tr("The storage was freed before the step ended."));
    L.head_h = layout_segments(L.head, ImVec2(0, 0), avail, nullptr, false);

    // Strip: one row when it fits; else rows of a round number of cells, at most
    // kMaxStripRows, and a "…" cell when the storage has more.
    const size_t n = s.values->size();
    L.no_preview = n == 0 && s.elements > 0;
    L.cw = n > 64 ? 36 : kCellW;
    L.per_row = std::max<size_t>(1, static_cast<size_t>(avail / L.cw));
    if (n + (s.truncated ? 1 : 0) > L.per_row)
      for (size_t nice : {32, 24, 16, 12, 10, 8, 6, 4, 2, 1})
        if (nice <= L.per_row) {
          L.per_row = nice;
          break;
        }
    const size_t cap = L.per_row * kMaxStripRows;
    L.shown = std::min(n, (s.truncated || n > cap) ? cap - 1 : cap);
    L.more = n > 0 && (L.shown < n || s.truncated);
    L.cells = L.shown + (L.more ? 1 : 0);
    L.rows = L.cells == 0 ? 0 : (L.cells + L.per_row - 1) / L.per_row;
    L.idx_h = small_size() + 2;
    L.row_h = L.idx_h + L.ch + 3;
    const float note_h = (L.more || L.no_preview || s.elements == 0) ? ImGui::GetTextLineHeight() + 4 : 0;
    L.strip_h = static_cast<float>(L.rows) * L.row_h + note_h;
    L.block_h = L.head_h + 2 + L.strip_h + 6;

    // Cards, first fit: each goes into the first row with room for it (rows keep order).
    std::vector<float> used;
    for (size_t j = 0; j < sh.tensors.size(); ++j) {
      L.cards.push_back(measure_card(s.tensors[sh.tensors[j]], sh.headers[j], avail));
      size_t r = 0;
      while (r < L.card_rows.size() && used[r] + L.cards[j].w > avail) ++r;
      if (r == L.card_rows.size()) L.card_rows.emplace_back(), used.push_back(0), L.card_row_h.push_back(0);
      L.card_rows[r].push_back(j);
      used[r] += L.cards[j].w + kCardGap;
      L.card_row_h[r] = std::max(L.card_row_h[r], L.cards[j].h);
    }
    L.total_h = L.block_h;
    for (float h : L.card_row_h) L.total_h += h + kCardGap;
  }

  void draw_storage(ViewContext& c, size_t k) {
    const StorageItem& s = model_.storages[k];
    const Shown& sh = shown_[k];
    if (sh.tensors.empty()) return;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float full_w = ImGui::GetContentRegionAvail().x;
    const float x0 = top.x + kIndent, avail = full_w - kIndent - 4;
    if (layouts_.size() != model_.storages.size()) layouts_.assign(model_.storages.size(), {});
    if (layouts_[k].avail != avail || layouts_[k].font != font_size()) layout_block(k, avail);
    const BlockLayout& L = layouts_[k];

    // Off screen: only take the space (and scroll here if another view selected a tensor on it).
    if (!ImGui::IsRectVisible(top, ImVec2(top.x + full_w, top.y + L.total_h))) {
      if (c.sel.tensor && c.sel.tensor != last_sel_)
        for (size_t i : sh.tensors)
          if (s.tensors[i].meta->tensor_id == *c.sel.tensor)
            ImGui::SetScrollFromPosY(top.y - ImGui::GetWindowPos().y, 0.1f);
      ImGui::Dummy(ImVec2(1, L.total_h + 8));
      return;
    }

    const Rgb col = storage_rgb(s.id);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const bool hover_ok = ImGui::IsWindowHovered();
    ImGui::PushID(static_cast<int>(s.id));
    ImGui::SetCursorScreenPos(top);
    ImGui::InvisibleButton("##strip", ImVec2(std::max(full_w, 1.0f), L.block_h));
    const bool strip_hovered = hover_ok && ImGui::IsItemHovered();
    const float strip_y = top.y + L.head_h + 2;
    if (ImGui::IsRectVisible(top, ImVec2(top.x + full_w, top.y + L.block_h))) {
      layout_segments(L.head, ImVec2(x0, top.y), avail, dl, hover_ok);
      const TensorItem* selected = nullptr;
      for (size_t i : sh.tensors)
        if (c.sel.tensor && s.tensors[i].meta->tensor_id == *c.sel.tensor) selected = &s.tensors[i];
      const ImVec2 mouse = ImGui::GetMousePos();
      const float small = small_size();
      for (size_t i = 0; i < L.cells; ++i) {
        const float x = x0 + static_cast<float>(i % L.per_row) * L.cw;
        const float y = strip_y + static_cast<float>(i / L.per_row) * L.row_h;
        const ImVec2 a(x, y + L.idx_h), b(x + L.cw, y + L.idx_h + L.ch);
        if (i == L.shown) {  // the "more" cell
          draw_cell(dl, a, b, {kUnusedFill, kUnusedBorder, kUnusedText}, "…");
          continue;
        }
        const std::string idx = std::to_string(i);
        const ImVec2 its = ImGui::GetFont()->CalcTextSizeA(small, FLT_MAX, 0, idx.c_str());
        dl->AddText(ImGui::GetFont(), small, ImVec2(x + (L.cw - its.x) * 0.5f, y), kDim, idx.c_str());
        const bool used = sh.used[i] != 0;
        const bool target =
            hover_.kind != Hover::None && hover_.storage == s.id && hover_.cell == static_cast<int64_t>(i);
        const bool in_selected = selected && i < selected->covers.size() && selected->covers[i] != 0;
        CellStyle st = used ? CellStyle{rgba(col, 0.22f), rgba(col, 0.6f), kText}
                            : CellStyle{kUnusedFill, kUnusedBorder, kUnusedText};
        if (in_selected) st = {rgba(col, 0.45f), kSelect, kWhite, 2};
        if (target) st = kHot;
        draw_cell(dl, a, b, st, s.labels[i].c_str());
        if (s.written[i])
          dl->AddTriangleFilled(ImVec2(b.x - 9, a.y + 1), ImVec2(b.x - 1, a.y + 1), ImVec2(b.x - 1, a.y + 9), kWritten);
        if (strip_hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
          next_.kind = Hover::Cell;
          next_.storage = s.id;
          next_.cell = static_cast<int64_t>(i);
        }
      }
      const float ny = strip_y + static_cast<float>(L.rows) * L.row_h;
      if (s.elements == 0) {
        dl->AddText(ImVec2(x0, ny), kDim, tr("empty storage (0 bytes)"));
      } else if (L.no_preview) {
        const std::string note = format(tr("values not recorded (device %s)"), s.device);
        dl->AddText(ImVec2(x0, ny), kDim, note.c_str());
      } else if (L.more) {
        const std::string note =
            format(tr("showing the first %zu of %lld elements"), L.shown, static_cast<long long>(s.elements));
        dl->AddText(ImVec2(x0, ny), kDim, note.c_str());
      }
    }

    // The tensors on this storage: rows of cards, each row with a tick off the storage's band.
    std::vector<float> ticks;
    float y = top.y + L.block_h;
    for (size_t r = 0; r < L.card_rows.size(); ++r) {
      const float h = L.card_row_h[r];
      ticks.push_back(y + ImGui::GetTextLineHeight() * 0.5f + 6);
      if (ImGui::IsRectVisible(ImVec2(x0, y), ImVec2(x0 + avail, y + h)) || c.sel.tensor != last_sel_) {
        float cx = x0;
        for (size_t j : L.card_rows[r]) {
          draw_card(c, s, s.tensors[sh.tensors[j]], sh.headers[j], L.cards[j], ImVec2(cx, y), h);
          cx += L.cards[j].w + kCardGap;
        }
      }
      y += h + kCardGap;
    }
    // The band: a bracket in the storage's color from its strip to its last row of tensors.
    const float bx = top.x + 3;
    dl->AddRectFilled(ImVec2(bx - 2, top.y + 2), ImVec2(bx + 2, top.y + L.head_h + 2 + L.strip_h), rgba(col, 0.95f), 2);
    if (!ticks.empty()) {
      dl->AddLine(ImVec2(bx, top.y + L.head_h + L.strip_h), ImVec2(bx, ticks.back()), rgba(col, 0.7f), 2);
      for (float t : ticks) dl->AddLine(ImVec2(bx, t), ImVec2(x0 - 1, t), rgba(col, 0.7f), 2);
    }
    ImGui::SetCursorScreenPos(top);  // the same advance as an off-screen block
    ImGui::Dummy(ImVec2(1, L.total_h + 8));
    ImGui::PopID();
  }

  // ---- a tensor card: header, then its grid ----

  Card measure_card(const TensorItem& t, const Segments& header, float avail) const {
    Card k;
    k.g = grid_geometry(*t.meta, avail - 2 * kCardPad);
    const GridGeom& g = k.g;
    k.w = std::min(std::max(g.width + 2 * kCardPad, kMinCardW), avail);
    k.head_h = layout_segments(header, ImVec2(0, 0), k.w - 2 * kCardPad, nullptr, false);
    k.h = kCardPad + k.head_h + 4 + g.height + kCardPad;
    return k;
  }

  void draw_card(ViewContext& c, const StorageItem& s, const TensorItem& t, const Segments& header, const Card& k,
                 ImVec2 pos, float row_h) {
    const auto& m = *t.meta;
    const GridGeom& g = k.g;
    const Rgb col = storage_rgb(s.id);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const bool hover_ok = ImGui::IsWindowHovered();
    const bool selected = c.sel.tensor && *c.sel.tensor == m.tensor_id;
    const ImVec2 bmin = pos, bmax(pos.x + k.w, pos.y + row_h);

    ImGui::SetCursorScreenPos(pos);
    ImGui::PushID(static_cast<int>(m.tensor_id));
    if (ImGui::InvisibleButton("##tensor", ImVec2(k.w, row_h))) c.sel.tensor = m.tensor_id;
    const bool hovered = hover_ok && ImGui::IsItemHovered();
    ImGui::PopID();
    // Scroll to a tensor another view just selected.
    if (selected && c.sel.tensor != last_sel_ && !ImGui::IsItemVisible()) ImGui::SetScrollHereY(0.2f);
    if (!ImGui::IsRectVisible(bmin, bmax)) return;

    dl->AddRectFilled(bmin, bmax, rgba(col, t.kind == TensorKind::Step ? 0.07f : 0.035f), 5);
    dl->AddRectFilled(bmin, ImVec2(bmax.x, bmin.y + 3), rgba(col, t.kind == TensorKind::Step ? 0.9f : 0.45f), 5,
                      ImDrawFlags_RoundCornersTop);
    if (selected) dl->AddRect(bmin, bmax, kSelect, 5, 0, 2);
    else dl->AddRect(bmin, bmax, hovered ? IM_COL32(255, 255, 255, 90) : rgba(col, 0.35f), 5);
    const float x0 = pos.x + kCardPad;
    layout_segments(header, ImVec2(x0, pos.y + kCardPad), k.w - 2 * kCardPad, dl, hover_ok);

    const float small = small_size();
    ImFont* font = ImGui::GetFont();
    const ImVec2 mouse = ImGui::GetMousePos();
    const float clip_top = ImGui::GetWindowDrawList()->GetClipRectMin().y;
    const float clip_bottom = ImGui::GetWindowDrawList()->GetClipRectMax().y;
    float y = pos.y + kCardPad + k.head_h + 4;
    if (views::storage::numel(m) == 0) {
      dl->AddText(ImVec2(x0, y), kDim, tr("no elements"));
      return;
    }
    // The storage cell the current hover is about (an element's, or a hovered cell).
    const bool hover_here = hover_.kind != Hover::None && hover_.storage == s.id;
    std::vector<int64_t> idx(g.nd, 0);
    const float grid_top = y;
    for (int64_t sl = 0; sl < g.shown_slices; ++sl) {
      const std::vector<int64_t> lead = slice_index(m, sl);
      for (size_t k = 0; k < lead.size(); ++k) idx[k] = lead[k];
      // Slices flow left to right, then down.
      const float sx = x0 + static_cast<float>(sl % g.slice_cols) * (g.slice_w + kSliceGapX);
      const float gx = sx + g.row_label_w;
      y = grid_top + static_cast<float>(sl / g.slice_cols) * (g.slice_h + kSliceGap);
      if (g.nd >= 3) {
        const std::string lab = views::storage::slice_label(lead, g.nd);
        dl->AddText(ImVec2(sx, y), lighter(col, 0.3f), lab.c_str());
        y += g.slice_label_h;
      }
      for (int64_t band = 0; band < g.bands; ++band) {
        const int64_t c0 = band * g.per_band, c1 = std::min(g.shown_cols, c0 + g.per_band);
        const bool band_visible = y + g.band_h >= clip_top && y <= clip_bottom;
        if (band_visible) {
          // Column indices (the last dimension) above the cells.
          if (g.nd >= 1)
            for (int64_t cc = c0; cc < c1; ++cc) {
              const std::string lab = std::to_string(cc);
              const ImVec2 ts = font->CalcTextSizeA(small, FLT_MAX, 0, lab.c_str());
              dl->AddText(font, small, ImVec2(gx + static_cast<float>(cc - c0) * g.cw + (g.cw - ts.x) * 0.5f, y), kDim,
                          lab.c_str());
            }
          const float ry0 = y + g.col_label_h;
          for (int64_t r = 0; r < std::max<int64_t>(g.shown_rows, 1); ++r) {
            const float ry = ry0 + static_cast<float>(r) * g.ch;
            if (ry + g.ch < clip_top || ry > clip_bottom) continue;
            if (g.nd >= 2) {
              idx[g.nd - 2] = r;
              const std::string lab = std::to_string(r);
              const ImVec2 ts = font->CalcTextSizeA(small, FLT_MAX, 0, lab.c_str());
              dl->AddText(font, small, ImVec2(gx - ts.x - 6, ry + (g.ch - ts.y) * 0.5f), kDim, lab.c_str());
            }
            for (int64_t cc = c0; cc < c1; ++cc) {
              if (g.nd >= 1) idx[g.nd - 1] = cc;
              const int64_t off = views::storage::element_offset(m, idx.data());
              const ImVec2 a(gx + static_cast<float>(cc - c0) * g.cw, ry), b(a.x + g.cw, ry + g.ch);
              const bool in_storage = off >= 0 && off < s.elements;
              const bool is_hovered_elem =
                  hover_.kind == Hover::Element && hover_.tensor == m.tensor_id && hover_.index == idx;
              const bool same_cell = hover_here && hover_.cell == off;
              CellStyle st{rgba(col, 0.2f), rgba(col, 0.5f), kText};
              if (same_cell) st = kWarm;
              if (is_hovered_elem || (same_cell && hover_.kind == Hover::Cell)) st = kHot;
              if (in_storage && static_cast<size_t>(off) >= s.labels.size() && !same_cell && !is_hovered_elem)
                st = {kUnusedFill, rgba(col, 0.3f), kUnusedText};  // beyond the recorded preview
              if (!in_storage) st = {kUnusedFill, IM_COL32(200, 80, 80, 255), IM_COL32(230, 110, 110, 255)};
              draw_cell(dl, a, b, st, in_storage ? cell_value(s, off).c_str() : "?");
              if (hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
                next_.kind = Hover::Element;
                next_.storage = s.id;
                next_.cell = off;
                next_.tensor = m.tensor_id;
                next_.index = idx;
                ImGui::BeginTooltip();
                ImGui::TextUnformatted(element_name(t, idx).c_str());
                ImGui::TextColored(ImVec4(1.0f, 0.84f, 0.43f, 1), "%s", views::storage::offset_formula(m, idx).c_str());
                ImGui::TextDisabled(
                    "storage_offset + \xCE\xA3 index\xC2\xB7stride \xE2\x86\x92 storage #%llu %s %lld = %s",
                    static_cast<unsigned long long>(s.id), tr("cell"), static_cast<long long>(off),
                    cell_value(s, off).c_str());
                ImGui::EndTooltip();
              }
            }
            if (c1 == g.shown_cols && g.cols > g.shown_cols)  // more columns than drawn
              centered_text(dl, ImVec2(gx + static_cast<float>(c1 - c0) * g.cw, ry),
                            ImVec2(gx + static_cast<float>(c1 - c0 + 1) * g.cw, ry + g.ch), "…", kDim, font_size());
          }
          if (g.rows > g.shown_rows) {
            const std::string more = format(tr("… %lld more rows"), static_cast<long long>(g.rows - g.shown_rows));
            dl->AddText(font, small + 1, ImVec2(gx, ry0 + static_cast<float>(g.shown_rows) * g.ch + 2), kDim,
                        more.c_str());
          }
        }
        y += g.band_h + kBandGap;
      }
    }
    y = grid_top + static_cast<float>((g.shown_slices + g.slice_cols - 1) / g.slice_cols) *
                       (g.slice_h + (g.nd >= 3 ? kSliceGap : 0));
    if (g.slices > g.shown_slices) {
      const std::string more = format(tr("… %lld more slices"), static_cast<long long>(g.slices - g.shown_slices));
      dl->AddText(ImVec2(x0, y), kDim, more.c_str());
    }
  }
};

}  // namespace

std::unique_ptr<View> make_storage_view() { return std::make_unique<StorageView>(); }

}  // namespace ipt::gui
