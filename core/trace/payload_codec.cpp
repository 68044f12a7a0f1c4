// Full-fidelity Event <-> JSON (format version 1). Decoding checks every field's presence,
// type and range and reports "event N: field 'payload.x' ..." instead of throwing json errors.
#include "core/trace/payload_codec.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/util/error.h"

namespace ipt::trace::codec {

using nlohmann::json;

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Begin: return "begin";
    case Phase::End: return "end";
    case Phase::Instant: return "instant";
  }
  return "instant";
}

std::string key_set_hex(uint64_t raw) {
  char buf[24] = "0x";
  auto r = std::to_chars(buf + 2, buf + sizeof buf, raw, 16);
  return std::string(buf, r.ptr);
}

namespace {

// ---- encoding ---------------------------------------------------------------------------

json encode_key(const DispatchKey& k) {
  if (has_canonical_name(k)) return k.name();
  return json{{"functionality", functionality_name(k.functionality)},
              {"backend", backend_name(k.backend)},
              {"alias", alias_key_name(k.alias)}};
}

json encode_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

struct PayloadEncoder {
  json operator()(const std::monostate&) const { return nullptr; }
  json operator()(const DispatchStep& d) const {
    json args = json::array();
    for (uint64_t ks : d.arg_key_sets) args.push_back(key_set_hex(ks));
    return {{"type", "dispatch_step"},
            {"op", d.op},
            {"redispatch", d.redispatch},
            {"arg_key_sets", std::move(args)},
            {"tls_included", key_set_hex(d.tls_included)},
            {"tls_excluded", key_set_hex(d.tls_excluded)},
            {"merged", key_set_hex(d.merged)},
            {"skipped_fallthrough", key_set_hex(d.skipped_fallthrough)},
            {"chosen", encode_key(d.chosen)},
            {"kernel", d.kernel},
            {"kernel_kind", d.kernel_kind},
            {"registered_at", d.registered_at}};
  }
  json operator()(const TensorMeta& t) const {
    json values = json::array();
    for (double v : t.storage_values) values.push_back(encode_double(v));
    return {{"type", "tensor_meta"},
            {"tensor_id", t.tensor_id},
            {"storage_id", t.storage_id},
            {"storage_nbytes", t.storage_nbytes},
            {"dtype", t.dtype},
            {"device", t.device},
            {"sizes", t.sizes},
            {"strides", t.strides},
            {"storage_offset", t.storage_offset},
            {"version", t.version},
            {"key_set", key_set_hex(t.key_set)},
            {"requires_grad", t.requires_grad},
            {"is_view", t.is_view},
            {"label", t.label},
            {"storage_values", std::move(values)},
            {"storage_truncated", t.storage_truncated}};
  }
  json operator()(const StorageInfo& s) const {
    return {{"type", "storage_info"},
            {"storage_id", s.storage_id},
            {"nbytes", s.nbytes},
            {"device", s.device},
            {"freed", s.freed}};
  }
  json operator()(const ScriptLine& l) const { return {{"type", "script_line"}, {"line", l.line}, {"col", l.col}}; }
  json operator()(const Text& t) const { return {{"type", "text"}, {"text", t.text}}; }
  json operator()(const KernelDetail& k) const {
    json fields = json::array();
    for (const auto& [key, value] : k.fields) fields.push_back(json::array({key, value}));
    return {{"type", "kernel_detail"}, {"fields", std::move(fields)}};
  }
  json operator()(const GraphNode& g) const {
    json next = json::array(), leaves = json::array();
    for (const auto& e : g.next) next.push_back(e.valid ? json::array({e.node, e.input_nr}) : json(nullptr));
    for (const auto& l : g.leaves) leaves.push_back(json::array({l.node, l.tensor}));
    return {{"type", "graph_node"},
            {"node", g.node},
            {"name", g.name},
            {"seq", g.seq},
            {"next", std::move(next)},
            {"output_tensor", g.output_tensor},
            {"leaves", std::move(leaves)},
            {"deps", g.deps}};
  }
  json operator()(const GraphNodes& g) const {
    json nodes = json::array();
    for (const auto& n : g.nodes) nodes.push_back((*this)(n));
    return {{"type", "graph_nodes"}, {"nodes", std::move(nodes)}};
  }
  json operator()(const DeviceWork& w) const {
    return {{"type", "device_work"},
            {"correlation", w.correlation},
            {"device", w.device},
            {"stream", w.stream},
            {"event", w.event},
            {"bytes", w.bytes},
            {"flops", encode_double(w.flops)},
            {"math", w.math},
            {"addr", w.addr}};
  }
  json operator()(const DeviceMemory& m) const {
    return {{"type", "device_memory"}, {"action", m.action}, {"device", m.device},       {"stream", m.stream},
            {"addr", m.addr},          {"size", m.size},     {"allocated", m.allocated}, {"reserved", m.reserved}};
  }
  json operator()(const SchemaCheck& c) const {
    json findings = json::array();
    for (const auto& f : c.findings)
      findings.push_back({{"kind", f.kind}, {"argument", f.argument}, {"message", f.message}});
    return {{"type", "schema_check"}, {"op", c.op}, {"findings", std::move(findings)}};
  }
  json operator()(const CompileArtifact& a) const {
    return {{"type", "compile_artifact"},
            {"kind", compile_artifact_kind_name(a.kind)},
            {"compile_id", a.compile_id},
            {"file", a.file},
            {"line", a.line},
            {"text", a.text}};
  }
  json operator()(const FusionDecisions& f) const {
    json decisions = json::array();
    for (const FusionDecision& d : f.decisions)
      decisions.push_back(
          {{"node", d.node}, {"action", fusion_action_name(d.action)}, {"kernel", d.kernel}, {"reason", d.reason}});
    return {{"type", "fusion_decisions"},
            {"frame_id", f.frame_id},
            {"compile_index", f.compile_index},
            {"graph", f.graph},
            {"decisions", std::move(decisions)}};
  }
  json operator()(const Recompile& r) const {
    json failures = json::array();
    for (const GuardFailure& f : r.failures)
      failures.push_back({{"frame_id", f.frame_id},
                          {"compile_index", f.compile_index},
                          {"guard", f.guard},
                          {"source", f.source},
                          {"expected", f.expected},
                          {"actual", f.actual},
                          {"tree_line", f.tree_line},
                          {"reason", f.reason}});
    return {{"type", "recompile"},
            {"frame_id", r.frame_id},
            {"compile_index", r.compile_index},
            {"failures", std::move(failures)}};
  }
  json operator()(const CacheLookup& c) const {
    return {{"type", "cache_lookup"},           {"hit", c.hit},           {"frame_id", c.frame_id},
            {"compile_index", c.compile_index}, {"check_ns", c.check_ns}, {"entries", c.entries}};
  }
  json operator()(const AutogradDecision& d) const {
    return {{"type", "autograd_decision"},
            {"op", d.op},
            {"grad_mode", d.grad_mode},
            {"requires_grad", d.requires_grad},
            {"node", d.node}};
  }
  json operator()(const DispatchTable& d) const {
    json rows = json::array();
    for (const auto& r : d.rows)
      rows.push_back({{"key", encode_key(r.key)},
                      {"fallthrough", r.fallthrough},
                      {"registered_at", r.registered_at},
                      {"kind", r.kind}});
    return {{"type", "dispatch_table"}, {"op", d.op}, {"schema", d.schema}, {"rows", std::move(rows)}};
  }
  json operator()(const EngineStep& x) const {
    json sum = json::array();
    for (double v : x.sum) sum.push_back(encode_double(v));
    return {{"type", "engine_step"},
            {"node", x.node},
            {"name", x.name},
            {"from", x.from},
            {"input_nr", x.input_nr},
            {"deps_left", x.deps_left},
            {"sum", std::move(sum)},
            {"sum_truncated", x.sum_truncated},
            {"sum_none", x.sum_none},
            {"tensor", x.tensor},
            {"grad_tensor", x.grad_tensor}};
  }
};

// ---- decoding ---------------------------------------------------------------------------

// Reads the fields of one JSON object; every failure names the event index and field path.
class Fields {
 public:
  Fields(const json& obj, size_t index, std::string path) : obj_(obj), index_(index), path_(std::move(path)) {
    if (!obj_.is_object()) fail("", "must be an object, got " + describe(obj_));
  }

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    if (!field.empty()) IPT_FAIL(ValueError, "event ", index_, ": field '", full(field), "' ", what);
    if (!path_.empty()) IPT_FAIL(ValueError, "event ", index_, ": field '", path_, "' ", what);
    IPT_FAIL(ValueError, "event ", index_, " ", what);
  }
  size_t index() const { return index_; }
  std::string full(const std::string& field) const { return path_.empty() ? field : path_ + "." + field; }

