// Import, format versions 2 to 4: the document is walked in pieces (Note [Reading a trace in
// pieces] in json_scan.h) and its "insidePyTorch" records decoded into Events, every mistake
// reported with its byte position or its event and item. Version 1 documents go to
// trace_read_v1.cpp.
#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <thread>

#include "core/trace/json_scan.h"
#include "core/trace/payload_codec.h"
#include "core/trace/trace_json.h"
#include "core/trace/trace_upgrade.h"
#include "core/util/error.h"
#include "core/util/mapped_file.h"

namespace ipt::trace {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr size_t kNone = std::numeric_limits<size_t>::max();

// The string table, with what its entries mean once parsed (key sets, dispatch keys), cached.
// A JSON array of numbers ("nan", "inf" and "-inf" as strings) appended to `out`; false, with
// `why`, for anything else.
bool number_list(element list, std::vector<double>& out, std::string& why) {
  const simdjson::dom::array items = list.get_array().value_unsafe();  // a copy: the result is a temporary
  for (element x : items) {
    switch (x.type()) {
      case element_type::DOUBLE: out.push_back(x.get_double().value_unsafe()); break;
      case element_type::INT64: out.push_back(static_cast<double>(x.get_int64().value_unsafe())); break;
      case element_type::UINT64: out.push_back(static_cast<double>(x.get_uint64().value_unsafe())); break;
      case element_type::STRING: {
        std::string_view s = x.get_string().value_unsafe();
        if (s == "nan") out.push_back(std::numeric_limits<double>::quiet_NaN());
        else if (s == "inf") out.push_back(std::numeric_limits<double>::infinity());
        else if (s == "-inf") out.push_back(-std::numeric_limits<double>::infinity());
        else {
          why = "holds the string \"" + std::string(s) + "\" (only \"nan\", \"inf\", \"-inf\")";
          return false;
        }
        break;
      }
      default: why = std::string("must hold numbers, got ") + json_type_name(x.type()); return false;
    }
  }
  return true;
}

struct Strings {
  std::vector<std::vector<double>> values;  // version 3: the storage previews' table
  std::vector<const char*> text;
  std::vector<size_t> length;  // a text may hold NUL bytes
  std::vector<uint64_t> key_set;
  std::vector<uint8_t> key_set_state;  // 0 not parsed, 1 a key set, 2 not one
  std::vector<const DispatchKey*> key;
  std::vector<uint8_t> key_state;
};

// One compact record (an array) of event `index`, read item by item with checked types.
class Record {
 public:
  static constexpr size_t kMaxItems = 64;

