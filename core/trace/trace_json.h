#pragma once
// Trace files: one JSON document that Perfetto UI and chrome://tracing open directly
// (Chrome Trace Event format) and that also carries every event at full fidelity under a
// versioned "insidePyTorch" key, so Inside PyTorch can load it back. Format: docs/trace-format.md.

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/trace/events.h"
#include "core/util/write_file.h"

namespace ipt::trace {

inline constexpr const char* kTraceFormatName = "inside-pytorch-trace";
inline constexpr int kTraceFormatVersion = 7;  // the newest version this program reads and writes

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

// The document as text, streamed to `put` in large pieces: "displayTimeUnit", "traceEvents"
// (one event a line), "insidePyTorch" (the string table, then one event a line).
void write_trace(const std::vector<Event>& events, const TraceMeta& meta, const TextSink& put);
std::string to_json_text(const std::vector<Event>& events, const TraceMeta& meta);
// The same document parsed into a tree, for tests and small traces. Note: nlohmann::json sorts
// keys, so its dump() puts "insidePyTorch" before "traceEvents", which older Perfetto
// importers stop at; write files with write_trace_file.
nlohmann::json to_json(const std::vector<Event>& events, const TraceMeta& meta);
// Format version 1, the previous format (a readable summary in every Chrome event's args and
// one JSON object per payload event); still read, and written for the benchmarks' comparison.
std::string to_json_text_v1(const std::vector<Event>& events, const TraceMeta& meta);

// Atomic: writes a temporary file next to `path`, flushes it, renames it over `path`.
// On failure `path` is untouched, no temporary is left, and ipt::Error is thrown.
void write_trace_file(const std::filesystem::path& path, const std::vector<Event>& events, const TraceMeta& meta);

// Read a trace back (format version 3, 2 or 1). Any malformed input throws ipt::Error with a
// clear message and the byte position; never crashes. Memory stays near the events' own size
// (Note [Reading a trace in pieces] in json_scan.h).
LoadedTrace read_trace_json(std::string_view text);
// How far a load on another thread has come, and a way to stop it: the load throws
// ipt::Error "loading was cancelled" soon after `cancel` is set (between batches of events).
struct LoadProgress {
  std::atomic<double> fraction{0};  // 0 to 1, of the events read
  std::atomic<bool> cancel{false};
};
LoadedTrace read_trace_file(const std::filesystem::path& path, LoadProgress* progress = nullptr);
// Version 1 documents only (what read_trace_json does with them).
LoadedTrace read_trace_json_v1(std::string_view text);

// Violations of the Chrome-trace rules this format promises (empty: all fine): traceEvents is
// an array; every event has ph, ts, pid, tid, name; X slices have dur >= 0 and nest strictly
// per (pid, tid), both in microseconds as written (ts, and ts + dur added as doubles) and at
// whole nanoseconds (each rounded); M events name the process and every thread used.
std::vector<std::string> check_chrome_trace_rules(const nlohmann::json& doc);
// The same rules over a document's text, read in pieces (a malformed document throws, as
// read_trace_json does); `release` may drop bytes already read.
std::vector<std::string> check_chrome_trace_rules_text(std::string_view text,
                                                       const std::function<void(size_t, size_t)>& release = {});
std::vector<std::string> check_chrome_trace_rules_file(const std::filesystem::path& path);

}  // namespace ipt::trace
