#pragma once
// Reading traces of older format versions: their autograd events' text fields become the
// typed payloads this version records (Note [Text payloads in older traces]).

#include <vector>

#include "core/trace/events.h"

namespace ipt::trace {

// Turns the kernel_detail payloads of autograd events ("node created", "autograd graph",
// engine steps) into GraphNode, GraphNodes and EngineStep, and of "dispatch table" events into
// DispatchTable; leaves what does not parse alone.
void upgrade_text_payloads(std::vector<Event>& events);

}  // namespace ipt::trace
