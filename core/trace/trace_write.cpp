// Export, format version 3: Events -> one JSON document, streamed (no document tree): the
// Chrome part Perfetto reads, then the full-fidelity payload as compact arrays over a string
// table. Layout and encodings: docs/trace-format.md.
//
// Note [Compact payload records]
// Every event is one JSON array, [dt_ns, tid, phase, category, name, payload?], whose time is
// the step from the previous event's and whose seq is implied ("first_seq" + index, or a
// "seqs" list when the events skip one), and whose
// strings (names, operators, kernels, registration sites, dtypes, devices, key sets, dispatch
// keys, labels, kernel-detail keys and values, texts) are indexes into "strings", written once
// after the events (which stream out as they are made, filling the table). Recorded names are
// interned pointers (Note [Event strings are interned]), so most of the table is built by
// hashing pointers, not texts; a text that came in as two pointers is simply listed twice. Free texts (an autograd decision, printed output) are
// hashed by content: the same decision recorded 80,000 times is stored once. Likewise a
// tensor snapshot's storage preview is an index into "values", the distinct lists, also
// written after the events: an input snapshotted at every training step is stored once.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/dispatch/dispatch_key_set.h"
#include "core/trace/chrome_args.h"
#include "core/trace/chrome_layout.h"
#include "core/trace/json_text.h"
#include "core/trace/payload_codec.h"
#include "core/trace/trace_json.h"

namespace ipt::trace {

namespace {

constexpr int kPid = 1;

// The string table: ids for interned pointers, key sets and dispatch keys.
class StringTable {
 public:
  StringTable() { texts_.push_back(""); }
  uint32_t of(const char* s) {
    auto [it, fresh] = by_ptr_.try_emplace(s, 0);
    if (fresh) it->second = add(s);
    return it->second;
  }
  uint32_t key_set(uint64_t raw) {
    auto [it, fresh] = by_key_set_.try_emplace(raw, 0);
    if (fresh) it->second = add(codec::key_set_hex(raw));
    return it->second;
  }
  uint32_t text(const std::string& s) {
    auto [it, fresh] = by_text_.try_emplace(s, 0);
    if (fresh) it->second = add(s);
    return it->second;
  }
  // A dispatch key by its name (DispatchKey::name() builds a string: done once per key).
  uint32_t key_name(const DispatchKey& k) {
    const uint32_t packed = (static_cast<uint32_t>(k.functionality) << 16) | (static_cast<uint32_t>(k.backend) << 8) |
                            static_cast<uint32_t>(k.alias);
    auto [it, fresh] = by_key_.try_emplace(packed, 0);
    if (fresh) it->second = text(k.name());
    return it->second;
  }
  const std::vector<std::string>& texts() const { return texts_; }

 private:
  uint32_t add(std::string s) {
    texts_.push_back(std::move(s));
    return static_cast<uint32_t>(texts_.size() - 1);
  }
  std::unordered_map<const char*, uint32_t> by_ptr_;
  std::unordered_map<uint64_t, uint32_t> by_key_set_;
  std::unordered_map<uint32_t, uint32_t> by_key_;
  std::unordered_map<std::string, uint32_t> by_text_;
  std::vector<std::string> texts_;
};

// The table of storage previews: a program snapshots the same input tensor at every step, so
// each distinct list of values is written once and tensor records refer to it by index.
class ValueTable {
 public:
  // By bit pattern (-0.0 and 0.0, or two NaNs, are different values), keyed by a view of the
  // event's own list: the events outlive the table, so nothing is copied.
  uint32_t of(const PreviewValues& v) {
    const std::string_view bits(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
    auto [it, fresh] = by_bits_.try_emplace(bits, static_cast<uint32_t>(lists_.size()));
    if (fresh) lists_.push_back(&v);
    return it->second;
  }
  const std::vector<const PreviewValues*>& lists() const { return lists_; }

 private:
  std::unordered_map<std::string_view, uint32_t> by_bits_;
  std::vector<const PreviewValues*> lists_;  // the first event's own list, by index
};

// Writes one payload as its compact record (Note [Compact payload records]).
struct CompactPayload {
  JsonText& o;
  StringTable& t;
  ValueTable& values;

