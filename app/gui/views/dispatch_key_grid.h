#pragma once
// The Dispatch view's key grid: how one dispatch step's key sets combine into the merged set
// (tensors ∪ thread-local included − excluded = merged), one row of aligned key chips each.

#include <deque>
#include <string>
#include <vector>

#include "core/trace/events.h"

namespace ipt::gui {

class DispatchKeyGrid {
 public:
  // Draws the grid at the cursor; `arg_labels` names each tensor argument ("self", "other").
  void draw(const trace::DispatchStep& s, const std::vector<std::string>& arg_labels);

 private:
  std::deque<std::string> extras_text_;  // tooltips of "+N" chips (stable addresses)
};

}  // namespace ipt::gui