  const json& need(const char* key) const {
    auto it = obj_.find(key);
    if (it == obj_.end()) fail(key, "is missing");
    return *it;
  }
  uint64_t u64(const char* key) const { return as_u64(need(key), key); }
  int64_t i64(const char* key) const { return as_i64(need(key), key); }
  int i32(const char* key) const {
    int64_t v = i64(key);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
      fail(key, "is " + std::to_string(v) + ", out of range (a 32-bit signed integer)");
    return static_cast<int>(v);
  }
  uint32_t u32(const char* key) const {
    uint64_t v = u64(key);
    if (v > std::numeric_limits<uint32_t>::max())
      fail(key, "is " + std::to_string(v) + ", out of range (a 32-bit unsigned integer)");
    return static_cast<uint32_t>(v);
  }
  bool boolean(const char* key) const {
    const json& j = need(key);
    if (!j.is_boolean()) fail(key, "must be a boolean, got " + describe(j));
    return j.get<bool>();
  }
  const std::string& str(const char* key) const { return as_str(need(key), key); }
  const char* interned(const char* key) const { return intern(str(key)); }
  uint64_t key_set(const char* key) const { return as_key_set(need(key), key); }
  const json& array(const char* key) const {
    const json& j = need(key);
    if (!j.is_array()) fail(key, "must be an array, got " + describe(j));
    return j;
  }

