#pragma once
// Trace files: one JSON document that Perfetto UI and chrome://tracing open directly
// (Chrome Trace Event format) and that also carries every event at full fidelity under a
// versioned "insidePyTorch" key, so Inside PyTorch can load it back. Format: docs/trace-format.md.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/trace/events.h"

namespace ipt::trace {

inline constexpr const char* kTraceFormatName = "inside-pytorch-trace";
inline constexpr int kTraceFormatVersion = 1;  // the newest version this program reads and writes

// What the trace is of.
struct TraceMeta {
  std::string title;                          // program or lesson title
  std::string source;                         // source text of the snippet
  std::map<std::string, std::string> fields;  // free extra fields
  bool operator==(const TraceMeta&) const = default;
};

struct LoadedTrace {
  std::vector<Event> events;  // exactly as written; strings intern()ed
  TraceMeta meta;
};

// The whole document. Note: nlohmann::json sorts keys, so to_json(...).dump() puts
// "insidePyTorch" before "traceEvents", which older Perfetto importers stop at; write files
// with to_json_text / write_trace_file, which order the keys for them.
nlohmann::json to_json(const std::vector<Event>& events, const TraceMeta& meta);
// The document as text: "displayTimeUnit", "traceEvents", "insidePyTorch", one event a line.
std::string to_json_text(const std::vector<Event>& events, const TraceMeta& meta);

// Atomic: writes a temporary file next to `path`, flushes it, renames it over `path`.
// On failure `path` is untouched, no temporary is left, and ipt::Error is thrown.
void write_trace_file(const std::filesystem::path& path, const std::vector<Event>& events, const TraceMeta& meta);

// Read a trace back. Any malformed input throws ipt::Error with a clear message; never crashes.
LoadedTrace read_trace_json(std::string_view text);
LoadedTrace read_trace_file(const std::filesystem::path& path);

// Violations of the Chrome-trace rules this format promises (empty: all fine): traceEvents is
// an array; every event has ph, ts, pid, tid, name; X slices have dur >= 0 and nest strictly
// per (pid, tid) (compared at whole nanoseconds); M events name the process and every thread used.
std::vector<std::string> check_chrome_trace_rules(const nlohmann::json& doc);

}  // namespace ipt::trace
