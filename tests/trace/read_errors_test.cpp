// Malformed trace files: every one gives a clear ipt::Error (what and where) and nothing
// crashes — truncations at every byte, empty files, random bytes, byte flips, wrong
// versions, missing keys and wrong types in every field of every payload type.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "core/trace/trace_json.h"
#include "core/util/error.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::trace {
namespace {

using nlohmann::json;

// The error message of reading `text`, or "" when it loads.
std::string error_of(std::string_view text) {
  try {
    read_trace_json(text);
    return "";
  } catch (const ipt::Error& e) {
    return e.what();
  }
}

std::string valid_text() { return to_json_text(testing::sample_events(), {"title", "src", {{"k", "v"}}}); }

#define EXPECT_ERROR_HAS(text, fragment)                                                   \
  do {                                                                                     \
    std::string msg_ = error_of(text);                                                     \
    EXPECT_NE(msg_.find(fragment), std::string::npos) << "message: '" << msg_ << "'";     \
  } while (0)

TEST(ReadErrors, EmptyAndWhitespace) {
  EXPECT_ERROR_HAS("", "the trace file is empty");
  EXPECT_ERROR_HAS(" \n\t ", "the trace file is empty");
}

TEST(ReadErrors, NotJsonSaysWhere) {
  EXPECT_ERROR_HAS("hello", "not valid JSON: error at byte offset 0");
  EXPECT_ERROR_HAS("{\"insidePyTorch\": nope}", "not valid JSON: error at byte offset 19");
  EXPECT_ERROR_HAS("{\"a\": 1x}", "not valid JSON: error at byte offset 7");
  EXPECT_ERROR_HAS("{} trailing", "not valid JSON");
}

// A number no double holds: the event, the field and the byte offset, not the library's words.
TEST(ReadErrors, NumbersOutOfRangeSayWhere) {
  std::string text = valid_text();
  const size_t at = text.find("\"ts_ns\":", text.find("\"insidePyTorch\""));
  ASSERT_NE(at, std::string::npos);
  const size_t value = at + std::string("\"ts_ns\":").size();
  const size_t end = text.find_first_of(",}", value);
  text.replace(value, end - value, "1e400");
  EXPECT_ERROR_HAS(text, "event 0: field 'ts_ns' at byte offset " + std::to_string(value) +
                             ": number overflow parsing '1e400'");
  EXPECT_ERROR_HAS("{\"a\": [1, {\"b\": -1e999}]}", "'a[1].b' at byte offset 16: number overflow");
}

TEST(ReadErrors, TruncatedAtEveryByte) {
  const std::string text = valid_text();
  for (size_t n = 1; n + 2 < text.size(); ++n) {  // the last 2 bytes are "}\n": n = size-2 is complete
    std::string msg = error_of(std::string_view(text).substr(0, n));
    ASSERT_FALSE(msg.empty()) << "prefix of " << n << " bytes loaded";
    if (text.find_first_not_of(" \n", n) != std::string::npos && msg.find("truncated") == std::string::npos)
      ADD_FAILURE() << "prefix " << n << ": " << msg;
  }
  EXPECT_ERROR_HAS(text.substr(0, 100), "the trace file is truncated: the JSON ends unexpectedly at byte 100");
}

TEST(ReadErrors, RandomBytesAndByteFlipsNeverCrash) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 300; ++i) {
    std::string junk(rng() % 200, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    std::string msg = error_of(junk);
    EXPECT_FALSE(msg.empty());
  }
  const std::string text = valid_text();
  int loaded = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string t = text;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k) t[rng() % t.size()] = static_cast<char>(rng());
    if (error_of(t).empty()) ++loaded;  // a flip inside Chrome-only parts may still load
  }
  SUCCEED() << loaded << " mutated files still loaded";
}

TEST(ReadErrors, DeepNestingDoesNotOverflowTheStack) {
  std::string deep(200000, '[');
  EXPECT_FALSE(error_of(deep).empty());
  EXPECT_ERROR_HAS(deep + std::string(200000, ']'), "not an Inside PyTorch trace");
}

TEST(ReadErrors, NotAnInsidePyTorchTrace) {
  EXPECT_ERROR_HAS("[]", "not an Inside PyTorch trace: the top level is array");
  EXPECT_ERROR_HAS("{\"traceEvents\": []}", "not an Inside PyTorch trace: no \"insidePyTorch\" key");
  EXPECT_ERROR_HAS("{\"insidePyTorch\": 3}", "not an Inside PyTorch trace");
  EXPECT_ERROR_HAS("{\"insidePyTorch\": {\"format\": \"other\", \"version\": 1}}", "not an Inside PyTorch trace");
}

