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

// Format version 5 recorded three of torch.compile's facts as text, which loading turns into the
// typed payloads of version 6 (an event whose text does not parse is left as it was):
// - Inductor's fusion decisions: a compile artifact of "node<TAB>decision" lines ("starts
//   cpp_fused_mul_0", "fused into cpp_fused_mul_0", "not fused: why"; a node that ended the open
//   kernel had a line "starts a new kernel: why" before its "starts" line) -> FusionDecisions,
//   one decision per node;
// - why a compile happened: a compile artifact of "0/0: <reason>" lines -> Recompile, each
//   failure's guard, source, expected and actual read from PyTorch's words and its line found in
//   the failed entry's guard tree;
// - a cache lookup: "cache hit [0/1]" or "cache miss" with the text "guards checked in N ns,
//   K entries" -> CacheLookup.
void upgrade_compile_text(std::vector<Event>& events);

// Versions before 7 told some events apart by their names only; loading gives them the typed
// facts version 7 records:
// - engine steps ("node ready", "grad arrived", "grad written", "grad added", and a node's own
//   Begin/End slice) get their EngineAction;
// - the "backward" slice's Text becomes an EngineRun;
// - torch.compile's phase slices "capture [0/1]" get a CompilePhase on their Begin and End;
// - "torch._dynamo.reset()" becomes a DynamoReset, counting the resets before it;
// - a compile artifact's compile id "0/1" gives its two numbers, and a fusion decision's kernel
//   name ("cpp_fused_mul_2") its kernel's number.
void upgrade_named_events(std::vector<Event>& events);

}  // namespace ipt::trace
