// Export: Events -> Chrome Trace Event JSON (+ the full-fidelity payload) and the atomic writer.
//
// Note [Slices nest strictly]
// Each thread's Begin/End pairs become complete ("X") slices. Ends pair with the innermost
// open Begin, as in Chrome's B/E semantics. To keep slices strictly nested even for
// hand-made or reordered input, a slice starts no earlier than its parent's start or its
// previous sibling's end, and ends no earlier than its own start or its children's ends.
// For the recorder's own traces (timestamps non-decreasing per thread) this changes nothing.
//
// Note [Microseconds that truncate right]
// Chrome's ts/dur are microseconds. Perfetto converts them with int64(us * 1000.0), which
// truncates: 1001 ns written as 1.001 reads back as 1000 ns, which can push a child past its
// parent's end. We write (ns + 0.25) / 1000, so both truncating and rounding readers get the
// exact nanosecond back; the quarter nanosecond is invisible.
#include "core/trace/trace_json.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <map>

#include "core/dispatch/dispatch_key_set.h"
#include "core/trace/payload_codec.h"
#include "core/util/error.h"
#include "core/util/write_file.h"

namespace ipt::trace {

using nlohmann::json;

namespace {

constexpr int kPid = 1;

double ns_to_us(int64_t ns) { return (static_cast<double>(ns) + 0.25) / 1000.0; }

std::string key_set_names(uint64_t raw) { return DispatchKeySet::from_raw(raw).to_string(); }

std::string format_double(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

template <typename T>
std::string format_list(const std::vector<T>& xs, bool truncated = false) {
  std::string s = "[";
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) s += ", ";
    if constexpr (std::is_floating_point_v<T>) s += format_double(xs[i]);
    else s += std::to_string(xs[i]);
  }
  if (truncated) s += xs.empty() ? "..." : ", ...";
  return s + "]";
}

// Readable args for Perfetto's details panel.
struct ArgsSummary {
  json operator()(const std::monostate&) const { return json::object(); }
  json operator()(const DispatchStep& d) const {
    json args = json::array();
    for (uint64_t ks : d.arg_key_sets) args.push_back(key_set_names(ks));
    return {{"op", d.op}, {"redispatch", d.redispatch}, {"arg_key_sets", std::move(args)},
            {"tls_included", key_set_names(d.tls_included)}, {"tls_excluded", key_set_names(d.tls_excluded)},
            {"merged", key_set_names(d.merged)}, {"skipped_fallthrough", key_set_names(d.skipped_fallthrough)},
            {"chosen", d.chosen.name()}, {"kernel", d.kernel}, {"kernel_kind", d.kernel_kind},
            {"registered_at", d.registered_at}};
  }
  json operator()(const TensorMeta& t) const {
    return {{"label", t.label}, {"tensor_id", t.tensor_id}, {"dtype", t.dtype}, {"device", t.device},
            {"sizes", format_list(t.sizes)}, {"strides", format_list(t.strides)},
            {"storage_id", t.storage_id}, {"storage_offset", t.storage_offset},
            {"storage_nbytes", t.storage_nbytes}, {"version", t.version}, {"key_set", key_set_names(t.key_set)},
            {"requires_grad", t.requires_grad}, {"is_view", t.is_view},
            {"storage_values", format_list(t.storage_values, t.storage_truncated)}};
  }
  json operator()(const StorageInfo& s) const {
    return {{"storage_id", s.storage_id}, {"nbytes", s.nbytes}, {"device", s.device}, {"freed", s.freed}};
  }
  json operator()(const ScriptLine& l) const { return {{"line", l.line}, {"col", l.col}}; }
  json operator()(const Text& t) const { return {{"text", t.text}}; }
  json operator()(const KernelDetail& k) const {
    json out = json::object();
    for (const auto& [key, value] : k.fields) {
      std::string name = key;
      for (int n = 2; out.contains(name); ++n) name = std::string(key) + " (" + std::to_string(n) + ")";
      out[name] = value;
    }
    return out;
  }
};

json summary(const Event& e) {
  json args = std::visit(ArgsSummary{}, e.payload);
  args["seq"] = e.seq;
  return args;
}

json metadata_event(const char* name, uint32_t tid, json args) {
  return {{"ph", "M"}, {"name", name}, {"pid", kPid}, {"tid", tid}, {"ts", 0}, {"args", std::move(args)}};
}

// An open slice on one thread's stack (Note [Slices nest strictly]).
struct Open {
  size_t out_index;    // its slot in traceEvents
  const Event* begin;  // nullptr for the per-thread root
  int64_t start;       // ns, after clamping
  int64_t floor;       // ns: the next child starts at/after this (the last child's end)
};

json chrome_events(const std::vector<Event>& events, const TraceMeta& meta) {
  json out = json::array();
  out.push_back(metadata_event("process_name", 0, {{"name", "Inside PyTorch"}}));
  if (!meta.title.empty()) out.push_back(metadata_event("process_labels", 0, {{"labels", meta.title}}));
  std::map<uint32_t, std::vector<Open>> stacks;  // tid -> open slices, [0] is a root
  std::map<uint32_t, int64_t> last_ts;
  for (const Event& e : events) {
    if (!stacks.count(e.tid)) {
      out.push_back(metadata_event("thread_name", e.tid, {{"name", "host thread " + std::to_string(e.tid)}}));
      out.push_back(metadata_event("thread_sort_index", e.tid, {{"sort_index", e.tid}}));
      constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
      stacks[e.tid].push_back({0, nullptr, kMin, kMin});
      last_ts[e.tid] = e.ts_ns;
    }
    last_ts[e.tid] = std::max(last_ts[e.tid], e.ts_ns);  // where unfinished slices end
  }
  auto close = [&](std::vector<Open>& stack, int64_t end_ts, const Event* end) {
    Open o = stack.back();
    stack.pop_back();
    const int64_t end_ns = std::max({end_ts, o.start, o.floor});
    json& x = out[o.out_index];
    x["dur"] = ns_to_us(end_ns - o.start);
    if (end && !std::holds_alternative<std::monostate>(end->payload)) x["args"]["end"] = summary(*end);
    if (end && std::strcmp(end->name, o.begin->name) != 0) x["args"]["end_name"] = end->name;
    if (!end) x["args"]["unfinished"] = true;
    stack.back().floor = std::max(stack.back().floor, end_ns);
  };
  for (const Event& e : events) {
    std::vector<Open>& stack = stacks[e.tid];
    const Open& top = stack.back();
    const int64_t ts = std::max({e.ts_ns, top.start, top.floor});
    switch (e.phase) {
      case Phase::Begin:
        out.push_back({{"ph", "X"}, {"name", e.name}, {"cat", category_name(e.category)}, {"pid", kPid},
                       {"tid", e.tid}, {"ts", ns_to_us(ts)}, {"args", summary(e)}});
        stack.push_back({out.size() - 1, &e, ts, std::numeric_limits<int64_t>::min()});
        break;
      case Phase::End:
        if (stack.size() > 1) {
          close(stack, e.ts_ns, &e);
          break;
        }
        [[fallthrough]];  // an End without a Begin is shown as an instant
      case Phase::Instant: {
        json args = summary(e);
        if (e.phase == Phase::End) args["unmatched_end"] = true;
        out.push_back({{"ph", "i"}, {"s", "t"}, {"name", e.name}, {"cat", category_name(e.category)},
                       {"pid", kPid}, {"tid", e.tid}, {"ts", ns_to_us(ts)}, {"args", std::move(args)}});
        stack.back().floor = std::max(stack.back().floor, ts);
        break;
      }
    }
  }
  for (auto& [tid, stack] : stacks)
    while (stack.size() > 1) close(stack, last_ts[tid], nullptr);
  return out;
}

json payload_meta(const TraceMeta& meta) {
  return {{"title", meta.title}, {"source", meta.source}, {"fields", meta.fields}};
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

json to_json(const std::vector<Event>& events, const TraceMeta& meta) {
  json payload_events = json::array();
  for (const Event& e : events) payload_events.push_back(codec::encode_event(e));
  return {{"displayTimeUnit", "ns"},
          {"traceEvents", chrome_events(events, meta)},
          {"insidePyTorch",
           {{"format", kTraceFormatName}, {"version", kTraceFormatVersion}, {"meta", payload_meta(meta)},
            {"events", std::move(payload_events)}}}};
}

std::string to_json_text(const std::vector<Event>& events, const TraceMeta& meta) {
  // Perfetto reads displayTimeUnit only near the start and stops at the first top-level key
  // it does not know, so the order is: displayTimeUnit, traceEvents, insidePyTorch.
  std::string s = "{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[";
  const json chrome = chrome_events(events, meta);
  for (size_t i = 0; i < chrome.size(); ++i) s += (i ? ",\n" : "\n") + dump(chrome[i]);
  s += "\n],\n\"insidePyTorch\":{\"format\":";
  s += dump(kTraceFormatName);
  s += ",\"version\":" + std::to_string(kTraceFormatVersion) + ",\n\"meta\":" + dump(payload_meta(meta));
  s += ",\n\"events\":[";
  for (size_t i = 0; i < events.size(); ++i) s += (i ? ",\n" : "\n") + dump(codec::encode_event(events[i]));
  s += "\n]}}\n";
  return s;
}

void write_trace_file(const std::filesystem::path& path, const std::vector<Event>& events, const TraceMeta& meta) {
  write_file(path, to_json_text(events, meta), "trace file");
}

}  // namespace ipt::trace