  Record(element e, size_t index, const char* what, const Strings& strings) : index_(index), what_(what), s_(strings) {
    if (e.type() != element_type::ARRAY) fail(std::string(what) + " must be an array, got " + json_type_name(e.type()));
    const simdjson::dom::array items = e.get_array().value_unsafe();
    for (element x : items) {
      if (n_ == kMaxItems) fail(std::string(what) + " has more than " + std::to_string(kMaxItems) + " items");
      items_[n_++] = x;
    }
  }
  [[noreturn]] void fail(const std::string& what) const { IPT_FAIL(ValueError, "event ", index_, ": ", what); }
  [[noreturn]] void fail(size_t k, const char* name, const std::string& what) const {
    fail(std::string(what_) + " item " + std::to_string(k) + " (" + name + ") " + what);
  }
  size_t size() const { return n_; }
  size_t index() const { return index_; }
  element at(size_t k, const char* name) const {
    if (k >= n_) fail(k, name, "is missing");
    return items_[k];
  }
  uint64_t u64(size_t k, const char* name) const {
    element e = at(k, name);
    if (e.type() == element_type::UINT64) return e.get_uint64().value_unsafe();
    if (e.type() == element_type::INT64) {
      if (e.get_int64().value_unsafe() < 0) fail(k, name, "must not be negative");
      return static_cast<uint64_t>(e.get_int64().value_unsafe());
    }
    fail(k, name, std::string("must be an integer, got ") + json_type_name(e.type()));
  }
  int64_t i64(size_t k, const char* name) const {
    element e = at(k, name);
    if (e.type() == element_type::INT64) return e.get_int64().value_unsafe();
    if (e.type() == element_type::UINT64) fail(k, name, "is out of range (a 64-bit signed integer)");
    fail(k, name, std::string("must be an integer, got ") + json_type_name(e.type()));
  }
  uint64_t bounded(size_t k, const char* name, uint64_t max, const char* range) const {
    const uint64_t v = u64(k, name);
    if (v > max) fail(k, name, "is " + std::to_string(v) + ", out of range (" + range + ")");
    return v;
  }
  int i32(size_t k, const char* name) const {
    const int64_t v = i64(k, name);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
      fail(k, name, "is " + std::to_string(v) + ", out of range (a 32-bit signed integer)");
    return static_cast<int>(v);
  }
  double dbl(size_t k, const char* name) const {
    element e = at(k, name);
    if (e.type() == element_type::DOUBLE) return e.get_double().value_unsafe();
    if (e.type() == element_type::INT64) return static_cast<double>(e.get_int64().value_unsafe());
    if (e.type() == element_type::UINT64) return static_cast<double>(e.get_uint64().value_unsafe());
    fail(k, name, std::string("must be a number, got ") + json_type_name(e.type()));
  }
  bool flag(size_t k, const char* name) const { return bounded(k, name, 1, "0 or 1") == 1; }
  uint32_t id(size_t k, const char* name) const {
    const uint64_t v = u64(k, name);
    if (v >= s_.text.size())
      fail(k, name, "is string " + std::to_string(v) + ", but the table has " + std::to_string(s_.text.size()));
    return static_cast<uint32_t>(v);
  }
  const char* str(size_t k, const char* name) const { return s_.text[id(k, name)]; }
  std::string whole_str(size_t k, const char* name) const {
    const uint32_t i = id(k, name);
    return std::string(s_.text[i], s_.length[i]);
  }
  element array(size_t k, const char* name) const {
    element e = at(k, name);
    if (e.type() != element_type::ARRAY)
      fail(k, name, std::string("must be an array, got ") + json_type_name(e.type()));
    return e;
  }

 private:
  size_t index_;
  const char* what_;
  const Strings& s_;
  element items_[kMaxItems];
  size_t n_ = 0;
};

class Decoder {
 public:
  Decoder(Strings& s, int version) : s_(s), version_(version), max_type_(max_payload_number(version)) {}

  Event event(element el, size_t index) {
    Record r(el, index, "the record", s_);
    if (r.size() > 6) r.fail("the record has " + std::to_string(r.size()) + " items, at most 6");
    Event e;
    ts_ = static_cast<int64_t>(static_cast<uint64_t>(ts_) + static_cast<uint64_t>(r.i64(0, "dt_ns")));
    e.ts_ns = ts_;
    e.tid =
        static_cast<uint32_t>(r.bounded(1, "tid", std::numeric_limits<uint32_t>::max(), "a 32-bit unsigned integer"));
    e.phase = static_cast<Phase>(r.bounded(2, "phase", static_cast<uint64_t>(Phase::Instant), "0 to 2"));
    // Version 5 added the compile category (12).
    e.category =
        version_ >= 5
            ? static_cast<Category>(r.bounded(3, "category", static_cast<uint64_t>(Category::Compile), "0 to 12"))
            : static_cast<Category>(r.bounded(3, "category", static_cast<uint64_t>(Category::GpuMemory), "0 to 11"));
    e.name = r.str(4, "name");
    if (r.size() == 6) e.payload = payload(Record(r.at(5, "payload"), index, "the payload", s_));
    return e;
  }

