// The key sets of one dispatch step as an aligned grid of key chips: each tensor argument's
// set, the thread-local included and excluded sets, and the merged set the table is indexed
// with (tensors ∪ included − excluded = merged), with fallthrough, excluded and chosen keys
// marked and a legend for the marks present. Part of the Dispatch view.
#include "app/gui/views/dispatch_key_grid.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/i18n.h"
#include "app/gui/views/key_chips.h"
#include "core/dispatch/dispatch_key_set.h"

namespace ipt::gui {

namespace {

uint64_t fbit(Functionality f) { return DispatchKeySet::functionality_bit(f); }

// Keys of `raw` whose functionality is not one of the columns' (highest priority first).
// Per-backend functionalities are named with the call's backends (`backends`): an excluded
// AutogradFunctionality bit removes AutogradCPU from a call on CPU tensors.
std::vector<DispatchKey> extra_keys(uint64_t raw, uint64_t col_fbits, uint64_t backends) {
  raw |= backends & DispatchKeySet::kBackendMask;
  std::vector<DispatchKey> out;
  for (int f = 1; f <= kNumFunctionalities; ++f) {
    auto fn = static_cast<Functionality>(f);
    const uint64_t b = fbit(fn);
    if (!(raw & b) || (col_fbits & b)) continue;
    bool any = false;
    if (is_per_backend(fn))
      for (int k = 1; k <= kNumBackends; ++k)
        if (raw & DispatchKeySet::backend_bit(static_cast<BackendComponent>(k)))
          out.emplace_back(fn, static_cast<BackendComponent>(k)), any = true;
    if (!any) out.emplace_back(fn);
  }
  std::reverse(out.begin(), out.end());
  // Most telling first: runtime keys of this call's backends (AutogradCPU), then Autograd*.
  auto rest = std::stable_partition(out.begin(), out.end(), [](const DispatchKey& k) {
    return is_per_backend(k.functionality) && k.backend != BackendComponent::Invalid;
  });
  std::stable_partition(rest, out.end(), [](const DispatchKey& k) { return key_family(k) == KeyFamily::Autograd; });
  return out;
}

// Keys of a thread-local set that no tensor here has, after the columns: as many small chips
// as fit on the row, then one "+N" chip naming the rest in its tooltip.
void draw_extras(ImDrawList* dl, const std::vector<DispatchKey>& keys, unsigned style, float x, float y, float x0,
                 float right, float row_h, float gap, float& y_out, std::deque<std::string>& texts) {
  size_t i = 0;
  bool wrapped = false;
  while (i < keys.size()) {
    const std::string name = keys[i].name();
    const float w = key_chip_size(name.c_str(), style).x;
    const std::string more = "+" + std::to_string(keys.size() - i - 1);
    const float need = w + (i + 1 < keys.size() ? gap + key_chip_size(more.c_str(), style).x : 0.0f);
    if (x + need <= right) {
      KeyCell c{name, key_family(keys[i]), style, tr("also in the set, but no tensor here has this key")};
      if (draw_key_chip(dl, ImVec2(x, y + 1.0f), name.c_str(), c.fam, style)) key_cell_tooltip(c);
      x += w + gap;
      ++i;
      continue;
    }
    const std::string rest = "+" + std::to_string(keys.size() - i);
    const float rw = key_chip_size(rest.c_str(), style).x;
    if (x + rw > right && !wrapped && x > x0) {  // not even "+N" fits: next line
      x = x0, y += row_h, wrapped = true;
      continue;
    }
    texts.emplace_back(tr("also in the set, but no tensor here has these keys:"));
    for (size_t k = i; k < keys.size(); ++k) texts.back() += "\n  " + keys[k].name();
    KeyCell c{rest, KeyFamily::Other, style, texts.back().c_str()};
    if (draw_key_chip(dl, ImVec2(x, y + 1.0f), rest.c_str(), c.fam, style)) key_cell_tooltip(c);
    break;
  }
  y_out = y;
}

}  // namespace

void DispatchKeyGrid::draw(const trace::DispatchStep& s, const std::vector<std::string>& arg_labels) {
  std::deque<std::string>& texts = extras_text_;
  texts.clear();
  uint64_t args = 0;
  for (uint64_t a : s.arg_key_sets) args |= a;
  std::vector<DispatchKey> cols = DispatchKeySet::from_raw(args | s.tls_included | s.merged).keys();
  std::reverse(cols.begin(), cols.end());  // highest priority on the left
  uint64_t col_fbits = 0;
  std::vector<std::string> names;
  std::vector<float> col_w;
  for (const auto& k : cols) {
    col_fbits |= fbit(k.functionality);
    names.push_back(k.name());
    col_w.push_back(key_chip_size(names.back().c_str()).x);
  }
  const float gap = 6.0f;
  float grid_w = 0;
  for (float w : col_w) grid_w += w + gap;

  struct Row {
    std::string label;
    const char* sym;
    const char* short_label = nullptr;  // used when the full label does not fit on the left
    std::vector<KeyCell> cells;
    bool merged = false;
    bool note = false;                     // a text row (no tensor arguments)
    std::vector<DispatchKey> extras = {};  // keys of the row's set that are not columns
    unsigned extras_style = ChipSmall;
  };
  std::vector<Row> rows;
  for (size_t a = 0; a < s.arg_key_sets.size(); ++a) {
    Row r{arg_labels[a], a ? "∪" : " ", nullptr, {}};
    DispatchKeySet ks = DispatchKeySet::from_raw(s.arg_key_sets[a]);
    for (size_t i = 0; i < cols.size(); ++i)
      if (ks.has(cols[i])) r.cells.push_back({names[i], key_family(cols[i]), ChipNormal, nullptr, static_cast<int>(i)});
    rows.push_back(std::move(r));
  }
  if (s.arg_key_sets.empty()) {
    Row r{tr("Tensor key sets"), " ", nullptr, {}};
    r.note = true;
    rows.push_back(std::move(r));
  }
  {
    Row r{tr("Thread-local included"), "∪", tr("included"), {}};
    for (size_t i = 0; i < cols.size(); ++i)
      if (s.tls_included & fbit(cols[i].functionality))
        r.cells.push_back({names[i], key_family(cols[i]), ChipNormal, nullptr, static_cast<int>(i)});
    r.extras = extra_keys(s.tls_included, col_fbits, args), r.extras_style = ChipSmall;
    rows.push_back(std::move(r));
  }
  {
    Row r{tr("Thread-local excluded"), "−", tr("excluded"), {}};
    for (size_t i = 0; i < cols.size(); ++i)
      if (s.tls_excluded & fbit(cols[i].functionality))
        r.cells.push_back({names[i], key_family(cols[i]), ChipHollow, nullptr, static_cast<int>(i)});
    r.extras = extra_keys(s.tls_excluded, col_fbits, args), r.extras_style = ChipHollow | ChipSmall;
    rows.push_back(std::move(r));
  }
  {
    Row r{tr("Merged key set"), "=", tr("merged"), {}};
    r.merged = true;
    const DispatchKeySet merged = DispatchKeySet::from_raw(s.merged);
    for (size_t i = 0; i < cols.size(); ++i) {
      const uint64_t b = fbit(cols[i].functionality);
      KeyCell cell{names[i], key_family(cols[i]), ChipNormal, nullptr, static_cast<int>(i)};
      if (s.tls_excluded & b) cell.style = ChipCrossed, cell.tip = tr("excluded by the thread-local excluded set");
      else if (s.skipped_fallthrough & b) cell.style = ChipFallthrough, cell.tip = tr("fallthrough for this operator");
      else if (!merged.has(cols[i])) continue;
      if (cols[i] == s.chosen) cell.style |= ChipChosen, cell.tip = tr("chosen: the highest-priority key");
      r.cells.push_back(std::move(cell));
    }
    if (s.chosen.functionality == Functionality::Undefined && !s.chosen.is_alias())
      r.cells.push_back({"Undefined", KeyFamily::Undefined, ChipChosen, tr("no key left: the Undefined entry runs")});
    rows.push_back(std::move(r));
  }

  // Geometry: full labels on the left when everything fits, else short labels on the left
  // (the full one in a tooltip), else full labels above each row.
  const float sym_w = ImGui::CalcTextSize("∪").x + 12.0f;
  const float avail = ImGui::GetContentRegionAvail().x;
  auto labels_width = [&](bool use_short) {
    float w = 0;
    for (const auto& r : rows)
      w = std::max(w, ImGui::CalcTextSize(use_short && r.short_label ? r.short_label : r.label.c_str()).x);
    if (!s.arg_key_sets.empty())
      w = std::max(w, ImGui::CalcTextSize(use_short ? tr("tensors") : tr("Tensor key sets")).x);
    return w + 10.0f;
  };
  float label_w = labels_width(false);
  bool use_short = false;
  if (label_w + sym_w + grid_w > avail) {
    use_short = true;
    label_w = labels_width(true);
  }
  const bool labels_left = label_w + sym_w + grid_w <= avail;
  if (!labels_left) use_short = false;
  const float chip_h = key_chip_size("X").y;
  const float row_h = chip_h + 8.0f;
  const float th = ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 txt = ImGui::GetColorU32(ImGuiCol_Text);

  // Priority hint over the columns.
  {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float x0 = p.x + (labels_left ? label_w : 0.0f) + sym_w;
    if (labels_left && !s.arg_key_sets.empty()) dl->AddText(p, dim, use_short ? tr("tensors") : tr("Tensor key sets"));
    std::string hi = std::string("← ") + tr("higher priority");
    std::string lo = std::string(tr("lower priority")) + " →";
    dl->AddText(ImVec2(x0, p.y), dim, hi.c_str());
    const float lw = ImGui::CalcTextSize(lo.c_str()).x;
    const float right = std::max(x0 + grid_w - gap, x0 + ImGui::CalcTextSize(hi.c_str()).x + 20 + lw);
    if (right <= p.x + avail) dl->AddText(ImVec2(right - lw, p.y), dim, lo.c_str());
    ImGui::Dummy(ImVec2(avail, th + 2));
  }

  float chosen_x = -1;
  for (const auto& r : rows) {
    if (!labels_left) ImGui::TextDisabled("%s", r.label.c_str());
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float x0 = p.x + (labels_left ? label_w : 0.0f) + sym_w;
    const float right = p.x + avail;
    if (r.merged) {
      dl->AddLine(ImVec2(x0 - sym_w, p.y + 1), ImVec2(std::min(right, std::max(x0 + grid_w, x0 + 120)), p.y + 1),
                  IM_COL32(170, 170, 170, 140), 1.0f);
    }
    if (labels_left) {
      const char* l = use_short && r.short_label ? r.short_label : r.label.c_str();
      const ImVec2 lp(p.x, p.y + (row_h - th) * 0.5f);
      dl->AddText(lp, r.merged ? txt : dim, l);
      if (l != r.label.c_str() && ImGui::IsWindowHovered() &&
          ImGui::IsMouseHoveringRect(lp, ImVec2(lp.x + ImGui::CalcTextSize(l).x, lp.y + th)))
        ImGui::SetTooltip("%s", r.label.c_str());
    }
    dl->AddText(ImVec2(x0 - sym_w + 2, p.y + (row_h - th) * 0.5f), txt, r.sym);
    float y = p.y + 4.0f;
    float xf = x0;  // flowing position after the columns
    {
      float x = x0;
      for (size_t i = 0; i < cols.size(); ++i) x += col_w[i] + gap;
      xf = x;
    }
    if (r.note) dl->AddText(ImVec2(x0, p.y + (row_h - th) * 0.5f), dim, tr("(no tensor arguments)"));
    for (const auto& cell : r.cells) {
      float x;
      float w = 0;
      if (cell.col >= 0) {
        x = x0;
        for (int i = 0; i < cell.col; ++i) x += col_w[static_cast<size_t>(i)] + gap;
        w = col_w[static_cast<size_t>(cell.col)];
      } else {
        w = key_chip_size(cell.name.c_str(), cell.style).x;
        if (xf + w > right && xf > x0) xf = x0, y += row_h;
        x = xf;
        xf += w + gap;
      }
      const float cy = (cell.style & ChipSmall) ? y + 1.0f : y;
      if (draw_key_chip(dl, ImVec2(x, cy), cell.name.c_str(), cell.fam, cell.style, cell.col >= 0 ? w : 0.0f))
        key_cell_tooltip(cell);
      if (cell.style & ChipChosen) chosen_x = x + w * 0.5f;
    }
    if (!r.extras.empty()) draw_extras(dl, r.extras, r.extras_style, xf, y, x0, right, row_h, gap, y, texts);
    ImGui::Dummy(ImVec2(avail, y - p.y + row_h - 4.0f));
  }
  // "chosen" under the chosen chip.
  if (chosen_x >= 0) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImU32 yellow = IM_COL32(255, 225, 100, 255);
    dl->AddTriangleFilled(ImVec2(chosen_x, p.y), ImVec2(chosen_x - 5, p.y + 6), ImVec2(chosen_x + 5, p.y + 6), yellow);
    const char* t = tr("chosen");
    const float tw = ImGui::CalcTextSize(t).x;
    dl->AddText(ImVec2(std::max(p.x, chosen_x - tw * 0.5f), p.y + 6), yellow, t);
    ImGui::Dummy(ImVec2(avail, th + 8));
  }
  // Legend for the states present in the merged row.
  bool any_fall = false, any_cross = false;
  for (const auto& cell : rows.back().cells) {
    any_fall |= (cell.style & ChipFallthrough) != 0;
    any_cross |= (cell.style & ChipCrossed) != 0;
  }
  if (any_fall || any_cross) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    float x = p.x, y = p.y;
    const float sw = 26.0f, sh = key_chip_size("X", ChipSmall).y;
    auto item = [&](unsigned style, const char* text) {
      const float w = sw + 6 + ImGui::CalcTextSize(text).x;
      if (x + w > p.x + avail && x > p.x) x = p.x, y += sh + 4;
      draw_key_chip(dl, ImVec2(x, y), "", KeyFamily::Other, style | ChipSmall, sw);
      dl->AddText(ImVec2(x + sw + 6, y + (sh - th) * 0.5f), dim, text);
      x += w + 18;
    };
    if (any_fall) item(ChipFallthrough, tr("fallthrough for this operator"));
    if (any_cross) item(ChipCrossed, tr("excluded by the thread-local excluded set"));
    ImGui::Dummy(ImVec2(avail, y - p.y + sh + 2));
  }
}

}  // namespace ipt::gui
