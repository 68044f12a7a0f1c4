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

using testing::error_of;

using nlohmann::json;

std::string valid_text() { return to_json_text(testing::sample_events(), {"title", "src", {{"k", "v"}}}); }

TEST(ReadErrors, EmptyAndWhitespace) {
  EXPECT_ERROR_HAS("", "the trace file is empty");
  EXPECT_ERROR_HAS(" \n\t ", "the trace file is empty");
}

TEST(ReadErrors, NotJsonSaysWhere) {
  EXPECT_ERROR_HAS("hello", "not valid JSON: at byte 0: 'hello' is not a JSON value");
  EXPECT_ERROR_HAS("{\"insidePyTorch\": nope}", "not valid JSON: at byte 18: 'nope' is not a JSON value");
  EXPECT_ERROR_HAS("{\"a\": 1x}", "not valid JSON: at byte 6: '1x' is not a JSON value");
  EXPECT_ERROR_HAS("{\"a\": 1 2}", "not valid JSON: at byte 8: expected ',' or '}' in the top-level object, found '2'");
  EXPECT_ERROR_HAS("{} trailing", "not valid JSON: at byte 3: unexpected text after the JSON document");
}

// A number no double holds: the element and its byte offset, not only the library's words.
TEST(ReadErrors, NumbersOutOfRangeSayWhere) {
  std::string text = valid_text();
  const size_t records = text.find("\"events\":[", text.find("\"insidePyTorch\"")) + 11;
  const size_t first = text.find('[', records);  // event 0's record: [dt_ns, tid, ...]
  const size_t ts = first + 1;
  text.replace(ts, text.find(',', ts) - ts, "1e400");
  EXPECT_ERROR_HAS(text, "at byte " + std::to_string(first) + ": element 0 in insidePyTorch.events:");
  std::string meta = valid_text();
  const size_t title = meta.find("\"meta\":{") + 7;
  meta.insert(meta.find("\"fields\"", title), "\"x\":-1e999,");
  EXPECT_ERROR_HAS(meta, "at byte " + std::to_string(title) + ": in insidePyTorch.meta:");
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
  EXPECT_ERROR_HAS(deep + std::string(200000, ']'), "not valid JSON: at byte 64: values nested deeper than 64 levels");
}

TEST(ReadErrors, NotAnInsidePyTorchTrace) {
  EXPECT_ERROR_HAS("[]", "not an Inside PyTorch trace: the top level is an array, not an object");
  EXPECT_ERROR_HAS(
      "{\"traceEvents\": []}",
      "not an Inside PyTorch trace: no \"insidePyTorch\" key (a plain Chrome trace has no events to load)");
  EXPECT_ERROR_HAS("{\"insidePyTorch\": 3}",
                   "not an Inside PyTorch trace: \"insidePyTorch\" is a number, not an object");
  EXPECT_ERROR_HAS("{\"insidePyTorch\": {\"format\": \"other\", \"version\": 1}}", "not an Inside PyTorch trace");
}

json valid_doc() { return json::parse(valid_text()); }

TEST(ReadErrors, Versions) {
  json doc = valid_doc();
  doc["insidePyTorch"]["version"] = 8;
  EXPECT_ERROR_HAS(doc.dump(), "trace format version 8 is newer than this program supports (7); update Inside PyTorch");
  doc["insidePyTorch"]["version"] = 0;
  EXPECT_ERROR_HAS(doc.dump(), "format version 0 does not exist");
  doc["insidePyTorch"]["version"] = "1";
  EXPECT_ERROR_HAS(doc.dump(), "insidePyTorch.version must be an integer, got a string");
  doc["insidePyTorch"]["version"] = 1.5;
  EXPECT_ERROR_HAS(doc.dump(), "must be an integer, got a floating-point number");
  doc["insidePyTorch"].erase("version");
  EXPECT_ERROR_HAS(doc.dump(), "insidePyTorch has no \"version\"");
  // A version 2 payload marked version 1 is read as version 1, which says what it misses.
  doc = valid_doc();
  doc["insidePyTorch"]["version"] = 1;
  EXPECT_ERROR_HAS(doc.dump(), "event 0 must be an object, got array");
}

