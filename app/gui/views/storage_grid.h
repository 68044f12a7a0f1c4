#pragma once
// The geometry of a tensor drawn as a grid in the Tensor & storage view: cell size, column
// bands when a row is wider than the view, and the 2-D slices of an N-D tensor.

#include <cstdint>
#include <vector>

#include "app/gui/views/storage_draw.h"
#include "core/trace/events.h"

namespace ipt::gui::storage {

// A tensor drawn as a stack of 2-D slices; each slice as column bands when it is wider
// than the view (a 1-D tensor is one row, wrapped the same way; a 0-d tensor one cell).
struct GridGeom {
  size_t nd = 0;
  float cw = cells::kCellW, ch = cells::kCellH;
  int64_t rows = 1, cols = 1, shown_rows = 1, shown_cols = 1;
  int64_t slices = 1, shown_slices = 1;
  int64_t per_band = 1, bands = 1;
  float row_label_w = 0, col_label_h = 0, slice_label_h = 0;
  float band_h = 0, slice_h = 0, slice_w = 0;
  int64_t slice_cols = 1;  // slices side by side (N-D tensors whose slices are narrow)
  float width = 0, height = 0;
};

constexpr float kBandGap = 4, kSliceGap = 6, kSliceGapX = 16;

// The grid of tensor `m` in `avail` pixels of width (with the current font).
GridGeom grid_geometry(const trace::TensorMeta& m, float avail);
// The leading index (all dimensions but the last two) of slice s.
std::vector<int64_t> slice_index(const trace::TensorMeta& m, int64_t s);

}  // namespace ipt::gui::storage