json valid_doc() { return json::parse(valid_text()); }

TEST(ReadErrors, Versions) {
  json doc = valid_doc();
  doc["insidePyTorch"]["version"] = 7;
  EXPECT_ERROR_HAS(doc.dump(),
                   "trace format version 7 is newer than this program supports (1); update Inside PyTorch");
  doc["insidePyTorch"]["version"] = 0;
  EXPECT_ERROR_HAS(doc.dump(), "format version 0 does not exist");
  doc["insidePyTorch"]["version"] = "1";
  EXPECT_ERROR_HAS(doc.dump(), "insidePyTorch.version must be an integer, got string");
  doc["insidePyTorch"]["version"] = 1.5;
  EXPECT_ERROR_HAS(doc.dump(), "must be an integer, got a floating-point number");
  doc["insidePyTorch"].erase("version");
  EXPECT_ERROR_HAS(doc.dump(), "insidePyTorch has no \"version\"");
}

TEST(ReadErrors, MissingTopLevelKeys) {
  for (const char* key : {"meta", "events"}) {
    json doc = valid_doc();
    doc["insidePyTorch"].erase(key);
    EXPECT_ERROR_HAS(doc.dump(), std::string("insidePyTorch has no \"") + key + "\"");
  }
  for (const char* key : {"title", "source", "fields"}) {
    json doc = valid_doc();
    doc["insidePyTorch"]["meta"].erase(key);
    EXPECT_ERROR_HAS(doc.dump(), std::string("meta has no \"") + key + "\"");
  }
  json doc = valid_doc();
  doc["insidePyTorch"]["meta"]["fields"]["k"] = 1;
  EXPECT_ERROR_HAS(doc.dump(), "meta.fields.k must be a string, got number");
  doc = valid_doc();
  doc["insidePyTorch"]["events"] = json::object();
  EXPECT_ERROR_HAS(doc.dump(), "insidePyTorch.events must be an array, got object");
  doc = valid_doc();
  doc["insidePyTorch"]["events"][2] = "x";
  EXPECT_ERROR_HAS(doc.dump(), "event 2 must be an object, got string");
}

// Fields where any integer (even -1) is valid.
bool signed_field(const std::string& key) {
  for (const char* k : {"ts_ns", "storage_nbytes", "nbytes", "storage_offset", "line", "col"})
    if (key == k) return true;
  return false;
}

