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

// A payload as one object: its name as "type", then each field by name (Note [Payloads are
// declared once]). Nested records are objects without a type; graph nodes keep theirs.
struct PayloadEncoder {
  json operator()(const std::monostate&) const { return nullptr; }
  template <typename T>
  json operator()(const T& p) const {
    json o = record(p);
    o["type"] = PayloadInfo<T>::name;
    return o;
  }
  template <typename R>
  json record(const R& r) const {
    json o = json::object();
    PayloadInfo<R>::visit(r, [&](auto kind, const char* name, const auto& x, int) { o[name] = put(kind, x); });
    return o;
  }

  static json put(wire::U64, uint64_t v) { return v; }
  static json put(wire::U32, uint32_t v) { return v; }
  static json put(wire::I64, int64_t v) { return v; }
  static json put(wire::I32, int32_t v) { return v; }
  static json put(wire::Flag, bool v) { return v; }
  static json put(wire::F64, double v) { return encode_double(v); }
  static json put(wire::Str, const char* s) { return s; }
  static json put(wire::Text, const std::string& s) { return s; }
  static json put(wire::KeySet, uint64_t raw) { return key_set_hex(raw); }
  static json put(wire::KeySets, const SmallKeySets& sets) {
    json a = json::array();
    for (uint64_t ks : sets) a.push_back(key_set_hex(ks));
    return a;
  }
  static json put(wire::Key, const DispatchKey& k) { return encode_key(k); }
  static json put(wire::Ints, const SmallDims& v) { return v; }
  template <typename List>
  static json doubles(const List& v) {
    json a = json::array();
    for (double x : v) a.push_back(encode_double(x));
    return a;
  }
  static json put(wire::Doubles, const std::vector<double>& v) { return doubles(v); }
  static json put(wire::Preview, const PreviewValues& v) { return doubles(v); }
  template <typename E>
  static json put(wire::Enum, E e) {
    return EnumInfo<E>::name(e);
  }
  template <typename R>
  json put(wire::Records, const std::vector<R>& rows) const {
    json a = json::array();
    for (const R& r : rows) a.push_back(record(r));
    return a;
  }
  static json put(wire::Pairs, const DetailFields& pairs) {
    json a = json::array();
    for (const auto& [key, value] : pairs) a.push_back(json::array({key, value}));
    return a;
  }
  static json put(wire::Edges, const std::vector<NextEdge>& next) {
    json a = json::array();
    for (const auto& e : next) a.push_back(e.valid ? json::array({e.node, e.input_nr}) : json(nullptr));
    return a;
  }
  static json put(wire::Leaves, const std::vector<LeafEdge>& leaves) {
    json a = json::array();
    for (const auto& l : leaves) a.push_back(json::array({l.node, l.tensor}));
    return a;
  }
  json put(wire::Nodes, const std::vector<GraphNode>& nodes) const {
    json a = json::array();
    for (const GraphNode& n : nodes) a.push_back((*this)(n));
    return a;
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

  bool has(const char* key) const { return obj_.contains(key); }
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

// Reads a payload's fields by name (Note [Payloads are declared once]). A field that a later
// format version added may be missing: it keeps its initial value.
class PayloadDecoder {
 public:
  template <typename R>
  static R record(const Fields& f) {
    R out;
    PayloadInfo<R>::visit(out, [&](auto kind, const char* name, auto& x, int since) {
      if (since > 1 && !f.has(name)) return;
      get(kind, f, name, x);
    });
    return out;
  }

 private:
  static std::string at(const char* name, size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }
  static void get(wire::U64, const Fields& f, const char* n, uint64_t& x) { x = f.u64(n); }
  static void get(wire::U32, const Fields& f, const char* n, uint32_t& x) { x = f.u32(n); }
  static void get(wire::I64, const Fields& f, const char* n, int64_t& x) { x = f.i64(n); }
  static void get(wire::I32, const Fields& f, const char* n, int32_t& x) { x = f.i32(n); }
  static void get(wire::Flag, const Fields& f, const char* n, bool& x) { x = f.boolean(n); }
  static void get(wire::F64, const Fields& f, const char* n, double& x) { x = f.as_double(f.need(n), n); }
  static void get(wire::Str, const Fields& f, const char* n, const char*& x) { x = f.interned(n); }
  static void get(wire::Text, const Fields& f, const char* n, std::string& x) { x = f.str(n); }
  static void get(wire::KeySet, const Fields& f, const char* n, uint64_t& x) { x = f.key_set(n); }
  static void get(wire::KeySets, const Fields& f, const char* n, SmallKeySets& x) {
    const json& a = f.array(n);
    for (size_t i = 0; i < a.size(); ++i) x.push_back(f.as_key_set(a[i], at(n, i)));
  }
  static void get(wire::Key, const Fields& f, const char* n, DispatchKey& x) { x = decode_key(f, f.need(n), n); }
  static void get(wire::Ints, const Fields& f, const char* n, SmallDims& x) {
    const json& a = f.array(n);
    for (size_t i = 0; i < a.size(); ++i) x.push_back(f.as_i64(a[i], at(n, i)));
  }
  template <typename List>
  static void doubles(const Fields& f, const char* n, List& x) {
    const json& a = f.array(n);
    for (size_t i = 0; i < a.size(); ++i) x.push_back(f.as_double(a[i], at(n, i)));
  }
  static void get(wire::Doubles, const Fields& f, const char* n, std::vector<double>& x) { doubles(f, n, x); }
  static void get(wire::Preview, const Fields& f, const char* n, PreviewValues& x) { doubles(f, n, x); }
  template <typename E>
  static void get(wire::Enum, const Fields& f, const char* n, E& x) {
    static auto* name = +[](E e) { return EnumInfo<E>::name(e); };
    x = enum_field(f, n, names_of(name, EnumInfo<E>::count - 1));
  }
  template <typename R>
  static void get(wire::Records, const Fields& f, const char* n, std::vector<R>& rows) {
    const json& a = f.array(n);
    for (size_t i = 0; i < a.size(); ++i) rows.push_back(record<R>(Fields(a[i], f.index(), f.full(at(n, i)))));
  }
  static void get(wire::Pairs, const Fields& f, const char* n, DetailFields& x) {
    const json& a = f.array(n);
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string where = at(n, i);
      const json& kv = a[i];
      if (!kv.is_array() || kv.size() != 2) f.fail(where, "must be a [key, value] pair of strings");
      x.emplace_back(intern(f.as_str(kv[0], where + "[0]")), f.as_str(kv[1], where + "[1]"));
    }
  }
  static void get(wire::Edges, const Fields& f, const char* n, std::vector<NextEdge>& x) {
    const json& next = f.array(n);
    for (size_t i = 0; i < next.size(); ++i) {
      const std::string where = at(n, i);
      if (next[i].is_null()) {
        x.push_back(NextEdge{});
        continue;
      }
      if (!next[i].is_array() || next[i].size() != 2) f.fail(where, "must be null or a [node, input_nr] pair");
      const uint64_t nr = f.as_u64(next[i][1], where + "[1]");
      if (nr > UINT32_MAX) f.fail(where + "[1]", "is out of range (a 32-bit unsigned integer)");
      x.push_back(NextEdge{true, f.as_u64(next[i][0], where + "[0]"), static_cast<uint32_t>(nr)});
    }
  }
  static void get(wire::Leaves, const Fields& f, const char* n, std::vector<LeafEdge>& x) {
    const json& leaves = f.array(n);
    for (size_t i = 0; i < leaves.size(); ++i) {
      const std::string where = at(n, i);
      if (!leaves[i].is_array() || leaves[i].size() != 2) f.fail(where, "must be a [node, tensor] pair");
      x.push_back({f.as_u64(leaves[i][0], where + "[0]"), f.as_u64(leaves[i][1], where + "[1]")});
    }
  }
  static void get(wire::Nodes, const Fields& f, const char* n, std::vector<GraphNode>& x) {
    const json& nodes = f.array(n);
    for (size_t i = 0; i < nodes.size(); ++i) {
      Fields node(nodes[i], f.index(), f.full(at(n, i)));
      if (node.str("type") != PayloadInfo<GraphNode>::name) node.fail("type", "must be \"graph_node\"");
      x.push_back(record<GraphNode>(node));
    }
  }
};

Payload decode_payload(const json& j, size_t index) {
  if (j.is_null()) return std::monostate{};
  Fields f(j, index, "payload");
  const std::string& type = f.str("type");
#define IPT_DECODE_PAYLOAD(T, FIELDS, number, name, since) \
  if (type == name) return PayloadDecoder::record<T>(f);
  IPT_PAYLOAD_TYPES(IPT_DECODE_PAYLOAD)
#undef IPT_DECODE_PAYLOAD
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