 private:
  // The payload of the type its first item names, read field by field as declared (Note
  // [Payloads are declared once]); fields added after the file's version keep their values.
  Payload payload(const Record& p) {
    const std::string range = "0 to " + std::to_string(max_type_);
    switch (p.bounded(0, "type", static_cast<uint64_t>(max_type_), range.c_str())) {
#define IPT_READ_PAYLOAD(T, FIELDS, number, name, since) \
  case number: return top<T>(p);
      IPT_PAYLOAD_TYPES(IPT_READ_PAYLOAD)
#undef IPT_READ_PAYLOAD
      default: return std::monostate{};  // not reached: the type is bounded above
    }
  }

  template <typename T>
  static constexpr bool takes_rest() {
    for (const FieldDoc& f : PayloadInfo<T>::fields)
      if (f.fills_record) return true;
    return false;
  }
  template <typename T>
  T top(const Record& p) {
    if constexpr (!takes_rest<T>()) expect_items(p, 1 + fields_in_version<T>(version_));
    T out;
    if constexpr (requires { LegacyLayout<T>::until; }) {
      if (version_ <= LegacyLayout<T>::until) {
        size_t k = 1;
        LegacyLayout<T>::visit(out, [&](auto kind, const char* name, auto& x, int) { get(kind, p, k++, name, x); });
        return out;
      }
    }
    read_fields(p, 1, out);
    return out;
  }
  template <typename T>
  void read_fields(const Record& p, size_t k, T& out) {
    PayloadInfo<T>::visit(out, [&](auto kind, const char* name, auto& x, int since) {
      if (since <= version_) get(kind, p, k++, name, x);
    });
  }