  void key(const DispatchKey& k) {
    if (codec::has_canonical_name(k)) {
      o.u64(t.key_name(k));
      return;
    }
    o.ch('[');
    o.u64(t.of(functionality_name(k.functionality)));
    o.ch(',');
    o.u64(t.of(backend_name(k.backend)));
    o.ch(',');
    o.u64(t.of(alias_key_name(k.alias)));
    o.ch(']');
  }
  template <typename List>
  void list(const List& xs) {
    using T = typename List::value_type;
    o.ch('[');
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i) o.ch(',');
      if constexpr (std::is_same_v<T, double>) value(xs[i]);
      else o.i64(xs[i]);
    }
    o.ch(']');
  }
  void value(double v) {
    if (std::isnan(v)) o.raw("\"nan\"");
    else if (std::isinf(v)) o.raw(v > 0 ? "\"inf\"" : "\"-inf\"");
    else o.dbl(v);
  }
  void id(uint32_t v) {
    o.ch(',');
    o.u64(v);
  }
  // A payload: its number, then each field (Note [Payloads are declared once]).
  void operator()(const std::monostate&) {}
  template <typename T>
  void operator()(const T& p) {
    o.ch(',');
    record(p);
  }
  template <typename T>
  void record(const T& p) {
    o.ch('[');
    o.u64(PayloadInfo<T>::number);
    PayloadInfo<T>::visit(p, [this](auto kind, const char*, const auto& x, int) { this->field(kind, x); });
    o.ch(']');
  }
  // A field after others: a comma, then its value; key, value pairs fill the record itself.
  template <typename Kind, typename X>
  void field(Kind kind, const X& x) {
    o.ch(',');
    put(kind, x);
  }
  void field(wire::Pairs, const DetailFields& pairs) {
    for (const auto& [name, value] : pairs) {
      id(t.of(name));
      id(t.text(value));
    }
  }
  // A nested record: its fields, without a number.
  template <typename R>
  void nested(const R& r) {
    o.ch('[');
    bool first = true;
    PayloadInfo<R>::visit(r, [&](auto kind, const char*, const auto& x, int) {
      if (!first) o.ch(',');
      first = false;
      put(kind, x);
    });
    o.ch(']');
  }

  void put(wire::U64, uint64_t v) { o.u64(v); }
  void put(wire::U32, uint32_t v) { o.u64(v); }
  void put(wire::I64, int64_t v) { o.i64(v); }
  void put(wire::I32, int32_t v) { o.i64(v); }
  void put(wire::Flag, bool v) { o.i64(v); }
  void put(wire::F64, double v) { value(v); }
  void put(wire::Str, const char* s) { o.u64(t.of(s)); }
  void put(wire::Text, const std::string& s) { o.u64(t.text(s)); }
  void put(wire::KeySet, uint64_t raw) { o.u64(t.key_set(raw)); }
  void put(wire::KeySets, const SmallKeySets& sets) {
    o.ch('[');
    for (size_t i = 0; i < sets.size(); ++i) {
      if (i) o.ch(',');
      o.u64(t.key_set(sets[i]));
    }
    o.ch(']');
  }
  void put(wire::Key, const DispatchKey& k) { key(k); }
  void put(wire::Ints, const SmallDims& v) { list(v); }
  void put(wire::Doubles, const std::vector<double>& v) { list(v); }
  void put(wire::Preview, const PreviewValues& v) { o.u64(values.of(v)); }
  template <typename E>
  void put(wire::Enum, E e) {
    o.u64(static_cast<uint64_t>(e));
  }
  template <typename R>
  void put(wire::Records, const std::vector<R>& rows) {
    o.ch('[');
    for (size_t i = 0; i < rows.size(); ++i) {
      if (i) o.ch(',');
      nested(rows[i]);
    }
    o.ch(']');
  }
  // Node and input_nr per edge, node -1 for None.
  void put(wire::Edges, const std::vector<NextEdge>& next) {
    o.ch('[');
    for (size_t i = 0; i < next.size(); ++i) {
      if (i) o.ch(',');
      if (next[i].valid) o.u64(next[i].node);
      else o.raw("-1");
      o.ch(',');
      o.u64(next[i].input_nr);
    }
    o.ch(']');
  }
  void put(wire::Leaves, const std::vector<LeafEdge>& leaves) {
    o.ch('[');
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (i) o.ch(',');
      o.u64(leaves[i].node);
      o.ch(',');
      o.u64(leaves[i].tensor);
    }
    o.ch(']');
  }
  // Each node as its own graph_node record, number included.
  void put(wire::Nodes, const std::vector<GraphNode>& nodes) {
    o.ch('[');
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (i) o.ch(',');
      record(nodes[i]);
    }
    o.ch(']');
  }
};

void pid_tid(JsonText& o, uint32_t tid) {
  o.raw(",\"pid\":");
  o.u64(is_device_track(tid) ? static_cast<uint64_t>(track_device(tid)) : kPid);
  o.raw(",\"tid\":");
  o.u64(is_device_track(tid) ? static_cast<uint64_t>(track_stream(tid)) : tid);
}

