#pragma once
// The Schema view's lower half, for an operator the project has: the pipeline the operator
// went through — its YAML entry, the parsed schema, each generated registration (with its
// statement block and the generated wrapper it installs, or the hand-written kernel it calls),
// the hand-written derivative formula, the dispatch table recorded in the trace — and what the
// schema check mode found at its last call. Drawn from op_sources (the embedded sources) and
// two trace events; it never asks the runtime.

#include <map>
#include <string>

#include "core/ops/op_sources.h"
#include "core/trace/events.h"

namespace ipt::gui {

struct PipelineState {
  // Generated definitions already found, by "FILE NAME" (finding one scans a whole file).
  std::map<std::string, Definition> definitions;
  std::string open_site;        // "build/generated/RegisterCPU.cpp:96": the registration shown open
  bool scroll_to_open = false;  // scroll to it on the next frame (a followed link)
};

// `table` is null when the operator did not run in this recording.
void draw_schema_pipeline(const OpSources& src, const std::string& canonical, const trace::DispatchTable* table,
                          PipelineState& st);
// What the schema check mode found at the operator's last call; null: it ran without the mode.
void draw_schema_check(const trace::SchemaCheck* check);

}  // namespace ipt::gui
