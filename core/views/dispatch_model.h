#pragma once
// View models: pure functions of recorded events (no runtime access, no GUI). The GUI's views
// and the headless text output both draw from these, so a trace loaded from a file shows
// exactly what was recorded.

#include <string>
#include <vector>

#include "core/trace/events.h"

namespace ipt::views {

// One dispatch step (a call or a redispatch) with the steps nested inside it.
struct DispatchNode {
  size_t event_index = 0;  // index of the Begin event in the event list
  const trace::DispatchStep* step = nullptr;
  std::vector<DispatchNode> children;        // nested dispatch steps, in order
  std::vector<const trace::Event*> details;  // kernel details / autograd notes inside this step
};

// The dispatch steps of events[first, last) as a forest (top-level calls are the roots).
std::vector<DispatchNode> dispatch_forest(const std::vector<trace::Event>& events, size_t first = 0,
                                          size_t last = SIZE_MAX);

// "AutogradCPU -> ADInplaceOrView -> CPU": the keys of a call and its redispatches of the same op.
std::string redispatch_chain(const DispatchNode& call);

// Text rendering of calls for the headless CLI, e.g.
//   aten::add_.Tensor  AutogradCPU [autograd kernel] -> ADInplaceOrView [kernel] -> CPU [kernel add_cpu_]
//     args: DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU) x2  merged: ...
std::string render_dispatch_text(const std::vector<DispatchNode>& roots, int max_depth = 3);

// The tensors seen in events[first, last): the last snapshot of each tensor id, in order of
// first appearance, and text "name sizes strides offset storage#id".
std::vector<const trace::TensorMeta*> tensors_seen(const std::vector<trace::Event>& events, size_t first = 0,
                                                   size_t last = SIZE_MAX);
std::string render_tensors_text(const std::vector<const trace::TensorMeta*>& tensors);

}  // namespace ipt::views