  void get(wire::U64, const Record& p, size_t k, const char* n, uint64_t& x) { x = p.u64(k, n); }
  void get(wire::U32, const Record& p, size_t k, const char* n, uint32_t& x) {
    x = static_cast<uint32_t>(p.bounded(k, n, std::numeric_limits<uint32_t>::max(), "a 32-bit unsigned integer"));
  }
  void get(wire::I64, const Record& p, size_t k, const char* n, int64_t& x) { x = p.i64(k, n); }
  void get(wire::I32, const Record& p, size_t k, const char* n, int32_t& x) { x = p.i32(k, n); }
  void get(wire::Flag, const Record& p, size_t k, const char* n, bool& x) { x = p.flag(k, n); }
  void get(wire::F64, const Record& p, size_t k, const char* n, double& x) { x = p.dbl(k, n); }
  void get(wire::Str, const Record& p, size_t k, const char* n, const char*& x) { x = p.str(k, n); }
  void get(wire::Text, const Record& p, size_t k, const char* n, std::string& x) { x = p.whole_str(k, n); }
  void get(wire::KeySet, const Record& p, size_t k, const char* n, uint64_t& x) { x = key_set(p, k, n); }
  void get(wire::KeySets, const Record& p, size_t k, const char* n, SmallKeySets& x) {
    Record a(p.array(k, n), p.index(), n, s_);
    for (size_t i = 0; i < a.size(); ++i) x.push_back(key_set(a, i, n));
  }
  void get(wire::Key, const Record& p, size_t k, const char* n, DispatchKey& x) { x = key(p, k, n); }
  void get(wire::Ints, const Record& p, size_t k, const char* n, SmallDims& x) { ints(p, k, n, x); }
  void get(wire::Doubles, const Record& p, size_t k, const char* n, std::vector<double>& x) { doubles(p, k, n, x); }
  // Version 3: an index into the "values" table; before, the list itself.
  void get(wire::Preview, const Record& p, size_t k, const char* n, PreviewValues& x) {
    if (version_ < 3) {
      std::vector<double> listed;
      doubles(p, k, n, listed);
      x = listed;
      return;
    }
    const uint64_t i = p.u64(k, n);
    if (i >= s_.values.size())
      p.fail(k, n, "is value list " + std::to_string(i) + ", but the table has " + std::to_string(s_.values.size()));
    x = s_.values[i];
  }
  template <typename E>
  void get(wire::Enum, const Record& p, size_t k, const char* n, E& x) {
    const std::string range = "0 to " + std::to_string(EnumInfo<E>::count - 1);
    x = static_cast<E>(p.bounded(k, n, EnumInfo<E>::count - 1, range.c_str()));
  }
  template <typename R>
  void get(wire::Records, const Record& p, size_t k, const char* n, std::vector<R>& rows) {
    const simdjson::dom::array items = p.array(k, n).get_array().value_unsafe();
    for (element item : items) {
      if (item.type() != element_type::ARRAY) p.fail(k, n, "must hold [" + field_names<R>(version_) + "] rows");
      Record r(item, p.index(), PayloadInfo<R>::what, s_);
      expect_items(r, fields_in_version<R>(version_));
      R row;
      read_fields(r, 0, row);
      rows.push_back(std::move(row));
    }
  }
  void get(wire::Pairs, const Record& p, size_t k, const char*, DetailFields& x) {
    if ((p.size() - k) % 2 != 0) p.fail("a kernel_detail payload needs key, value pairs");
    for (size_t i = k; i < p.size(); i += 2) x.emplace_back(p.str(i, "key"), p.whole_str(i + 1, "value"));
  }
  // [node (-1: None), input_nr, ...]
  void get(wire::Edges, const Record& p, size_t k, const char* n, std::vector<NextEdge>& x) {
    std::vector<int64_t> v;
    ints(p, k, n, v);
    if (v.size() % 2) p.fail(k, n, "must hold node, input_nr pairs");
    for (size_t i = 0; i < v.size(); i += 2) {
      if (v[i] < -1 || v[i + 1] < 0 || v[i + 1] > std::numeric_limits<uint32_t>::max())
        p.fail(k, n, "holds an edge out of range (node -1 for None or an id, input_nr a 32-bit unsigned integer)");
      x.push_back(v[i] < 0 ? NextEdge{} : NextEdge{true, static_cast<uint64_t>(v[i]), static_cast<uint32_t>(v[i + 1])});
    }
  }
  // [node, tensor, ...]
  void get(wire::Leaves, const Record& p, size_t k, const char* n, std::vector<LeafEdge>& x) {
    std::vector<int64_t> v;
    ints(p, k, n, v);
    if (v.size() % 2) p.fail(k, n, "must hold node, tensor pairs");
    for (size_t i = 0; i < v.size(); i += 2) {
      if (v[i] < 0 || v[i + 1] < 0) p.fail(k, n, "must hold ids, not negative numbers");
      x.push_back({static_cast<uint64_t>(v[i]), static_cast<uint64_t>(v[i + 1])});
    }
  }
  // Each node a graph_node record of its own.
  void get(wire::Nodes, const Record& p, size_t k, const char* n, std::vector<GraphNode>& x) {
    const simdjson::dom::array nodes = p.array(k, n).get_array().value_unsafe();
    for (element node : nodes) {
      if (node.type() != element_type::ARRAY) p.fail(k, n, "must hold node records");
      Record r(node, p.index(), "a node of the graph", s_);
      constexpr int number = PayloadInfo<GraphNode>::number;
      if (r.bounded(0, "type", number, "6") != number) r.fail(0, "type", "must be 6 (a node)");
      x.push_back(top<GraphNode>(r));
    }
  }

  static void expect_items(const Record& p, size_t n) {
    if (p.size() != n) p.fail("the payload has " + std::to_string(p.size()) + " items, not " + std::to_string(n));
  }

