// Reading large traces: whole-line batches (Note [Batches of whole lines] in json_scan.cpp)
// and the two passes side by side (Note [The two passes of a load run side by side] in
// trace_load.cpp) must give exactly what the careful, one-pass reading gives.
#include <gtest/gtest.h>

#include "core/trace/json_scan.h"
#include "core/trace/trace_json.h"
#include "core/util/error.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::trace {
namespace {

using testing::error_of;

// Enough events for several 1 MB batches of lines.
std::vector<Event> many_events(size_t n) {
  std::vector<Event> ev;
  for (size_t i = 0; i < n; ++i)
    ev.push_back(testing::make_event(i, static_cast<int64_t>(i) * 10, static_cast<uint32_t>(i % 3), Phase::Instant,
                                     Category::Script, "line", ScriptLine{static_cast<int>(i % 50), 0}));
  return ev;
}

const TraceMeta kMeta{"title", "src", {{"k", "v"}}};

// The byte where the record line of event `i` begins.
size_t record_line(const std::string& text, size_t i) {
  size_t at = text.find("\"events\":[\n", text.find("\"insidePyTorch\":"));
  at = text.find('\n', at) + 1;
  for (size_t k = 0; k < i; ++k) at = text.find('\n', at) + 1;
  return at;
}

TEST(LargeRead, WholeLineBatchesGiveEveryEvent) {
  const auto events = many_events(60000);
  const std::string text = to_json_text(events, kMeta);
  ASSERT_GT(text.size(), size_t(4) << 20);
  testing::expect_same_events(events, read_trace_json(text).events);
}

TEST(LargeRead, LineBatchesKeepTheNestingLimit) {
  // An array as the writer lays one out, with one element nested `levels` deep in the middle.
  auto scan = [](int levels) {
    std::string text = "[\n";
    for (int i = 0; i < 100000; ++i)
      text += (i == 50000 ? std::string(levels, '[') + std::string(levels, ']') : std::string("[1,2,3]")) + ",\n";
    text += "[0]\n]";
    JsonScan s(text);
    size_t n = 0;
    s.array_batches("in the test", [&](simdjson::dom::element, size_t i, size_t) { n = i + 1; });
    return n;
  };
  // An element may be 63 levels deep (with the array, 64), as in the careful walk.
  EXPECT_EQ(scan(63), 100001u);
  try {
    scan(64);
    ADD_FAILURE() << "64 levels were accepted";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("values nested deeper than 64 levels in the test"), std::string::npos)
        << e.what();
  }
}

TEST(LargeRead, AMistakeInALineBatchSaysWhere) {
  // A number simdjson refuses (the walk checks strings and brackets only), mid-file.
  const std::string text = to_json_text(many_events(60000), kMeta);
  const size_t at = record_line(text, 40000);
  std::string bad = text;
  bad.insert(at + 1, "0x1,");
  EXPECT_ERROR_HAS(bad, "at byte " + std::to_string(at) + ": element 40000 in insidePyTorch.events: ");
}

// A text over the size at which the passes run side by side, with `extra` (members of an
// args object) in a padding event at the start of traceEvents.
std::string padded(const std::string& text, const std::string& extra) {
  const std::string pad =
      "{\"name\":\"pad\",\"ph\":\"i\",\"ts\":0,\"pid\":0,\"tid\":0,\"s\":\"t\",\"args\":{\"pad\":\"" +
      std::string(size_t(17) << 20, 'x') + "\"" + extra + "}},";
  const size_t at = text.find("\"traceEvents\":[\n") + std::string("\"traceEvents\":[\n").size();
  return text.substr(0, at) + pad + "\n" + text.substr(at);
}

TEST(LargeRead, SideBySideLoadIsTheSame) {
  const auto events = many_events(2000);
  const std::string text = padded(to_json_text(events, kMeta), "");
  testing::expect_same_events(events, read_trace_json(text).events);
}

TEST(LargeRead, AFakeRootInTheChromePartIsNotTrusted) {
  // The writer's "],\n\"insidePyTorch\":" inside an event's args: the walk finds the real key.
  const auto events = many_events(2000);
  const std::string text =
      padded(to_json_text(events, kMeta), ",\"fake\":[0\n],\n\"insidePyTorch\":{\"format\":\"something else\"}");
  testing::expect_same_events(events, read_trace_json(text).events);
}

TEST(LargeRead, AMistakeBeforeTheRecordsIsReportedFirst) {
  const std::string good = to_json_text(many_events(2000), kMeta);
  EXPECT_ERROR_HAS(padded(good, ",\"bad\":[1}"), "'}' closes an array in traceEvents");
  // And a mistake in the records is still found when the Chrome part is fine.
  std::string bad = padded(good, "");
  bad.insert(record_line(bad, 1000) + 1, "0x1,");
  EXPECT_ERROR_HAS(bad, ": element 1000 in insidePyTorch.events: ");
}

}  // namespace
}  // namespace ipt::trace