// Every field of every event (and of every payload) removed, or given a value of a wrong
// type, gives an error naming that event and field.
TEST(ReadErrors, EveryFieldMissingOrOfWrongType) {
  const json doc = valid_doc();
  const json& events = doc["insidePyTorch"]["events"];
  const std::vector<json> wrong = {json("text"), json(3.5), json(-1), json::array(), json::object(), json(nullptr),
                                   json(true)};
  int checked = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    auto try_edit = [&](const std::string& field, auto edit) {
      json d = doc;
      json& ev = d["insidePyTorch"]["events"][i];
      edit(ev);
      std::string msg = error_of(d.dump());
      std::string expect = "event " + std::to_string(i) + ": field '" + field + "'";
      EXPECT_NE(msg.find(expect), std::string::npos) << "expected '" << expect << "' in '" << msg << "'";
      ++checked;
    };
    for (const auto& item : events[i].items()) {
      const std::string key = item.key();  // a named copy: lambdas below capture it
      const json& value = item.value();
      try_edit(key, [&](json& ev) { ev.erase(key); });
      for (const json& w : wrong) {
        if (w.type() == value.type() || (w.is_number_integer() && signed_field(key))) continue;
        if (key == "payload" && (w.is_null() || w.is_object())) continue;  // null = no payload; {} lacks "type"
        try_edit(key, [&](json& ev) { ev[key] = w; });
      }
    }
    const json& payload = events[i]["payload"];
    if (!payload.is_object()) continue;
    for (const auto& item : payload.items()) {
      const std::string key = item.key();
      const json& value = item.value();
      try_edit("payload." + key, [&](json& ev) { ev["payload"].erase(key); });
      for (const json& w : wrong) {
        if (w.type() == value.type()) continue;
        if (key == "chosen" && w.is_object()) continue;  // checked below
        if (w.is_number_integer() && signed_field(key)) continue;
        try_edit("payload." + key, [&](json& ev) { ev["payload"][key] = w; });
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(ReadErrors, BadValuesInsideFields) {
  json doc = valid_doc();
  auto with = [&](size_t i, const std::string& key, json v) {
    json d = doc;
    d["insidePyTorch"]["events"][i]["payload"][key] = std::move(v);
    return d.dump();
  };
  auto with_event = [&](size_t i, const std::string& key, json v) {
    json d = doc;
    d["insidePyTorch"]["events"][i][key] = std::move(v);
    return d.dump();
  };
  EXPECT_ERROR_HAS(with(1, "tls_included", "12"), "event 1: field 'payload.tls_included' must be a key set");
  EXPECT_ERROR_HAS(with(1, "tls_included", "0xZZ"), "must be a key set");
  EXPECT_ERROR_HAS(with(1, "tls_included", "0x10000000000000000"), "must be a key set");
  EXPECT_ERROR_HAS(with(1, "arg_key_sets", json::array({"0x1", 5})), "field 'payload.arg_key_sets[1]'");
  EXPECT_ERROR_HAS(with(1, "chosen", "NotAKey"), "field 'payload.chosen' is not a dispatch key name: \"NotAKey\"");
  EXPECT_ERROR_HAS(with(1, "chosen", json{{"functionality", "Dense"}, {"backend", "Mars"}, {"alias", "Undefined"}}),
                   "field 'payload.chosen.backend' has an unknown value \"Mars\"");
  EXPECT_ERROR_HAS(with(1, "chosen", json{{"functionality", "Dense"}}), "field 'payload.chosen.backend' is missing");
  EXPECT_ERROR_HAS(with(8, "sizes", json::array({2, "3"})), "event 8: field 'payload.sizes[1]' must be an integer");
  EXPECT_ERROR_HAS(with(8, "storage_values", json::array({1, "NaN?"})), "field 'payload.storage_values[1]'");
  EXPECT_ERROR_HAS(with(8, "tensor_id", -3), "field 'payload.tensor_id' must not be negative");
  EXPECT_ERROR_HAS(with(8, "storage_offset", 18446744073709551615ull), "field 'payload.storage_offset' is 18446744073709551615, out of range (a 64-bit signed integer)");
  EXPECT_ERROR_HAS(with(4, "fields", json::array({json::array({"k"})})), "field 'payload.fields[0]' must be a [key, value]");
  EXPECT_ERROR_HAS(with(4, "fields", json::array({json::array({"k", 1})})), "field 'payload.fields[0][1]' must be a string");
  EXPECT_ERROR_HAS(with(0, "line", 5000000000), "field 'payload.line' is 5000000000, out of range (a 32-bit signed integer)");
  EXPECT_ERROR_HAS(with(0, "type", "mystery"), "field 'payload.type' has an unknown payload type \"mystery\"");
  EXPECT_ERROR_HAS(with_event(0, "tid", 5000000000), "event 0: field 'tid' is 5000000000, out of range");
  EXPECT_ERROR_HAS(with_event(0, "phase", "middle"), "event 0: field 'phase' has an unknown value \"middle\"");
  EXPECT_ERROR_HAS(with_event(0, "category", "Dispatch"), "event 0: field 'category' has an unknown value");
  EXPECT_ERROR_HAS(with_event(3, "seq", -1), "event 3: field 'seq' must not be negative");
}

TEST(ReadErrors, FilesOnDisk) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("ipt_trace_read_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto msg_of = [](const fs::path& p) {
    try {
      read_trace_file(p);
      return std::string();
    } catch (const ipt::Error& e) {
      return std::string(e.what());
    }
  };
  EXPECT_NE(msg_of(dir / "missing.json").find("cannot open: No such file"), std::string::npos);
  EXPECT_NE(msg_of(dir).find("not a regular file"), std::string::npos);
  EXPECT_NE(msg_of("/dev/zero").find("trace file '/dev/zero': not a regular file"), std::string::npos);
  { std::ofstream(dir / "empty.json"); }
  EXPECT_NE(msg_of(dir / "empty.json").find("empty.json': the trace file is empty"), std::string::npos)
      << msg_of(dir / "empty.json");
  json doc = valid_doc();
  doc["insidePyTorch"]["version"] = 7;
  { std::ofstream(dir / "v7.json") << doc.dump(); }
  EXPECT_NE(msg_of(dir / "v7.json").find("trace format version 7 is newer than this program supports (1)"),
            std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ipt::trace