  uint64_t key_set(const Record& r, size_t k, const char* name) {
    const uint32_t id = r.id(k, name);
    if (s_.key_set_state[id] == 0) {
      std::string_view v = s_.text[id];
      uint64_t raw = 0;
      const char* b = v.data() + 2;
      const char* e = v.data() + v.size();
      const bool ok =
          v.size() >= 3 && v.size() <= 18 && v[0] == '0' && v[1] == 'x' && std::from_chars(b, e, raw, 16).ptr == e;
      s_.key_set_state[id] = ok ? 1 : 2;
      s_.key_set[id] = raw;
    }
    if (s_.key_set_state[id] == 2)
      r.fail(k, name, "must name a key set like \"0x1c00001\", got \"" + std::string(s_.text[id]) + "\"");
    return s_.key_set[id];
  }

  template <typename Lookup>
  auto named(const Record& r, size_t k, const char* name, uint32_t id, const char* what, Lookup lookup) {
    auto* v = lookup(s_.text[id]);
    if (!v) r.fail(k, name, std::string("has an unknown ") + what + " \"" + s_.text[id] + "\"");
    return *v;
  }

  // A dispatch key: a name from the table, or [functionality, backend, alias] names.
  DispatchKey key(const Record& r, size_t k, const char* name) {
    element e = r.at(k, name);
    if (e.type() == element_type::ARRAY) {
      Record parts(e, r.index(), "the chosen key", s_);
      if (parts.size() != 3) r.fail(k, name, "must be a key name or [functionality, backend, alias]");
      DispatchKey key;
      key.functionality = named(r, k, name, parts.id(0, "functionality"), "functionality", codec::functionality_named);
      key.backend = named(r, k, name, parts.id(1, "backend"), "backend", codec::backend_named);
      key.alias = named(r, k, name, parts.id(2, "alias"), "alias", codec::alias_named);
      return key;
    }
    const uint32_t id = r.id(k, name);
    if (s_.key_state[id] == 0) {
      s_.key[id] = codec::key_named(s_.text[id]);
      s_.key_state[id] = 1;
    }
    if (!s_.key[id]) r.fail(k, name, "is not a dispatch key name: \"" + std::string(s_.text[id]) + "\"");
    return *s_.key[id];
  }

  static void ints(const Record& p, size_t k, const char* name, auto& out) {
    const simdjson::dom::array items = p.array(k, name).get_array().value_unsafe();
    for (element x : items) {
      if (x.type() != element_type::INT64) {
        if (x.type() == element_type::UINT64) p.fail(k, name, "has an element out of range (a 64-bit signed integer)");
        p.fail(k, name, std::string("must hold integers, got ") + json_type_name(x.type()));
      }
      out.push_back(x.get_int64().value_unsafe());
    }
  }

  static void doubles(const Record& p, size_t k, const char* name, std::vector<double>& out) {
    std::string why;
    if (!number_list(p.array(k, name), out, why)) p.fail(k, name, why);
  }