  uint64_t as_u64(const json& j, const std::string& field) const {
    if (j.is_number_unsigned()) return j.get<uint64_t>();
    if (j.is_number_integer()) fail(field, "must not be negative");
    fail(field, "must be an integer, got " + describe(j));
  }
  int64_t as_i64(const json& j, const std::string& field) const {
    if (j.is_number_unsigned()) {
      if (j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail(field, "is " + std::to_string(j.get<uint64_t>()) + ", out of range (a 64-bit signed integer)");
      return static_cast<int64_t>(j.get<uint64_t>());
    }
    if (j.is_number_integer()) return j.get<int64_t>();
    fail(field, "must be an integer, got " + describe(j));
  }
  const std::string& as_str(const json& j, const std::string& field) const {
    if (!j.is_string()) fail(field, "must be a string, got " + describe(j));
    return j.get_ref<const std::string&>();
  }
  uint64_t as_key_set(const json& j, const std::string& field) const {
    const std::string& s = as_str(j, field);
    uint64_t v = 0;
    const char* b = s.data() + 2;
    const char* e = s.data() + s.size();
    if (s.size() < 3 || s.size() > 18 || s[0] != '0' || s[1] != 'x' || std::from_chars(b, e, v, 16).ptr != e)
      fail(field, "must be a key set like \"0x1c00001\", got \"" + s + "\"");
    return v;
  }
  double as_double(const json& j, const std::string& field) const {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
      const auto& s = j.get_ref<const std::string&>();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    fail(field, "must be a number (or \"nan\", \"inf\", \"-inf\"), got " + describe(j));
  }

  static std::string describe(const json& j) {
    if (j.is_number_float()) return "a floating-point number";
    return std::string(j.type_name());
  }

 private:
  const json& obj_;
  size_t index_;
  std::string path_;
};

template <typename Enum>
const std::unordered_map<std::string, Enum>& names_of(const char* (*name)(Enum), int last) {
  static const auto* map = [&] {
    auto* m = new std::unordered_map<std::string, Enum>();
    for (int i = 0; i <= last; ++i) m->emplace(name(static_cast<Enum>(i)), static_cast<Enum>(i));
    return m;
  }();
  return *map;
}

// Every DispatchKey with a canonical name, by name (built once; parse() is a linear scan).
const std::unordered_map<std::string, DispatchKey>& key_by_name() {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string, DispatchKey>();
    for (int a = 1; a <= static_cast<int>(AliasKey::CompositeExplicitAutogradNonFunctional); ++a) {
      DispatchKey k(static_cast<AliasKey>(a));
      m->emplace(k.name(), k);
    }
    for (int f = 0; f <= static_cast<int>(Functionality::EndOfFunctionality); ++f) {
      auto fn = static_cast<Functionality>(f);
      if (!is_per_backend(fn)) {
        m->emplace(DispatchKey(fn).name(), DispatchKey(fn));
        continue;
      }
      for (int b = 1; b <= kNumBackends; ++b) {
        DispatchKey k(fn, static_cast<BackendComponent>(b));
        m->emplace(k.name(), k);
      }
    }
    return m;
  }();
  return *map;
}