void metadata(JsonText& o, const char* name, uint32_t tid, const char* arg, const std::string& value, bool number) {
  o.raw(",\n{\"ph\":\"M\",\"name\":");
  o.str(name);
  pid_tid(o, tid);
  o.raw(",\"ts\":0,\"args\":{");
  o.key(arg);
  if (number) o.raw(value);
  else o.str(value);
  o.raw("}}");
}

// A flow record (Note [Forward-backward flows] in chrome_layout.cpp); its id is the node's.
// A launch's flow (cat ac2g) has the correlation id; ids of the two kinds never meet, since
// Perfetto matches a flow's ends by cat and id together.
void flow(JsonText& o, char ph, const char* cat, uint64_t id, const Event& e, double ts) {
  o.raw(",\n{\"ph\":\"");
  o.ch(ph);
  o.raw("\",\"name\":\"");
  o.raw(cat);
  o.raw("\",\"cat\":\"");
  o.raw(cat);
  o.raw("\",\"id\":");
  o.u64(id);
  pid_tid(o, e.tid);
  o.raw(",\"ts\":");
  o.dbl(ts);
  if (ph == 'f') o.raw(",\"bp\":\"e\"");
  o.ch('}');
}

// The device's memory as a counter track ("ph":"C"), which Perfetto draws as a graph.
void memory_counter(JsonText& o, const DeviceMemory& m, double ts) {
  o.raw(",\n{\"ph\":\"C\",\"name\":\"GPU memory\",\"pid\":");
  o.i64(m.device);
  o.raw(",\"tid\":0,\"ts\":");
  o.dbl(ts);
  o.raw(",\"args\":{\"allocated\":");
  o.i64(m.allocated);
  o.raw(",\"reserved\":");
  o.i64(m.reserved);
  o.raw("}}");
}

void chrome_part(JsonText& o, const std::vector<Event>& events, const TraceMeta& meta) {
  o.raw(
      "\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"ts\":0,\"args\":{\"name\":\"Inside PyTorch\"}}");
  if (!meta.title.empty()) metadata(o, "process_labels", 0, "labels", meta.title, false);
  const ChromeLayout l = chrome_layout(events);
  std::vector<int> devices;
  for (uint32_t tid : l.tids) {
    if (is_device_track(tid) && std::find(devices.begin(), devices.end(), track_device(tid)) == devices.end()) {
      devices.push_back(track_device(tid));
      const std::string name = "GPU " + std::to_string(track_device(tid));
      auto it = meta.fields.find("device");
      metadata(o, "process_name", tid, "name", name, false);
      if (it != meta.fields.end()) metadata(o, "process_labels", tid, "labels", it->second, false);
    }
    metadata(o, "thread_name", tid, "name", track_name(tid), false);
    metadata(o, "thread_sort_index", tid, "sort_index", std::to_string(track_stream(tid)), true);
  }
  // Flow starts and ends, in event order: (event index, 's' or 'f', category, id).
  std::vector<std::tuple<uint32_t, char, const char*, uint64_t>> flows;
  for (const FlowLink& f : fwdbwd_flows(events, l)) {
    flows.emplace_back(f.from, 's', "fwdbwd", f.node);
    flows.emplace_back(f.to, 'f', "fwdbwd", f.node);
  }
  for (const FlowLink& f : launch_flows(events, l)) {
    flows.emplace_back(f.from, 's', "ac2g", f.node);
    flows.emplace_back(f.to, 'f', "ac2g", f.node);
  }
  std::sort(flows.begin(), flows.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  size_t next_flow = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    const auto role = l.role[i];
    for (; next_flow < flows.size() && std::get<0>(flows[next_flow]) == i; ++next_flow)
      flow(o, std::get<1>(flows[next_flow]), std::get<2>(flows[next_flow]), std::get<3>(flows[next_flow]), e,
           chrome_ts_us(l.ts[i]));
    if (role == ChromeLayout::Closing) continue;
    if (const auto* m = std::get_if<DeviceMemory>(&e.payload)) memory_counter(o, *m, chrome_ts_us(l.ts[i]));
    // An instant's scope is the thread by default ("s":"t"), so it is not written.
    o.raw(role == ChromeLayout::Slice ? ",\n{\"ph\":\"X\",\"name\":" : ",\n{\"ph\":\"i\",\"name\":");
    o.str(e.name);
    o.raw(",\"cat\":\"");
    o.raw(category_name(e.category));
    o.ch('"');
    pid_tid(o, e.tid);
    o.raw(",\"ts\":");
    o.dbl(chrome_ts_us(l.ts[i]));
    if (role == ChromeLayout::Slice) {
      o.raw(",\"dur\":");
      o.dbl(chrome_dur_us(l.ts[i], l.end[i]));
    }
    // args: written only when there is something to say (most events have a word or two).
    const size_t args_at = o.size();
    o.raw(",\"args\":{");
    const size_t first_arg = o.size();
    write_chrome_args(o, e.payload);
    if (role == ChromeLayout::Slice) {
      if (l.closer[i] == ChromeLayout::kUnfinished) o.raw(",\"unfinished\":true");
      else if (std::strcmp(events[l.closer[i]].name, e.name) != 0) {
        o.raw(",\"end_name\":");
        o.str(events[l.closer[i]].name);
      }
    } else if (role == ChromeLayout::Unmatched) {
      o.raw(",\"unmatched_end\":true");
    }
    if (o.size() == first_arg) {
      o.truncate(args_at);  // no args
    } else {
      o.erase_byte(first_arg);  // the first arg's comma
      o.ch('}');
    }
    o.ch('}');
    o.maybe_flush();
  }
}