  Strings& s_;
  int version_;
  int max_type_;
  int64_t ts_ = 0;  // the previous event's time
};

[[noreturn]] void malformed(const std::string& what) { IPT_FAIL(ValueError, "malformed Inside PyTorch trace: ", what); }

const char* first_char_type(char c) {
  switch (c) {
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    case '{': return "an object";
    default: return "a number";
  }
}

TraceMeta decode_meta(element j) {
  if (j.type() != element_type::OBJECT)
    malformed(std::string("meta must be an object, got ") + json_type_name(j.type()));
  TraceMeta meta;
  auto text = [&](const char* key) {
    auto v = j[key];
    if (v.error()) malformed(std::string("meta has no \"") + key + "\"");
    if (v.type() != element_type::STRING)
      malformed(std::string("meta.") + key + " must be a string, got " + json_type_name(v.type().value_unsafe()));
    return std::string(v.get_string().value_unsafe());
  };
  meta.title = text("title");
  meta.source = text("source");
  auto fields = j["fields"];
  if (fields.error()) malformed("meta has no \"fields\"");
  if (fields.type() != element_type::OBJECT)
    malformed(std::string("meta.fields must be an object, got ") + json_type_name(fields.type().value_unsafe()));
  const simdjson::dom::object members = fields.get_object().value_unsafe();
  for (auto [key, value] : members) {
    if (value.type() != element_type::STRING)
      malformed("meta.fields." + std::string(key) + " must be a string, got " + json_type_name(value.type()));
    meta.fields.emplace(std::string(key), std::string(value.get_string().value_unsafe()));
  }
  return meta;
}

// Where the members of "insidePyTorch" start (kNone: absent).
struct Members {
  size_t format = kNone, version = kNone, meta = kNone, strings = kNone, values = kNone, events = kNone,
         first_seq = kNone, seqs = kNone;
  size_t end = 0;  // just past the object
};

// The first pass: walks the top-level object, checking the structure of everything in it
// (the Chrome part is only skipped), and returns where the value of "insidePyTorch" starts.
size_t locate_root(std::string_view text, const std::function<void(size_t, size_t)>& release) {
  JsonScan s(text, release);
  const char first = s.peek();
  if (first != '{') {
    s.skip_value("at the top level");  // a mistake in it is reported first
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: the top level is ", first_char_type(first), ", not an object");
  }
  size_t root = kNone;
  bool chrome = false;
  s.object("in the top-level object", [&](std::string_view key, size_t at) {
    if (key == "insidePyTorch") root = at;
    if (key == "traceEvents") chrome = true;
    s.skip_value(key == "traceEvents" ? "in traceEvents" : "in the top-level object");
  });
  if (!s.at_end()) s.fail(s.pos(), "unexpected text after the JSON document");
  if (root == kNone)
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: no \"insidePyTorch\" key",
             chrome ? " (a plain Chrome trace has no events to load)" : "");
  return root;
}

