#pragma once
// The Compile view's model (no GUI): what torch.compile did during a run, from the trace's
// `compile` events (Note [What torch.compile records] in python/torch/_dynamo/trace_events.py).
//
// Each compile ("0/1": frame 0, its second compile) gathers its artifacts — why it happened,
// the frame's source with the graph break marked, the captured graph, the guards, AOTAutograd's
// graphs, the fusion decisions and the generated code — the time of each phase, and how often
// its cache entry was hit since. A guard of an earlier compile that a later call failed is
// marked on its line of that compile's guard tree (the failure's tree_line, failure_at_line),
// so the view can show it in red with the expected and the actual value. Everything comes
// from typed payloads (docs/trace-format.md); no text is parsed here.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/events.h"

namespace ipt::views {

struct GraphBreakInfo {
  std::string reason;  // "builtin: print [...] False"
  std::string file;
  int line = 0;
  std::string code;  // the user's line
};

// Why a compile happened: a cache entry whose guard failed (trace::GuardFailure: the entry, the
// guard, its source, expected and actual, its line in the entry's guard tree, PyTorch's words).
using GuardFailure = trace::GuardFailure;
using trace::compile_id_text;  // "0/1"

struct PhaseTime {
  std::string name;  // "capture", "aot", "lowering", "c++ compile"
  int64_t ns = 0;
};

struct CompileRecord {
  std::string compile_id;
  int epoch = 0;  // resets (torch._dynamo.reset()) before it: ids start again
  int frame_id = 0, compile_index = 0;
  std::string frame;  // "fn (prog.py:3)"
  std::string file;
  int first_line = 0;                 // the function's first line in `file`
  std::vector<std::string> source;    // the function's lines, from first_line on
  std::vector<GuardFailure> reasons;  // why this compile happened (empty: the first one)
  std::string graph, guards, aot_forward, aot_backward, output_code;
  // Fusion decisions, per lowered graph (the captured one; or AOT's forward, then backward),
  // indexed by FusionDecisions::graph.
  std::vector<std::vector<trace::FusionDecision>> fusion;
  std::optional<GraphBreakInfo> graph_break;
  std::vector<PhaseTime> phases;  // in the order they began
  int64_t hits = 0;               // cache hits of this entry in the events read
  int64_t last_check_ns = -1;     // the last hit's guard check time (-1: no hit)
  int32_t last_entries = 0;       // and how many entries the cache held then
  size_t event = 0;               // index of its first event
  // Failures of this compile's guards reported by later compiles.
  std::vector<GuardFailure> failed_later;
};

struct CompileModel {
  std::vector<CompileRecord> compiles;  // in order
  // Frames (by epoch and frame id, in order of first compile) and their compiles' indices.
  struct Frame {
    int epoch = 0, frame_id = 0;
    std::vector<size_t> compiles;
  };
  std::vector<Frame> frames;
  int64_t cache_misses = 0;
};

// The compiles recorded in events[first, last).
CompileModel build_compile_model(const std::vector<trace::Event>& events, size_t first, size_t last);

// The failure of `failed` whose guard is line `tree_line` (0-based) of the guard tree, if any.
const GuardFailure* failure_at_line(int tree_line, const std::vector<GuardFailure>& failed);

// A fusion decision as a sentence: "starts cpp_fused_mul_0", "fused into cpp_fused_mul_0",
// "fused into cpp_fused_mul_sum_0 (a reduction of its values)", "not fused: why"; a kernel that
// began because the one before had to end says why: "starts cpp_fused_add_1 (a new kernel: ...)".
std::string fusion_decision_text(const trace::FusionDecision& d);

// "mul: "f32[3]" = ..." / "    buf0 = ..." -> the name the line defines ("" for none).
std::string defined_name(const std::string& code_line);

}  // namespace ipt::views
