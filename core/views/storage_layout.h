#pragma once
// The model behind the Tensor & storage view: which storages the shown step touches, the
// tensors over each one, and the index math that ties a tensor element to a storage cell.
// Pure functions of recorded events (no ImGui, no runtime), rebuilt only when the document
// or the shown step changes.
//
// Note [Which tensors the storage view shows]
// A step records a TensorMeta for every tensor that enters or leaves a top-level call
// (labels "self", "other", "src", "result"), so an expression such as `b[2, 1].item()`
// leaves behind intermediate tensors (b[2], b[2][1], a wrapped scalar) that no variable
// names. The view lists:
//   - step tensors: seen in the step's events [first, last), latest snapshot of each id;
//   - earlier tensors: seen only before the step, on a storage the step touches, and not
//     temporary (they give context, e.g. the base a view writes into);
//   - temporaries (hidden unless asked for): tensors that no variable names and whose
//     events all lie inside one statement, unless they are that statement's result (the
//     last top-level call's result when the call is not in-place, or a tensor recorded
//     outside any call, such as torch.tensor's).
// Variable names come from the program's "binding" events (a module-level Python name bound
// to a tensor, recorded by the front end's tracing hook), never from re-reading the source.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/trace/events.h"

namespace ipt::views::storage {

// ---- index math and formatting -------------------------------------------------------

// Bytes per element of a dtype name ("float32" -> 4); 4 for unknown names.
[[nodiscard]] int64_t dtype_size(const char* dtype);
// storage_offset + Σ index_k · stride_k (index has one entry per dimension).
[[nodiscard]] int64_t element_offset(const trace::TensorMeta& t, const int64_t* index);
// "offset = 0 + 1·1 + 2·4 = 9"; for a 0-d tensor "offset = storage_offset = 6".
[[nodiscard]] std::string offset_formula(const trace::TensorMeta& t, const std::vector<int64_t>& index);
// A compact cell label: ints as ints, bools as T/F, whole floats below 1e6 as ints ("6"),
// other floats from 1e-3 to 1e5 with 4 significant digits and at least one decimal ("-0.5",
// "3.142", "1234.6"), the rest with 2 significant digits and a short exponent ("1.8e31",
// "2.8e-5", "1e6").
[[nodiscard]] std::string format_value(double v, const char* dtype);
// "(4, 3)", "(3,)", "()".
[[nodiscard]] std::string shape_text(std::span<const int64_t> v);
// "[2, 1]".
[[nodiscard]] std::string index_text(const std::vector<int64_t>& index);
// The leading index of a 2-D slice of an N-D tensor: "[0, :, :]", "[1, 2, :, :]".
[[nodiscard]] std::string slice_label(const std::vector<int64_t>& lead, size_t ndim);
// Product of sizes (1 for a 0-d tensor).
[[nodiscard]] int64_t numel(const trace::TensorMeta& t);

// ---- the model ------------------------------------------------------------------------

enum class TensorKind : uint8_t { Step, Earlier, Temporary };

struct TensorItem {
  const trace::TensorMeta* meta = nullptr;  // the latest snapshot in [0, last)
  TensorKind kind = TensorKind::Step;
  std::vector<std::string> names;  // Python names bound to this tensor
  // Made by a top-level call whose "self" lives on another storage (a copy, or any op
  // that allocates its result): see the "new storage" badge.
  bool new_storage = false;
  const char* made_by = "";  // that call's operator, e.g. "aten::contiguous"
  uint64_t from_tensor = 0, from_storage = 0;
  // Per storage preview cell: how many of this tensor's elements map to it (saturating;
  // elements are enumerated up to kMaxEnumerated).
  std::vector<uint16_t> covers;
  bool covers_partial = false;  // more elements than were enumerated
};

struct StorageItem {
  uint64_t id = 0;
  int64_t nbytes = 0;
  int64_t elements = 0;  // nbytes / dtype size
  const char* dtype = "float32";
  const char* device = "cpu";
  const trace::PreviewValues* values = nullptr;  // latest preview (first ≤256 elements)
  bool truncated = false;
  std::vector<std::string> labels;  // format_value of each preview cell
  std::vector<uint8_t> written;     // per preview cell: value changed during the step
  bool allocated_in_step = false, freed_in_step = false;
  std::vector<TensorItem> tensors;  // ordered by tensor id (creation order)
};

struct StorageModel {
  std::vector<StorageItem> storages;  // in order of first use in the step
  size_t step_tensors = 0;            // number of tensors seen in the step
};

inline constexpr int64_t kMaxEnumerated = int64_t{1} << 18;

// Builds the model of events[first, last) (earlier events give context).
[[nodiscard]] StorageModel build_storage_model(const std::vector<trace::Event>& events, size_t first, size_t last);

// Calls f(index, offset) for the tensor's elements in row-major order, at most `limit` of
// them; returns false when it stopped early.
template <typename F>
bool for_each_element(const trace::TensorMeta& t, int64_t limit, F&& f) {
  const size_t nd = t.sizes.size();
  for (int64_t s : t.sizes)
    if (s <= 0) return true;
  std::vector<int64_t> idx(nd, 0);
  int64_t off = t.storage_offset;
  for (int64_t count = 0;; ++count) {
    if (count >= limit) return false;
    f(idx, off);
    size_t d = nd;
    while (d > 0) {
      --d;
      if (++idx[d] < t.sizes[d]) {
        off += t.strides[d];
        break;
      }
      off -= t.strides[d] * (t.sizes[d] - 1);
      idx[d] = 0;
      if (d == 0) return true;
    }
    if (nd == 0) return true;
  }
}

}  // namespace ipt::views::storage