template <typename Enum>
const Enum* find_named(const std::unordered_map<std::string, Enum>& names, const std::string& s) {
  auto it = names.find(s);
  return it == names.end() ? nullptr : &it->second;
}

const std::unordered_map<std::string, Functionality>& functionality_names() {
  static auto* fn_name = +[](Functionality x) { return functionality_name(x); };
  return names_of(fn_name, static_cast<int>(Functionality::EndOfFunctionality));
}
const std::unordered_map<std::string, BackendComponent>& backend_names() {
  static auto* be_name = +[](BackendComponent x) { return backend_name(x); };
  return names_of(be_name, kNumBackends);
}
const std::unordered_map<std::string, AliasKey>& alias_names() {
  static auto* al_name = +[](AliasKey x) { return alias_key_name(x); };
  return names_of(al_name, static_cast<int>(AliasKey::CompositeExplicitAutogradNonFunctional));
}
const std::unordered_map<std::string, Phase>& phase_names() {
  static auto* ph_name = +[](Phase p) { return phase_name(p); };
  return names_of(ph_name, static_cast<int>(Phase::Instant));
}
const std::unordered_map<std::string, Category>& category_names() {
  static auto* cat_name = +[](Category c) { return category_name(c); };
  return names_of(cat_name, static_cast<int>(Category::Compile));
}

template <typename Enum>
Enum enum_field(const Fields& f, const char* key, const std::unordered_map<std::string, Enum>& names) {
  const std::string& s = f.str(key);
  auto it = names.find(s);
  if (it == names.end()) f.fail(key, "has an unknown value \"" + s + "\"");
  return it->second;
}

DispatchKey decode_key(const Fields& parent, const json& j, const char* field = "chosen") {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    auto it = key_by_name().find(s);
    if (it == key_by_name().end()) parent.fail(field, "is not a dispatch key name: \"" + s + "\"");
    return it->second;
  }
  if (!j.is_object()) parent.fail(field, "must be a key name or an object, got " + Fields::describe(j));
  Fields f(j, parent.index(), parent.full(field));
  DispatchKey k;
  k.functionality = enum_field(f, "functionality", functionality_names());
  k.backend = enum_field(f, "backend", backend_names());
  k.alias = enum_field(f, "alias", alias_names());
  return k;
}

GraphNode graph_node(const Fields& f) {
  GraphNode g;
  g.node = f.u64("node");
  g.name = f.interned("name");
  g.seq = f.i64("seq");
  const json& next = f.array("next");
  for (size_t i = 0; i < next.size(); ++i) {
    const std::string at = "next[" + std::to_string(i) + "]";
    if (next[i].is_null()) {
      g.next.push_back(NextEdge{});
      continue;
    }
    if (!next[i].is_array() || next[i].size() != 2) f.fail(at, "must be null or a [node, input_nr] pair");
    const uint64_t nr = f.as_u64(next[i][1], at + "[1]");
    if (nr > UINT32_MAX) f.fail(at + "[1]", "is out of range (a 32-bit unsigned integer)");
    g.next.push_back(NextEdge{true, f.as_u64(next[i][0], at + "[0]"), static_cast<uint32_t>(nr)});
  }
  g.output_tensor = f.u64("output_tensor");
  const json& leaves = f.array("leaves");
  for (size_t i = 0; i < leaves.size(); ++i) {
    const std::string at = "leaves[" + std::to_string(i) + "]";
    if (!leaves[i].is_array() || leaves[i].size() != 2) f.fail(at, "must be a [node, tensor] pair");
    g.leaves.push_back({f.as_u64(leaves[i][0], at + "[0]"), f.as_u64(leaves[i][1], at + "[1]")});
  }
  g.deps = f.i32("deps");
  return g;
}