void meta_part(JsonText& o, const TraceMeta& meta) {
  o.raw("{\"title\":");
  o.str(meta.title);
  o.raw(",\"source\":");
  o.str(meta.source);
  o.raw(",\"fields\":{");
  bool first = true;
  for (const auto& [k, v] : meta.fields) {
    if (!first) o.ch(',');
    first = false;
    o.key(k);
    o.str(v);
  }
  o.raw("}}");
}

}  // namespace

void write_trace(const std::vector<Event>& events, const TraceMeta& meta, const TextSink& put) {
  JsonText o(&put);
  // Perfetto reads displayTimeUnit only near the start and stops at the first top-level key
  // it does not know, so the order is: displayTimeUnit, traceEvents, insidePyTorch.
  o.raw("{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[");
  chrome_part(o, events, meta);
  o.raw("\n],\n\"insidePyTorch\":{\"format\":\"");
  o.raw(kTraceFormatName);
  o.raw("\",\"version\":");
  o.i64(kTraceFormatVersion);
  o.raw(",\n\"meta\":");
  meta_part(o, meta);
  // The records stream out first, filling the tables, which follow them (a reader takes the
  // keys in any order), so no second copy of the records is held.
  StringTable table;
  ValueTable values;
  o.raw(",\n\"events\":[");
  {
    CompactPayload payload{o, table, values};
    int64_t prev_ts = 0;
    for (size_t i = 0; i < events.size(); ++i) {
      const Event& e = events[i];
      o.raw(i ? ",\n[" : "\n[");
      o.i64(static_cast<int64_t>(static_cast<uint64_t>(e.ts_ns) -
                                 static_cast<uint64_t>(prev_ts)));  // wraps like the reader
      prev_ts = e.ts_ns;
      o.ch(',');
      o.u64(e.tid);
      o.ch(',');
      o.u64(static_cast<uint64_t>(e.phase));
      o.ch(',');
      o.u64(static_cast<uint64_t>(e.category));
      o.ch(',');
      o.u64(table.of(e.name));
      std::visit(payload, e.payload);
      o.ch(']');
      o.maybe_flush();
    }
  }
  o.raw("\n]");
  // seq is implied (first_seq + index) unless the events skip or repeat one.
  const uint64_t first_seq = events.empty() ? 0 : events[0].seq;
  bool consecutive = true;
  for (size_t i = 0; i < events.size() && consecutive; ++i) consecutive = events[i].seq == first_seq + i;
  if (consecutive) {
    o.raw(",\n\"first_seq\":");
    o.u64(first_seq);
  } else {
    o.raw(",\n\"seqs\":[");
    for (size_t i = 0; i < events.size(); ++i) {
      if (i) o.ch(',');
      o.u64(events[i].seq);
      o.maybe_flush();
    }
    o.ch(']');
  }
  o.raw(",\n\"strings\":[");
  const auto& texts = table.texts();
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i) o.ch(',');
    o.str(texts[i]);
    o.maybe_flush();
  }
  o.raw("],\n\"values\":[");
  {
    CompactPayload lists{o, table, values};
    const auto& all = values.lists();
    for (size_t i = 0; i < all.size(); ++i) {
      if (i) o.ch(',');
      lists.list(*all[i]);
      o.maybe_flush();
    }
  }
  o.raw("]}}\n");
  o.flush();
}

std::string to_json_text(const std::vector<Event>& events, const TraceMeta& meta) {
  std::string out;
  write_trace(events, meta, [&](std::string_view piece) { out.append(piece); });
  return out;
}

nlohmann::json to_json(const std::vector<Event>& events, const TraceMeta& meta) {
  return nlohmann::json::parse(to_json_text(events, meta));
}

void write_trace_file(const std::filesystem::path& path, const std::vector<Event>& events, const TraceMeta& meta) {
  write_file(
      path, [&](const TextSink& put) { write_trace(events, meta, put); }, "trace file");
}

}  // namespace ipt::trace
