// Format version 1 (the previous format, still read): missing keys and wrong types in every
// field of every payload type give a clear ipt::Error naming the event and the field.
#include <gtest/gtest.h>

#include "core/trace/trace_json.h"
#include "core/util/error.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::trace {
namespace {

using testing::error_of;

using nlohmann::json;

std::string valid_text() { return to_json_text_v1(testing::sample_events(), {"title", "src", {{"k", "v"}}}); }

json valid_doc() { return json::parse(valid_text()); }

TEST(ReadErrorsV1, TheFormerFormatStillLoads) {
  const auto events = testing::sample_events();
  testing::expect_same_events(events, read_trace_json(valid_text()).events);
}

// Fields where any integer (even -1) is valid.
bool signed_field(const std::string& key) {
  for (const char* k : {"ts_ns", "storage_nbytes", "nbytes", "storage_offset", "line", "col"})
    if (key == k) return true;
  return false;
}

// Every field of every event (and of every payload) removed, or given a value of a wrong
// type, gives an error naming that event and field.
TEST(ReadErrorsV1, EveryFieldMissingOrOfWrongType) {
  const json doc = valid_doc();
  const json& events = doc["insidePyTorch"]["events"];
  const std::vector<json> wrong = {json("text"),   json(3.5),     json(-1),  json::array(),
                                   json::object(), json(nullptr), json(true)};
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
      // A field a later version added may be missing (version 7: engine_step's action,
      // compile_artifact's compile id numbers).
      const bool added_later =
          key == "action" || (payload["type"] == "compile_artifact" && (key == "frame_id" || key == "compile_index"));
      if (!added_later) try_edit("payload." + key, [&](json& ev) { ev["payload"].erase(key); });
      for (const json& w : wrong) {
        if (w.type() == value.type()) continue;
        if (key == "chosen" && w.is_object()) continue;  // checked below
        // A node's seq (-1 for AccumulateGrad), deps (-1: not counted) and deps_left are signed,
        // and so are the device payloads' numbers (stream -1: the device; event -1: none).
        // torch.compile's numbers are signed too (-1: no compile id, no tree line).
        if (w.is_number_integer() && (signed_field(key) || key == "seq" || key == "deps" || key == "deps_left" ||
                                      key == "frame_id" || key == "compile_index" || key == "graph" ||
                                      key == "tree_line" || key == "check_ns" || key == "entries" || key == "resets"))
          continue;
        if (w.is_number() &&
            (key == "device" || key == "stream" || key == "event" || key == "bytes" || key == "flops" ||
             key == "size" || key == "allocated" || key == "reserved") &&
            (w.is_number_integer() || key == "flops"))
          continue;
        try_edit("payload." + key, [&](json& ev) { ev["payload"][key] = w; });
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(ReadErrorsV1, BadValuesInsideFields) {
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
  EXPECT_ERROR_HAS(with(8, "storage_offset", 18446744073709551615ull),
                   "field 'payload.storage_offset' is 18446744073709551615, out of range (a 64-bit signed integer)");
  EXPECT_ERROR_HAS(with(4, "fields", json::array({json::array({"k"})})),
                   "field 'payload.fields[0]' must be a [key, value]");
  EXPECT_ERROR_HAS(with(4, "fields", json::array({json::array({"k", 1})})),
                   "field 'payload.fields[0][1]' must be a string");
  EXPECT_ERROR_HAS(with(0, "line", 5000000000),
                   "field 'payload.line' is 5000000000, out of range (a 32-bit signed integer)");
  EXPECT_ERROR_HAS(with(0, "type", "mystery"), "field 'payload.type' has an unknown payload type \"mystery\"");
  EXPECT_ERROR_HAS(with_event(0, "tid", 5000000000), "event 0: field 'tid' is 5000000000, out of range");
  EXPECT_ERROR_HAS(with_event(0, "phase", "middle"), "event 0: field 'phase' has an unknown value \"middle\"");
  EXPECT_ERROR_HAS(with_event(0, "category", "Dispatch"), "event 0: field 'category' has an unknown value");
  EXPECT_ERROR_HAS(with_event(3, "seq", -1), "event 3: field 'seq' must not be negative");
}

}  // namespace
}  // namespace ipt::trace