Payload decode_payload(const json& j, size_t index) {
  if (j.is_null()) return std::monostate{};
  Fields f(j, index, "payload");
  const std::string& type = f.str("type");
  if (type == "dispatch_step") {
    DispatchStep d;
    d.op = f.interned("op");
    d.redispatch = f.boolean("redispatch");
    const json& args = f.array("arg_key_sets");
    for (size_t i = 0; i < args.size(); ++i)
      d.arg_key_sets.push_back(f.as_key_set(args[i], "arg_key_sets[" + std::to_string(i) + "]"));
    d.tls_included = f.key_set("tls_included");
    d.tls_excluded = f.key_set("tls_excluded");
    d.merged = f.key_set("merged");
    d.skipped_fallthrough = f.key_set("skipped_fallthrough");
    d.chosen = decode_key(f, f.need("chosen"));
    d.kernel = f.interned("kernel");
    d.kernel_kind = f.interned("kernel_kind");
    d.registered_at = f.interned("registered_at");
    return d;
  }
  if (type == "tensor_meta") {
    TensorMeta t;
    t.tensor_id = f.u64("tensor_id");
    t.storage_id = f.u64("storage_id");
    t.storage_nbytes = f.i64("storage_nbytes");
    t.dtype = f.interned("dtype");
    t.device = f.interned("device");
    auto int_list = [&f](const char* key, auto& out) {
      const json& a = f.array(key);
      for (size_t i = 0; i < a.size(); ++i)
        out.push_back(f.as_i64(a[i], std::string(key) + "[" + std::to_string(i) + "]"));
    };
    int_list("sizes", t.sizes);
    int_list("strides", t.strides);
    t.storage_offset = f.i64("storage_offset");
    t.version = f.u64("version");
    t.key_set = f.key_set("key_set");
    t.requires_grad = f.boolean("requires_grad");
    t.is_view = f.boolean("is_view");
    t.label = f.interned("label");
    const json& values = f.array("storage_values");
    for (size_t i = 0; i < values.size(); ++i)
      t.storage_values.push_back(f.as_double(values[i], "storage_values[" + std::to_string(i) + "]"));
    t.storage_truncated = f.boolean("storage_truncated");
    return t;
  }
  if (type == "storage_info") {
    StorageInfo s;
    s.storage_id = f.u64("storage_id");
    s.nbytes = f.i64("nbytes");
    s.device = f.interned("device");
    s.freed = f.boolean("freed");
    return s;
  }
  if (type == "script_line") return ScriptLine{f.i32("line"), f.i32("col")};
  if (type == "text") return Text{f.str("text")};
  if (type == "kernel_detail") {
    KernelDetail k;
    const json& fields = f.array("fields");
    for (size_t i = 0; i < fields.size(); ++i) {
      std::string at = "fields[" + std::to_string(i) + "]";
      const json& kv = fields[i];
      if (!kv.is_array() || kv.size() != 2) f.fail(at, "must be a [key, value] pair of strings");
      k.fields.emplace_back(intern(f.as_str(kv[0], at + "[0]")), f.as_str(kv[1], at + "[1]"));
    }
    return k;
  }
  if (type == "graph_node") return graph_node(f);
  if (type == "graph_nodes") {
    GraphNodes g;
    const json& nodes = f.array("nodes");
    for (size_t i = 0; i < nodes.size(); ++i) {
      Fields n(nodes[i], f.index(), f.full("nodes[" + std::to_string(i) + "]"));
      if (n.str("type") != "graph_node") n.fail("type", "must be \"graph_node\"");
      g.nodes.push_back(graph_node(n));
    }
    return g;
  }
  if (type == "device_work")
    return DeviceWork{f.u64("correlation"), f.i32("device"), f.i32("stream"),
                      f.i32("event"),       f.i64("bytes"),  f.as_double(f.need("flops"), "flops"),
                      f.interned("math"),   f.u64("addr")};
  if (type == "device_memory")
    return DeviceMemory{f.interned("action"), f.i32("device"),    f.i32("stream"),  f.u64("addr"),
                        f.i64("size"),        f.i64("allocated"), f.i64("reserved")};
  if (type == "schema_check") {
    SchemaCheck c;
    c.op = f.interned("op");
    const json& findings = f.array("findings");
    for (size_t i = 0; i < findings.size(); ++i) {
      Fields x(findings[i], f.index(), f.full("findings[" + std::to_string(i) + "]"));
      c.findings.push_back(SchemaCheckFinding{x.interned("kind"), x.interned("argument"), x.interned("message")});
    }
    return c;
  }
  if (type == "compile_artifact") {
    static auto* kind_name = +[](CompileArtifactKind k) { return compile_artifact_kind_name(k); };
    static const auto& kinds = names_of(kind_name, kNumCompileArtifactKinds - 1);
    return CompileArtifact{enum_field(f, "kind", kinds), f.interned("compile_id"), f.interned("file"), f.i32("line"),
                           f.str("text")};
  }
  if (type == "fusion_decisions") {
    static auto* action_name = +[](FusionAction a) { return fusion_action_name(a); };
    static const auto& actions = names_of(action_name, kNumFusionActions - 1);
    FusionDecisions out{f.i32("frame_id"), f.i32("compile_index"), f.i32("graph"), {}};
    const json& decisions = f.array("decisions");
    for (size_t i = 0; i < decisions.size(); ++i) {
      Fields x(decisions[i], f.index(), f.full("decisions[" + std::to_string(i) + "]"));
      out.decisions.push_back(
          FusionDecision{x.interned("node"), enum_field(x, "action", actions), x.interned("kernel"), x.str("reason")});
    }
    return out;
  }
  if (type == "recompile") {
    Recompile out{f.i32("frame_id"), f.i32("compile_index"), {}};
    const json& failures = f.array("failures");
    for (size_t i = 0; i < failures.size(); ++i) {
      Fields x(failures[i], f.index(), f.full("failures[" + std::to_string(i) + "]"));
      out.failures.push_back(GuardFailure{x.i32("frame_id"), x.i32("compile_index"), x.interned("guard"),
                                          x.interned("source"), x.str("expected"), x.str("actual"), x.i32("tree_line"),
                                          x.str("reason")});
    }
    return out;
  }
  if (type == "cache_lookup")
    return CacheLookup{f.boolean("hit"), f.i32("frame_id"), f.i32("compile_index"), f.i64("check_ns"),
                       f.i32("entries")};
  if (type == "autograd_decision")
    return AutogradDecision{f.interned("op"), f.boolean("grad_mode"), f.boolean("requires_grad"), f.interned("node")};
  if (type == "dispatch_table") {
    DispatchTable d;
    d.op = f.interned("op");
    d.schema = f.interned("schema");
    const json& rows = f.array("rows");
    for (size_t i = 0; i < rows.size(); ++i) {
      Fields r(rows[i], f.index(), f.full("rows[" + std::to_string(i) + "]"));
      d.rows.push_back(DispatchTableRow{decode_key(r, r.need("key"), "key"), r.boolean("fallthrough"),
                                        r.interned("registered_at"), r.interned("kind")});
    }
    return d;
  }
  if (type == "engine_step") {
    EngineStep x;
    x.node = f.u64("node");
    x.name = f.interned("name");
    x.from = f.u64("from");
    x.input_nr = f.u32("input_nr");
    x.deps_left = f.i32("deps_left");
    const json& sum = f.array("sum");
    for (size_t i = 0; i < sum.size(); ++i) x.sum.push_back(f.as_double(sum[i], "sum[" + std::to_string(i) + "]"));
    x.sum_truncated = f.boolean("sum_truncated");
    x.sum_none = f.boolean("sum_none");
    x.tensor = f.u64("tensor");
    x.grad_tensor = f.u64("grad_tensor");
    return x;
  }
  f.fail("type", "has an unknown payload type \"" + type + "\"");
}

}  // namespace