TEST(ReadErrors, MissingTopLevelKeys) {
  for (const char* key : {"meta", "strings", "events"}) {
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
  EXPECT_ERROR_HAS(doc.dump(), "meta.fields.k must be a string, got an integer");
  doc = valid_doc();
  doc["insidePyTorch"]["events"] = json::object();
  EXPECT_ERROR_HAS(doc.dump(), "expected '[' in insidePyTorch.events, found '{'");
  doc = valid_doc();
  doc["insidePyTorch"]["events"][2] = "x";
  EXPECT_ERROR_HAS(doc.dump(), "event 2: the record must be an array, got a string");
  doc = valid_doc();
  doc["insidePyTorch"]["strings"][3] = 4;
  EXPECT_ERROR_HAS(doc.dump(), "string 3 of the table must be a string, got an integer");
}

// Every item of every record (and of every payload) removed, or given a value of a wrong type,
// gives an error naming that event and item.
TEST(ReadErrors, EveryItemMissingOrOfWrongType) {
  const json doc = valid_doc();
  const json& events = doc["insidePyTorch"]["events"];
  const std::vector<json> wrong = {json("text"),   json(3.5),     json(-1),   json::array(),
                                   json::object(), json(nullptr), json(true), json(uint64_t(1) << 40)};
  int checked = 0;
  auto expect_error = [&](const json& d, size_t i, const std::string& what) {
    std::string msg = error_of(d.dump());
    std::string expect = "event " + std::to_string(i) + ": " + what;
    EXPECT_NE(msg.find(expect), std::string::npos) << "expected '" << expect << "' in '" << msg << "'";
    ++checked;
  };
  for (size_t i = 0; i < events.size(); ++i) {
    const json& record = events[i];
    for (size_t k = 0; k < 5; ++k) {
      json d = doc;
      d["insidePyTorch"]["events"][i].erase(d["insidePyTorch"]["events"][i].begin() + static_cast<long>(k),
                                            d["insidePyTorch"]["events"][i].end());
      expect_error(d, i, "the record item " + std::to_string(k));
      for (const json& w : wrong) {
        if (k == 0 && w.is_number_integer()) continue;  // any step in time is fine
        json e = doc;
        e["insidePyTorch"]["events"][i][k] = w;
        expect_error(e, i, "the record item " + std::to_string(k));
      }
    }
    if (record.size() < 6) continue;
    const json& payload = record[5];
    const int type = payload[0];
    for (size_t k = 1; k < payload.size(); ++k) {
      for (const json& w : wrong) {
        if (w.is_number_integer() && payload[k].is_number_integer() && w.get<int64_t>() == -1) continue;
        if (type == 1 && k == 14 && w.is_array()) continue;  // an empty list of values is fine
        if ((type == 1 && (k == 6 || k == 7)) && w.is_array()) continue;
        if (type == 0 && k == 3 && w.is_array()) continue;
        if (type == 11 && k == 6 && w.is_number()) continue;  // flops: any number, "0" included
        json e = doc;
        e["insidePyTorch"]["events"][i][5][k] = w;
        const std::string msg = error_of(e.dump());
        if (msg.empty()) {  // a wrong value of the right type (an id, a count) is checked below
          EXPECT_TRUE(w.is_number_integer() || w.is_boolean() || w.type() == payload[k].type())
              << "event " << i << " payload item " << k << " = " << w;
          continue;
        }
        EXPECT_NE(msg.find("event " + std::to_string(i) + ": "), std::string::npos) << msg;
        ++checked;
      }
    }
    json short_payload = doc;
    short_payload["insidePyTorch"]["events"][i][5].erase(short_payload["insidePyTorch"]["events"][i][5].end() - 1);
    if (type != 5) expect_error(short_payload, i, "the payload has");
  }
  EXPECT_GT(checked, 300);
}

TEST(ReadErrors, BadValuesInsideItems) {
  json doc = valid_doc();
  const json& strings = doc["insidePyTorch"]["strings"];
  auto id_of = [&](const std::string& s) {
    for (size_t i = 0; i < strings.size(); ++i)
      if (strings[i] == s) return static_cast<int>(i);
    return -1;
  };
  auto with = [&](size_t i, size_t k, json v) {
    json d = doc;
    d["insidePyTorch"]["events"][i][5][k] = std::move(v);
    return d.dump();
  };
  auto with_item = [&](size_t i, size_t k, json v) {
    json d = doc;
    d["insidePyTorch"]["events"][i][k] = std::move(v);
    return d.dump();
  };
  const int kernel = id_of("VariableType::add_Tensor");
  ASSERT_GE(kernel, 0);
  EXPECT_ERROR_HAS(with(1, 4, kernel),
                   "event 1: the payload item 4 (tls_included) must name a key set like \"0x1c00001\"");
  EXPECT_ERROR_HAS(with(1, 4, 100000),
                   "event 1: the payload item 4 (tls_included) is string 100000, but the table has");
  EXPECT_ERROR_HAS(with(1, 3, json::array({kernel})), "arg_key_sets item 0 (arg_key_sets) must name a key set");
  EXPECT_ERROR_HAS(with(1, 8, kernel),
                   "the payload item 8 (chosen) is not a dispatch key name: \"VariableType::add_Tensor\"");
  EXPECT_ERROR_HAS(with(1, 8, json::array({kernel, kernel, kernel})),
                   "the payload item 8 (chosen) has an unknown functionality \"VariableType::add_Tensor\"");
  EXPECT_ERROR_HAS(with(1, 8, json::array({kernel})), "(chosen) must be a key name or [functionality, backend, alias]");
  EXPECT_ERROR_HAS(with(1, 2, 2), "the payload item 2 (redispatch) is 2, out of range (0 or 1)");
  EXPECT_ERROR_HAS(with(8, 6, json::array({2, "3"})),
                   "event 8: the payload item 6 (sizes) must hold integers, got a string");
  EXPECT_ERROR_HAS(with(8, 12, json::array({1, "NaN?"})),
                   "event 8: the payload item 12 (storage_values) must be an integer");
  EXPECT_ERROR_HAS(with(8, 12, 1), "(storage_values) is value list 1, but the table has 1");
  json values = doc;
  values["insidePyTorch"]["values"][0] = json::array({1, "NaN?"});
  EXPECT_ERROR_HAS(values.dump(), "value list 0 holds the string \"NaN?\" (only \"nan\", \"inf\", \"-inf\")");
  values["insidePyTorch"]["values"][0] = "1, 2";
  EXPECT_ERROR_HAS(values.dump(), "value list 0 must be an array, got a string");
  values["insidePyTorch"].erase("values");
  EXPECT_ERROR_HAS(values.dump(), "insidePyTorch has no \"values\"");
  EXPECT_ERROR_HAS(with(8, 1, -3), "the payload item 1 (tensor_id) must not be negative");
  EXPECT_ERROR_HAS(with(8, 8, 18446744073709551615ull), "(storage_offset) is out of range (a 64-bit signed integer)");
  EXPECT_ERROR_HAS(with(4, 2, "blocked"), "event 4: the payload item 2 (value) must be an integer, got a string");
  EXPECT_ERROR_HAS(with(0, 1, 5000000000), "(line) is 5000000000, out of range (a 32-bit signed integer)");
  EXPECT_ERROR_HAS(with(0, 0, 21), "event 0: the payload item 0 (type) is 21, out of range (0 to 20)");
  EXPECT_ERROR_HAS(with_item(0, 1, 5000000000), "event 0: the record item 1 (tid) is 5000000000, out of range");
  EXPECT_ERROR_HAS(with_item(0, 2, 3), "event 0: the record item 2 (phase) is 3, out of range (0 to 2)");
  EXPECT_ERROR_HAS(with_item(0, 3, 13), "event 0: the record item 3 (category) is 13, out of range (0 to 12)");
  EXPECT_ERROR_HAS(with_item(3, 0, "soon"), "event 3: the record item 0 (dt_ns) must be an integer, got a string");
  json extra = doc;
  extra["insidePyTorch"]["events"][0].push_back(1);
  EXPECT_ERROR_HAS(extra.dump(), "event 0: the record has 7 items, at most 6");
  json seqs = doc;
  seqs["insidePyTorch"].erase("first_seq");
  seqs["insidePyTorch"]["seqs"] = json::array({0, 1});
  EXPECT_ERROR_HAS(seqs.dump(), "insidePyTorch.seqs has 2 entries for 43 events");
  seqs["insidePyTorch"]["seqs"] = json::array({-1});
  EXPECT_ERROR_HAS(seqs.dump(), "seq 0 must not be negative");
  seqs["insidePyTorch"]["seqs"] = "all";
  EXPECT_ERROR_HAS(seqs.dump(), "expected '[' in insidePyTorch.seqs");
}

TEST(ReadErrors, HostileShapes) {
  // Deep nesting inside a record, a record with too many items, keys in another order.
  json doc = valid_doc();
  json deep = json::array();
  for (int i = 0; i < 100; ++i) deep = json::array({deep});
  doc["insidePyTorch"]["events"][0][5][1] = deep;
  EXPECT_ERROR_HAS(doc.dump(), "values nested deeper than 64 levels");
  doc = valid_doc();
  doc["insidePyTorch"]["events"][0][5] = json::array();
  for (int i = 0; i < 70; ++i) doc["insidePyTorch"]["events"][0][5].push_back(1);
  EXPECT_ERROR_HAS(doc.dump(), "event 0: the payload has more than 64 items");
  // nlohmann sorts keys: "events" before "strings" and "version" still loads.
  const auto events = testing::sample_events();
  testing::expect_same_events(events, read_trace_json(valid_doc().dump()).events);
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
  doc["insidePyTorch"]["version"] = 8;
  { std::ofstream(dir / "v8.json") << doc.dump(); }
  EXPECT_NE(msg_of(dir / "v8.json").find("trace format version 8 is newer than this program supports (7)"),
            std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ipt::trace
