#pragma once
// Internal to core/trace: the Chrome args of an event, a short readable summary of its payload
// (docs/trace-format.md, "args"); the full payload is in the insidePyTorch part.

#include "core/trace/events.h"
#include "core/trace/json_text.h"

namespace ipt::trace {

// Writes each arg with a leading comma (the caller drops the first).
void write_chrome_args(JsonText& o, const Payload& p);

}  // namespace ipt::trace