// The second pass: the members of "insidePyTorch", starting at `root`, decoded.
LoadedTrace decode_root(std::string_view text, size_t root, const std::function<void(size_t, size_t)>& release,
                        LoadProgress* progress) {
  JsonScan s(text, release);
  s.seek(root);
  if (s.peek() != '{')
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: \"insidePyTorch\" is ", first_char_type(s.peek()),
             ", not an object");
  Members m;
  s.object("in insidePyTorch", [&](std::string_view key, size_t at) {
    if (key == "format") m.format = at;
    else if (key == "version") m.version = at;
    else if (key == "meta") m.meta = at;
    else if (key == "strings") m.strings = at;
    else if (key == "values") m.values = at;
    else if (key == "events") m.events = at;
    else if (key == "first_seq") m.first_seq = at;
    else if (key == "seqs") m.seqs = at;
    s.skip_value("in insidePyTorch");
  });
  m.end = s.pos();
  if (release) release(root, m.end);  // the members' pass is done with these pages

  auto member = [&](size_t at, const char* key) {
    if (at == kNone) malformed(std::string("insidePyTorch has no \"") + key + "\"");
    s.seek(at);
  };
  if (m.format == kNone)
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: insidePyTorch.format is not \"", kTraceFormatName, "\"");
  s.seek(m.format);
  {
    element f = s.parse_value("in insidePyTorch.format");
    if (f.type() != element_type::STRING || f.get_string().value_unsafe() != kTraceFormatName)
      IPT_FAIL(ValueError, "not an Inside PyTorch trace: insidePyTorch.format is not \"", kTraceFormatName, "\"");
  }
  member(m.version, "version");
  element v = s.parse_value("in insidePyTorch.version");
  if (v.type() == element_type::UINT64 && v.get_uint64().value_unsafe() > static_cast<uint64_t>(kTraceFormatVersion))
    IPT_FAIL(ValueError, "trace format version ", v.get_uint64().value_unsafe(),
             " is newer than this program supports (", kTraceFormatVersion, "); update Inside PyTorch");
  if (v.type() != element_type::INT64)
    malformed(std::string("insidePyTorch.version must be an integer, got ") + json_type_name(v.type()));
  const int64_t version = v.get_int64().value_unsafe();
  if (version > kTraceFormatVersion)
    IPT_FAIL(ValueError, "trace format version ", version, " is newer than this program supports (",
             kTraceFormatVersion, "); update Inside PyTorch");
  if (version < 1) malformed("format version " + std::to_string(version) + " does not exist");
  if (version == 1) return read_trace_json_v1(text);

  LoadedTrace out;
  member(m.meta, "meta");
  out.meta = decode_meta(s.parse_value("in insidePyTorch.meta"));
  Strings strings;
  member(m.strings, "strings");
  s.array_batches("in insidePyTorch.strings", [&](element e, size_t i, size_t) {
    if (e.type() != element_type::STRING)
      malformed("string " + std::to_string(i) + " of the table must be a string, got " + json_type_name(e.type()));
    const std::string_view text = e.get_string().value_unsafe();
    strings.text.push_back(intern(text));
    strings.length.push_back(text.size());
  });
  strings.key_set.assign(strings.text.size(), 0);
  strings.key_set_state.assign(strings.text.size(), 0);
  strings.key.assign(strings.text.size(), nullptr);
  strings.key_state.assign(strings.text.size(), 0);
  if (version >= 3) {
    member(m.values, "values");
    s.array_batches("in insidePyTorch.values", [&](element e, size_t i, size_t) {
      if (e.type() != element_type::ARRAY)
        malformed("value list " + std::to_string(i) + " must be an array, got " + json_type_name(e.type()));
      std::vector<double> list;
      std::string why;
      if (!number_list(e, list, why)) malformed("value list " + std::to_string(i) + " " + why);
      strings.values.push_back(std::move(list));
    });
  }
  member(m.events, "events");
  // Reserving for the shortest records costs address space, not memory: untouched pages stay
  // unallocated, and the vector never reallocates (which would hold it twice).
  out.events.reserve((m.end - m.events) / 14 + 1);
  // Version 3 added types 6 to 12, 4 type 13, 5 type 14 (and the compile category), 6 types 15 to 17.
  Decoder decode(strings, static_cast<int>(version));
  const size_t events_at = m.events;
  size_t next_check = 0;
  s.array_batches("in insidePyTorch.events", [&](element e, size_t i, size_t at) {
    if (progress && i >= next_check) {  // every few thousand events
      next_check = i + 4096;
      if (progress->cancel.load(std::memory_order_relaxed)) IPT_FAIL(RuntimeError, "loading was cancelled");
      progress->fraction.store(static_cast<double>(at - events_at) / static_cast<double>(m.end - events_at),
                               std::memory_order_relaxed);
    }
    out.events.push_back(decode.event(e, i));
  });
  // seq: listed, or first_seq + index.
  if (m.seqs != kNone) {
    s.seek(m.seqs);
    size_t n = 0;
    s.array_batches("in insidePyTorch.seqs", [&](element e, size_t i, size_t) {
      if (i >= out.events.size()) malformed("insidePyTorch.seqs has more entries than there are events");
      if (e.type() != element_type::INT64 && e.type() != element_type::UINT64)
        malformed("seq " + std::to_string(i) + " must be an unsigned integer, got " + json_type_name(e.type()));
      if (e.type() == element_type::INT64 && e.get_int64().value_unsafe() < 0)
        malformed("seq " + std::to_string(i) + " must not be negative");
      out.events[i].seq = e.type() == element_type::UINT64 ? e.get_uint64().value_unsafe()
                                                           : static_cast<uint64_t>(e.get_int64().value_unsafe());
      ++n;
    });
    if (n != out.events.size())
      malformed("insidePyTorch.seqs has " + std::to_string(n) + " entries for " + std::to_string(out.events.size()) +
                " events");
  } else {
    uint64_t first = 0;
    if (m.first_seq != kNone) {
      s.seek(m.first_seq);
      element f = s.parse_value("in insidePyTorch.first_seq");
      if (f.type() == element_type::UINT64) first = f.get_uint64().value_unsafe();
      else if (f.type() == element_type::INT64 && f.get_int64().value_unsafe() >= 0)
        first = static_cast<uint64_t>(f.get_int64().value_unsafe());
      else malformed("insidePyTorch.first_seq must be an unsigned integer");
    }
    for (size_t i = 0; i < out.events.size(); ++i) out.events[i].seq = first + i;
  }
  if (version < 3) upgrade_text_payloads(out.events);
  if (version == 5) upgrade_compile_text(out.events);
  if (version < 7) upgrade_named_events(out.events);
  if (progress) progress->fraction.store(1.0);
  return out;
}

