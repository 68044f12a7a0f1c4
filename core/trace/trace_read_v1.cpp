// Import of format version 1 (the previous format): the whole document is parsed by nlohmann
// and its "insidePyTorch" payload decoded into Events + TraceMeta, with checked, readable
// errors for every malformed input (never a crash, never a raw json exception). Version 2
// files are read by trace_load.cpp, which hands version 1 documents to this file.
#include <vector>

#include "core/trace/payload_codec.h"
#include "core/trace/trace_json.h"
#include "core/trace/trace_upgrade.h"
#include "core/util/error.h"

namespace ipt::trace {

using nlohmann::json;

namespace {

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string json_detail(const json::exception& e) {
  std::string what = e.what();
  auto pos = what.find("] ");
  return pos == std::string::npos ? what : what.substr(pos + 2);
}

// Where nlohmann refused a document that is well-formed JSON (a number like 1e400 that no
// double holds): the byte offset and the path to the value, found by a second, streaming pass
// that keeps only the path.
class ErrorLocator : public nlohmann::json_sax<json> {
 public:
  size_t byte = 0;
  std::vector<std::string> path;  // "insidePyTorch", "events", "[3]", "ts_ns"

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    frames_.back().key = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception&) override {
    byte = position >= token.size() ? position - token.size() : 0;  // where the value starts
    for (const Frame& f : frames_) path.push_back(f.array ? "[" + std::to_string(f.next) + "]" : f.key);
    return false;
  }

 private:
  struct Frame {
    bool array = false;
    size_t next = 0;  // arrays: index of the element being read
    std::string key;  // objects: the key being read
  };
  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().next;
    return true;
  }
  bool open(bool array) {
    frames_.push_back(Frame{array, 0, ""});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return value();
  }
  std::vector<Frame> frames_;
};

// "event 3: field 'ts_ns'" for an event's field, else the JSON path.
std::string describe_path(const std::vector<std::string>& p) {
  if (p.size() >= 4 && p[0] == "insidePyTorch" && p[1] == "events" && p[2].front() == '[') {
    std::string field = p[3];
    for (size_t i = 4; i < p.size(); ++i) field += (p[i].front() == '[' ? "" : ".") + p[i];
    return "event " + p[2].substr(1, p[2].size() - 2) + ": field '" + field + "'";
  }
  std::string out;
  for (const auto& part : p) out += (out.empty() || part.front() == '[' ? "" : ".") + part;
  return out.empty() ? "the document" : "'" + out + "'";
}

json parse_document(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) IPT_FAIL(ValueError, "the trace file is empty");
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // e.byte counts the bytes read, including the offending one; past the end means the
    // parser ran out of input.
    if (e.byte > text.size())
      IPT_FAIL(ValueError, "the trace file is truncated: the JSON ends unexpectedly at byte ", text.size(), " (",
               json_detail(e), ")");
    IPT_FAIL(ValueError, "the trace file is not valid JSON: error at byte offset ", e.byte - 1, " (", json_detail(e),
             ")");
  } catch (const json::exception& e) {
    ErrorLocator where;
    json::sax_parse(text.begin(), text.end(), &where);
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: ", describe_path(where.path), " at byte offset ", where.byte,
             ": ", json_detail(e));
  }
}

const json& member(const json& obj, const char* key, const char* where) {
  auto it = obj.find(key);
  if (it == obj.end()) IPT_FAIL(ValueError, "malformed Inside PyTorch trace: ", where, " has no \"", key, "\"");
  return *it;
}

const std::string& string_member(const json& obj, const char* key, const char* where) {
  const json& j = member(obj, key, where);
  if (!j.is_string())
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: ", where, ".", key, " must be a string, got ", j.type_name());
  return j.get_ref<const std::string&>();
}

TraceMeta decode_meta(const json& j) {
  if (!j.is_object())
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: meta must be an object, got ", j.type_name());
  TraceMeta meta;
  meta.title = string_member(j, "title", "meta");
  meta.source = string_member(j, "source", "meta");
  const json& fields = member(j, "fields", "meta");
  if (!fields.is_object())
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: meta.fields must be an object, got ", fields.type_name());
  for (const auto& [key, value] : fields.items()) {
    if (!value.is_string())
      IPT_FAIL(ValueError, "malformed Inside PyTorch trace: meta.fields.", key, " must be a string, got ",
               value.type_name());
    meta.fields.emplace(key, value.get<std::string>());
  }
  return meta;
}

LoadedTrace decode_document(const json& doc) {
  if (!doc.is_object())
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: the top level is ", doc.type_name(), ", not an object");
  auto it = doc.find("insidePyTorch");
  if (it == doc.end())
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: no \"insidePyTorch\" key",
             doc.contains("traceEvents") ? " (a plain Chrome trace has no events to load)" : "");
  const json& root = *it;
  if (!root.is_object())
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: \"insidePyTorch\" is ", root.type_name(), ", not an object");
  auto format = root.find("format");
  if (format == root.end() || !format->is_string() || *format != kTraceFormatName)
    IPT_FAIL(ValueError, "not an Inside PyTorch trace: insidePyTorch.format is not \"", kTraceFormatName, "\"");
  const json& version = member(root, "version", "insidePyTorch");
  if (!version.is_number_integer())
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: insidePyTorch.version must be an integer, got ",
             version.is_number_float() ? "a floating-point number" : version.type_name());
  if (version.get<int64_t>() != 1)
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: this reader reads format version 1, not ", version.dump());

  LoadedTrace out;
  out.meta = decode_meta(member(root, "meta", "insidePyTorch"));
  const json& events = member(root, "events", "insidePyTorch");
  if (!events.is_array())
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: insidePyTorch.events must be an array, got ",
             events.type_name());
  out.events.reserve(events.size());
  for (size_t i = 0; i < events.size(); ++i) out.events.push_back(codec::decode_event(events[i], i));
  upgrade_text_payloads(out.events);
  upgrade_named_events(out.events);
  return out;
}

}  // namespace

LoadedTrace read_trace_json_v1(std::string_view text) {
  try {
    return decode_document(parse_document(text));
  } catch (const ipt::Error&) {
    throw;
  } catch (const std::exception& e) {  // defensive: nothing else should escape
    IPT_FAIL(ValueError, "malformed Inside PyTorch trace: ", e.what());
  }
}

}  // namespace ipt::trace
