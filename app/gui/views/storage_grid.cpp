// A tensor grid's geometry (see storage_grid.h).
#include "app/gui/views/storage_grid.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "core/views/storage_layout.h"

namespace ipt::gui::storage {

using namespace cells;

GridGeom grid_geometry(const trace::TensorMeta& m, float avail) {
  GridGeom g;
  g.nd = m.sizes.size();
  const float small = small_size();
  if (g.nd >= 1) g.cols = m.sizes[g.nd - 1];
  if (g.nd >= 2) g.rows = m.sizes[g.nd - 2];
  for (size_t k = 0; k + 2 < g.nd; ++k) g.slices *= m.sizes[k];
  if (views::storage::numel(m) == 0) g.rows = g.cols = g.slices = 0;
  // Big tensors: fewer rows and one band of columns, so a frame stays cheap and short.
  const bool big = views::storage::numel(m) > 1024;
  g.shown_rows = std::min(g.rows, big ? kMaxRowsBig : kMaxRows);
  g.shown_cols = std::min(g.cols, kMaxCols);
  if (g.nd >= 2) {
    const std::string widest = std::to_string(std::max<int64_t>(g.shown_rows - 1, 0));
    g.row_label_w = ImGui::GetFont()->CalcTextSizeA(small, FLT_MAX, 0, widest.c_str()).x + 8;
  }
  const float room = std::max(avail - g.row_label_w, kMinCellW);
  const int64_t want = std::max<int64_t>(g.shown_cols + (g.cols > g.shown_cols ? 1 : 0), 1);
  g.cw = std::clamp(std::floor(room / static_cast<float>(want)), kMinCellW, kCellW);
  g.ch = g.cw >= 40 ? kCellH : 22;
  g.per_band = std::max<int64_t>(1, static_cast<int64_t>(room / g.cw));
  const int64_t max_bands = big ? 1 : 3;
  if ((want + g.per_band - 1) / g.per_band > max_bands) g.shown_cols = std::min(g.shown_cols, g.per_band * max_bands);
  // Room for the "…" after the last column.
  if (g.cols > g.shown_cols && g.shown_cols % g.per_band == 0 && g.shown_cols > 1) --g.shown_cols;
  g.bands = std::max<int64_t>(1, (g.shown_cols + g.per_band - 1) / g.per_band);
  g.col_label_h = g.nd >= 1 ? small + 2 : 0;
  g.slice_label_h = g.nd >= 3 ? ImGui::GetTextLineHeight() + 2 : 0;
  const float more_rows_h = g.rows > g.shown_rows ? small + 4 : 0;
  g.band_h = g.col_label_h + static_cast<float>(std::max<int64_t>(g.shown_rows, 1)) * g.ch + more_rows_h;
  g.slice_h = g.slice_label_h + static_cast<float>(g.bands) * (g.band_h + kBandGap);
  // Keep the number of drawn rows bounded for N-D tensors.
  const int64_t max_slices = std::max<int64_t>(1, std::min<int64_t>(16, 96 / std::max<int64_t>(g.shown_rows, 1)));
  g.shown_slices = std::min(std::max<int64_t>(g.slices, 1), max_slices);
  const int64_t band_cols = std::min(g.per_band, g.shown_cols) + (g.cols > g.shown_cols ? 1 : 0);
  g.slice_w = g.nd == 0 ? g.cw : g.row_label_w + static_cast<float>(band_cols) * g.cw;
  if (g.nd >= 3 && g.bands == 1)
    g.slice_cols =
        std::clamp<int64_t>(static_cast<int64_t>((avail + kSliceGapX) / (g.slice_w + kSliceGapX)), 1, g.shown_slices);
  const int64_t slice_rows = (g.shown_slices + g.slice_cols - 1) / g.slice_cols;
  g.width = static_cast<float>(g.slice_cols) * g.slice_w + static_cast<float>(g.slice_cols - 1) * kSliceGapX;
  g.height = static_cast<float>(slice_rows) * (g.slice_h + (g.nd >= 3 ? kSliceGap : 0));
  if (g.slices > g.shown_slices) g.height += ImGui::GetTextLineHeight() + 2;
  if (views::storage::numel(m) == 0) g.height = ImGui::GetTextLineHeight() + 4;
  return g;
}

std::vector<int64_t> slice_index(const trace::TensorMeta& m, int64_t s) {
  const size_t lead = m.sizes.size() >= 2 ? m.sizes.size() - 2 : 0;
  std::vector<int64_t> idx(lead, 0);
  for (size_t k = lead; k-- > 0;) {
    idx[k] = s % m.sizes[k];
    s /= m.sizes[k];
  }
  return idx;
}

}  // namespace ipt::gui::storage