// Note [The two passes of a load run side by side]
// Finding "insidePyTorch" means walking the whole Chrome part before it (two thirds of the
// file), which used to take a fifth of a load. The writer puts it last, after a line "],",
// so a large file is searched for that text (a fast memmem) and the records are decoded from
// there while a second thread walks and checks the whole document as the first pass always
// did. The guess is only trusted once that walk agrees: a mistake the walk finds is reported
// first (as it would be alone), and if the walk finds the key elsewhere (a hand-made file),
// the records are decoded again from there.
LoadedTrace load(std::string_view text, const std::function<void(size_t, size_t)>& release,
                 LoadProgress* progress = nullptr) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) IPT_FAIL(ValueError, "the trace file is empty");
  constexpr size_t kSideBySideBytes = size_t(16) << 20;
  constexpr std::string_view kMark = "\n],\n\"insidePyTorch\":";
  size_t guess = kNone;
  if (text.size() >= kSideBySideBytes && std::thread::hardware_concurrency() >= 2) {
    const void* at = memmem(text.data(), text.size(), kMark.data(), kMark.size());
    if (at) guess = static_cast<size_t>(static_cast<const char*>(at) - text.data()) + kMark.size();
  }
  if (guess == kNone) return decode_root(text, locate_root(text, release), release, progress);

  size_t root = kNone;
  std::exception_ptr walk_error;
  std::thread walk([&] {
    try {
      // The walk releases only what lies before the records, which the decoder is reading.
      root = locate_root(text, [&](size_t b, size_t e) {
        if (release && b < guess) release(b, std::min(e, guess));
      });
    } catch (...) {
      walk_error = std::current_exception();
    }
  });
  std::optional<LoadedTrace> out;
  std::exception_ptr decode_error;
  try {
    out = decode_root(text, guess, release, progress);
  } catch (...) {
    decode_error = std::current_exception();
  }
  walk.join();
  if (walk_error) std::rethrow_exception(walk_error);
  if (root != guess) return decode_root(text, root, release, progress);
  if (decode_error) std::rethrow_exception(decode_error);
  return std::move(*out);
}

}  // namespace

LoadedTrace read_trace_json(std::string_view text) {
  try {
    return load(text, {});
  } catch (const ipt::Error&) {
    throw;
  } catch (const std::exception& e) {  // defensive: nothing else should escape
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: ", e.what());
  }
}

LoadedTrace read_trace_file(const std::filesystem::path& path, LoadProgress* progress) {
  std::optional<MappedFile> file;
  try {
    file.emplace(path, uint64_t(2) << 30, "trace file");
  } catch (const ipt::Error& e) {
    throw ipt::Error(ErrorKind::RuntimeError, e.what());
  }
  try {
    const MappedFile& f = *file;
    return load(
        f.text(), [&f](size_t b, size_t e) { f.release(b, e); }, progress);
  } catch (const ipt::Error& e) {
    throw ipt::Error(e.kind(), "trace file '" + path.string() + "': " + e.what());
  } catch (const std::exception& e) {
    IPT_FAIL(ValueError, "trace file '", path.string(), "': malformed Inside PyTorch trace: ", e.what());
  }
}

}  // namespace ipt::trace