bool has_canonical_name(const DispatchKey& k) {
  if (k.is_alias()) return k.functionality == Functionality::Undefined && k.backend == BackendComponent::Invalid;
  if (is_per_backend(k.functionality)) return k.backend != BackendComponent::Invalid;
  return k.backend == BackendComponent::Invalid;
}
const DispatchKey* key_named(const std::string& name) { return find_named(key_by_name(), name); }
const Functionality* functionality_named(const std::string& name) { return find_named(functionality_names(), name); }
const BackendComponent* backend_named(const std::string& name) { return find_named(backend_names(), name); }
const AliasKey* alias_named(const std::string& name) { return find_named(alias_names(), name); }

json encode_event(const Event& e) {
  return {{"seq", e.seq},
          {"ts_ns", e.ts_ns},
          {"tid", e.tid},
          {"phase", phase_name(e.phase)},
          {"category", category_name(e.category)},
          {"name", e.name},
          {"payload", std::visit(PayloadEncoder{}, e.payload)}};
}

Event decode_event(const json& j, size_t index) {
  Fields f(j, index, "");
  Event e;
  e.seq = f.u64("seq");
  e.ts_ns = f.i64("ts_ns");
  e.tid = f.u32("tid");
  e.phase = enum_field(f, "phase", phase_names());
  e.category = enum_field(f, "category", category_names());
  e.name = f.interned("name");
  e.payload = decode_payload(f.need("payload"), index);
  return e;
}

}  // namespace ipt::trace::codec
