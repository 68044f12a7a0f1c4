// Export in format version 1, the previous format: Events -> Chrome Trace Event JSON with a
// readable summary of every payload in its args, and the full-fidelity payload as one JSON
// object per event, both built as nlohmann documents. Version 2 (trace_write.cpp) replaced it;
// it stays as the reference the trace benchmarks compare against.
//
// The slices' geometry comes from chrome_layout() (Note [Slices nest strictly]).
#include "core/trace/trace_json.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <map>

#include "core/dispatch/dispatch_key_set.h"
#include "core/trace/chrome_layout.h"
#include "core/trace/payload_codec.h"
#include "core/util/error.h"

namespace ipt::trace {

using nlohmann::json;

namespace {

constexpr int kPid = 1;

std::string key_set_names(uint64_t raw) { return DispatchKeySet::from_raw(raw).to_string(); }

std::string format_double(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

template <typename List>
std::string format_list(const List& xs, bool truncated = false) {
  using T = typename List::value_type;
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
    return {{"op", d.op},
            {"redispatch", d.redispatch},
            {"arg_key_sets", std::move(args)},
            {"tls_included", key_set_names(d.tls_included)},
            {"tls_excluded", key_set_names(d.tls_excluded)},
            {"merged", key_set_names(d.merged)},
            {"skipped_fallthrough", key_set_names(d.skipped_fallthrough)},
            {"chosen", d.chosen.name()},
            {"kernel", d.kernel},
            {"kernel_kind", d.kernel_kind},
            {"registered_at", d.registered_at}};
  }
  json operator()(const TensorMeta& t) const {
    return {{"label", t.label},
            {"tensor_id", t.tensor_id},
            {"dtype", t.dtype},
            {"device", t.device},
            {"sizes", format_list(t.sizes)},
            {"strides", format_list(t.strides)},
            {"storage_id", t.storage_id},
            {"storage_offset", t.storage_offset},
            {"storage_nbytes", t.storage_nbytes},
            {"version", t.version},
            {"key_set", key_set_names(t.key_set)},
            {"requires_grad", t.requires_grad},
            {"is_view", t.is_view},
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
  json operator()(const GraphNode& g) const { return {{"node", g.node}, {"node_name", g.name}}; }
  json operator()(const GraphNodes& g) const { return {{"nodes", g.nodes.size()}}; }
  json operator()(const EngineStep& x) const { return {{"node", x.node}, {"node_name", x.name}}; }
  json operator()(const DispatchTable& d) const { return {{"op", d.op}, {"rows", d.rows.size()}}; }
  json operator()(const AutogradDecision& d) const { return {{"op", d.op}, {"decision", decision_text(d)}}; }
  json operator()(const SchemaCheck& c) const { return {{"op", c.op}, {"findings", c.findings.size()}}; }
  json operator()(const CompileArtifact& a) const { return {{"artifact", compile_artifact_kind_name(a.kind)}}; }
  json operator()(const FusionDecisions& f) const { return {{"graph", f.graph}, {"nodes", f.decisions.size()}}; }
  json operator()(const Recompile& r) const { return {{"failures", r.failures.size()}}; }
  json operator()(const CacheLookup& c) const { return {{"hit", c.hit}, {"check_ns", c.check_ns}}; }
  json operator()(const DeviceWork& w) const { return {{"correlation", w.correlation}, {"stream", w.stream}}; }
  json operator()(const DeviceMemory& m) const { return {{"action", m.action}, {"allocated", m.allocated}}; }
  // Payloads newer than this layout: no summary (their fields are in the payload itself).
  template <typename T>
  json operator()(const T&) const {
    return json::object();
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

json chrome_events(const std::vector<Event>& events, const TraceMeta& meta) {
  json out = json::array();
  out.push_back(metadata_event("process_name", 0, {{"name", "Inside PyTorch"}}));
  if (!meta.title.empty()) out.push_back(metadata_event("process_labels", 0, {{"labels", meta.title}}));
  const ChromeLayout l = chrome_layout(events);
  for (uint32_t tid : l.tids) {
    out.push_back(metadata_event("thread_name", tid, {{"name", "host thread " + std::to_string(tid)}}));
    out.push_back(metadata_event("thread_sort_index", tid, {{"sort_index", tid}}));
  }
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    switch (l.role[i]) {
      case ChromeLayout::Closing: break;
      case ChromeLayout::Slice: {
        json x = {{"ph", "X"},
                  {"name", e.name},
                  {"cat", category_name(e.category)},
                  {"pid", kPid},
                  {"tid", e.tid},
                  {"ts", chrome_ts_us(l.ts[i])},
                  {"dur", chrome_dur_us(l.ts[i], l.end[i])},
                  {"args", summary(e)}};
        if (l.closer[i] == ChromeLayout::kUnfinished) {
          x["args"]["unfinished"] = true;
        } else {
          const Event& end = events[l.closer[i]];
          if (!std::holds_alternative<std::monostate>(end.payload)) x["args"]["end"] = summary(end);
          if (std::strcmp(end.name, e.name) != 0) x["args"]["end_name"] = end.name;
        }
        out.push_back(std::move(x));
        break;
      }
      case ChromeLayout::Instant:
      case ChromeLayout::Unmatched: {
        json args = summary(e);
        if (l.role[i] == ChromeLayout::Unmatched) args["unmatched_end"] = true;
        out.push_back({{"ph", "i"},
                       {"s", "t"},
                       {"name", e.name},
                       {"cat", category_name(e.category)},
                       {"pid", kPid},
                       {"tid", e.tid},
                       {"ts", chrome_ts_us(l.ts[i])},
                       {"args", std::move(args)}});
        break;
      }
    }
  }
  return out;
}

json payload_meta(const TraceMeta& meta) {
  return {{"title", meta.title}, {"source", meta.source}, {"fields", meta.fields}};
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string to_json_text_v1(const std::vector<Event>& events, const TraceMeta& meta) {
  // Perfetto reads displayTimeUnit only near the start and stops at the first top-level key
  // it does not know, so the order is: displayTimeUnit, traceEvents, insidePyTorch.
  std::string s = "{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[";
  const json chrome = chrome_events(events, meta);
  for (size_t i = 0; i < chrome.size(); ++i) s += (i ? ",\n" : "\n") + dump(chrome[i]);
  s += "\n],\n\"insidePyTorch\":{\"format\":";
  s += dump(kTraceFormatName);
  s += ",\"version\":1,\n\"meta\":" + dump(payload_meta(meta));
  s += ",\n\"events\":[";
  for (size_t i = 0; i < events.size(); ++i) s += (i ? ",\n" : "\n") + dump(codec::encode_event(events[i]));
  s += "\n]}}\n";
  return s;
}

}  // namespace ipt::trace
