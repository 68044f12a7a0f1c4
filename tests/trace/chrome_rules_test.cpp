// check_chrome_trace_rules: exported traces pass (nested, zero-duration, equal timestamps,
// unbalanced and out-of-order input, slices back to back); hand-made violations are each
// reported, overlaps in microseconds as written as well as in rounded nanoseconds.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "core/trace/chrome_layout.h"
#include "core/trace/trace_json.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::trace {
namespace {

using nlohmann::json;
using testing::make_event;

std::vector<std::string> rules_of(const std::vector<Event>& ev) {
  return check_chrome_trace_rules(json::parse(to_json_text(ev, {})));
}

// Builds a trace from a compact script: "B name ts", "E name ts", "I name ts" on tid.
std::vector<Event> script(std::initializer_list<std::tuple<char, const char*, int64_t, uint32_t>> steps) {
  std::vector<Event> ev;
  for (auto [ph, name, ts, tid] : steps) {
    Phase p = ph == 'B' ? Phase::Begin : ph == 'E' ? Phase::End : Phase::Instant;
    ev.push_back(make_event(ev.size(), ts, tid, p, Category::Dispatch, name));
  }
  return ev;
}

const json* find_x(const json& doc, const std::string& name) {
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "X" && e["name"] == name) return &e;
  return nullptr;
}

int64_t ns(const json& v) { return std::llround(v.get<double>() * 1000.0); }

TEST(ChromeRules, SampleTracePasses) {
  EXPECT_EQ(rules_of(testing::sample_events()), std::vector<std::string>{});
  EXPECT_EQ(check_chrome_trace_rules(to_json(testing::sample_events(), {})), std::vector<std::string>{});
}

TEST(ChromeRules, DeepNestingWithZeroDurationAndEqualTimestamps) {
  auto ev = script({{'B', "a", 5, 0},
                    {'B', "b", 5, 0},
                    {'B', "c", 5, 0},
                    {'E', "c", 5, 0},
                    {'B', "d", 5, 0},
                    {'I', "i", 5, 0},
                    {'E', "d", 5, 0},
                    {'E', "b", 5, 0},
                    {'E', "a", 5, 0},
                    {'B', "e", 5, 0},
                    {'E', "e", 5, 0},
                    {'B', "f", 5, 1},
                    {'E', "f", 9, 1}});
  EXPECT_EQ(rules_of(ev), std::vector<std::string>{});
  json doc = to_json(ev, {});
  for (const char* n : {"a", "b", "c", "d", "e"}) {
    ASSERT_NE(find_x(doc, n), nullptr) << n;
    EXPECT_EQ(ns((*find_x(doc, n))["dur"]), 0) << n;
  }
  EXPECT_EQ(ns((*find_x(doc, "f"))["dur"]), 4);
}

TEST(ChromeRules, OutOfOrderTimestampsAreClampedToNest) {
  // A child that claims to end after its parent, a child that starts before its parent,
  // and a sibling that starts before its previous sibling ended.
  auto ev = script({{'B', "parent", 100, 0},
                    {'B', "early child", 90, 0},
                    {'E', "early child", 150, 0},
                    {'B', "late sibling", 120, 0},
                    {'E', "late sibling", 130, 0},
                    {'E', "parent", 110, 0},
                    {'B', "next", 105, 0},
                    {'E', "next", 104, 0}});
  EXPECT_EQ(rules_of(ev), std::vector<std::string>{});
  json doc = to_json(ev, {});
  const json& parent = *find_x(doc, "parent");
  const json& early = *find_x(doc, "early child");
  const json& sibling = *find_x(doc, "late sibling");
  const json& next = *find_x(doc, "next");
  EXPECT_EQ(ns(parent["ts"]), 100);
  EXPECT_EQ(ns(early["ts"]), 100);
  EXPECT_EQ(ns(early["ts"]) + ns(early["dur"]), 150);
  EXPECT_EQ(ns(sibling["ts"]), 150);
  EXPECT_EQ(ns(parent["ts"]) + ns(parent["dur"]), 150);
  EXPECT_EQ(ns(next["ts"]), 150);
  EXPECT_EQ(ns(next["dur"]), 0);
}

TEST(ChromeRules, UnbalancedBeginsAndEnds) {
  auto ev = script({{'E', "stray end", 1, 0},
                    {'B', "open", 2, 0},
                    {'B', "open child", 3, 0},
                    {'I', "last", 7, 0},
                    {'B', "mismatch", 1, 1},
                    {'E', "other name", 2, 1}});
  EXPECT_EQ(rules_of(ev), std::vector<std::string>{});
  json doc = to_json(ev, {});
  const json& open = *find_x(doc, "open");
  EXPECT_TRUE(open["args"]["unfinished"].get<bool>());
  EXPECT_EQ(ns(open["ts"]) + ns(open["dur"]), 7);  // closed at the thread's last timestamp
  EXPECT_EQ((*find_x(doc, "mismatch"))["args"]["end_name"], "other name");
  bool stray = false;
  for (const json& e : doc["traceEvents"])
    if (e["name"] == "stray end") stray = e["ph"] == "i" && e["args"]["unmatched_end"] == true;
  EXPECT_TRUE(stray);
}

json good_doc() {
  return json::parse(R"({"traceEvents":[
    {"ph":"M","name":"process_name","pid":1,"tid":0,"ts":0,"args":{"name":"p"}},
    {"ph":"M","name":"thread_name","pid":1,"tid":0,"ts":0,"args":{"name":"t0"}},
    {"ph":"X","name":"parent","pid":1,"tid":0,"ts":1.0,"dur":2.0},
    {"ph":"X","name":"child","pid":1,"tid":0,"ts":1.5,"dur":1.5},
    {"ph":"X","name":"zero","pid":1,"tid":0,"ts":3.0,"dur":0},
    {"ph":"i","s":"t","name":"inst","pid":1,"tid":0,"ts":1.2}]})");
}

bool mentions(const std::vector<std::string>& v, const std::string& text) {
  for (const auto& s : v)
    if (s.find(text) != std::string::npos) return true;
  return false;
}

TEST(ChromeRules, HandMadeGoodDocPasses) {
  EXPECT_EQ(check_chrome_trace_rules(good_doc()), std::vector<std::string>{});
}

TEST(ChromeRules, CatchesOverlap) {
  json doc = good_doc();
  doc["traceEvents"][3]["dur"] = 1.6;  // child ends 100 ns after its parent
  auto v = check_chrome_trace_rules(doc);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(mentions(v, "\"child\"")) << v[0];
  EXPECT_TRUE(mentions(v, "overlaps")) << v[0];
  // Same slices on another thread do not interact.
  doc["traceEvents"][3]["tid"] = 2;
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "thread 2 of process 1 has no thread_name"));
  EXPECT_FALSE(mentions(check_chrome_trace_rules(doc), "overlaps"));
}

// The encoding every writer used before Note [Microseconds that never overlap]: ts and dur both
// (ns + 0.25) / 1000. A slice that starts where the previous one ends starts 0.25 ns before
// ts + dur of the previous one; rounded to nanoseconds the two merely touch.
TEST(ChromeRules, CatchesQuarterNanosecondOverlapOfBackToBackSlices) {
  json doc = good_doc();
  doc["traceEvents"].push_back(json::parse(R"({"ph":"X","name":"k1","pid":1,"tid":0,"ts":24.00025,"dur":5.00025})"));
  doc["traceEvents"].push_back(json::parse(R"({"ph":"X","name":"k2","pid":1,"tid":0,"ts":29.00025,"dur":1.00025})"));
  auto v = check_chrome_trace_rules(doc);
  ASSERT_EQ(v.size(), 1u) << (v.empty() ? "" : v[0]);
  EXPECT_EQ(v[0],
            "traceEvents[7] \"k2\" [29.00025, 30.000500000000002] us overlaps traceEvents[6] \"k1\" "
            "[24.00025, 29.000500000000002] us on pid 1 tid 0 without nesting inside it (in microseconds as written)");
  // As a file read in pieces, the same.
  EXPECT_EQ(check_chrome_trace_rules_text(doc.dump(), {}), v);
  // The same times written the way the exporter writes them now: back to back, no overlap.
  doc["traceEvents"][6]["ts"] = chrome_ts_us(24000);
  doc["traceEvents"][6]["dur"] = chrome_dur_us(24000, 29000);
  doc["traceEvents"][7]["ts"] = chrome_ts_us(29000);
  doc["traceEvents"][7]["dur"] = chrome_dur_us(29000, 30000);
  EXPECT_EQ(check_chrome_trace_rules(doc), std::vector<std::string>{});
}

// A partial overlap found only in nanoseconds: each of ts and dur rounds up, so the rounded end
// passes the next slice's rounded start although ts + dur does not pass its ts.
TEST(ChromeRules, CatchesOverlapInRoundedNanoseconds) {
  json doc = good_doc();
  doc["traceEvents"].push_back(json::parse(R"({"ph":"X","name":"a","pid":1,"tid":0,"ts":10.0006,"dur":1.0006})"));
  doc["traceEvents"].push_back(json::parse(R"({"ph":"X","name":"b","pid":1,"tid":0,"ts":11.0013,"dur":1})"));
  auto v = check_chrome_trace_rules(doc);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(mentions(v, "[11001, 12001] ns overlaps traceEvents[6] \"a\" [10001, 11002] ns")) << v[0];
  EXPECT_TRUE(mentions(v, "(in nanoseconds rounded from them)")) << v[0];
}

// Slices back to back on one track, over times from nanoseconds to a day, with children that
// end with their parents and zero-length slices: the export passes the rules, ts + dur never
// passes the next ts, and both kinds of reader get the nanoseconds they expect.
TEST(ChromeRules, BackToBackSlicesNeverOverlapInMicroseconds) {
  std::mt19937_64 rng(5);
  std::vector<Event> ev;
  int64_t t = 0;
  for (int i = 0; i < 4000; ++i) {
    const int64_t len = i % 7 == 0 ? 0 : static_cast<int64_t>(rng() % (i % 3 == 0 ? 40000 : 7)) + 1;
    const uint32_t tid = i % 2;
    ev.push_back(testing::make_event(ev.size(), t, tid, Phase::Begin, Category::Dispatch, "parent"));
    ev.push_back(testing::make_event(ev.size(), t, tid, Phase::Begin, Category::Dispatch, "child"));
    ev.push_back(testing::make_event(ev.size(), t + len, tid, Phase::End, Category::Dispatch, "child"));
    ev.push_back(testing::make_event(ev.size(), t + len, tid, Phase::End, Category::Dispatch, "parent"));
    t += len + (i % 500 == 0 ? static_cast<int64_t>(rng() % 20'000'000'000'000) : 0);  // jumps, up to 5.5 hours
  }
  const json doc = json::parse(to_json_text(ev, {}));
  EXPECT_EQ(check_chrome_trace_rules(doc), std::vector<std::string>{});
  std::map<int64_t, std::vector<const json*>> by_tid;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "X") by_tid[e["tid"].get<int64_t>()].push_back(&e);
  size_t pairs = 0;
  for (auto& [tid, xs] : by_tid)
    for (size_t i = 0; i + 2 < xs.size(); i += 2) {
      const json &parent = *xs[i], &child = *xs[i + 1], &next = *xs[i + 2];
      const double parent_end = parent["ts"].get<double>() + parent["dur"].get<double>();
      const double child_end = child["ts"].get<double>() + child["dur"].get<double>();
      EXPECT_EQ(child_end, parent_end) << child.dump();  // equal ends stay equal
      EXPECT_LE(parent_end, next["ts"].get<double>()) << parent.dump() << " " << next.dump();
      ++pairs;
    }
  EXPECT_GT(pairs, 3900u);
}

// The conversion itself: ts, dur and ts + dur as readers that round and truncate see them.
TEST(ChromeRules, MicrosecondsReadBackAsNanoseconds) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const int64_t start = static_cast<int64_t>(rng() % (int64_t(1) << (10 + i % 37)));  // up to 1.5 days
    const int64_t len = i % 5 == 0 ? 0 : static_cast<int64_t>(rng() % (int64_t(1) << (i % 31)));
    const double ts = chrome_ts_us(start), dur = chrome_dur_us(start, start + len);
    ASSERT_EQ(std::llround(ts * 1000.0), start) << start;
    ASSERT_EQ(static_cast<int64_t>(ts * 1000.0), start) << start;
    ASSERT_EQ(std::llround(dur * 1000.0), len) << start << " " << len;
    ASSERT_EQ(static_cast<int64_t>(dur * 1000.0), len == 0 ? 0 : len - 1) << start << " " << len;
    ASSERT_EQ(std::llround((ts + dur) * 1000.0), start + len) << start << " " << len;
    ASSERT_EQ(static_cast<int64_t>((ts + dur) * 1000.0), start + len) << start << " " << len;
    if (len > 0) {
      ASSERT_LT(ts + dur, chrome_ts_us(start + len)) << start << " " << len;
      // Every slice that ends on this nanosecond lands on the same double.
      const int64_t other = start + len - 1 - static_cast<int64_t>(rng() % static_cast<uint64_t>(len));
      ASSERT_EQ(chrome_ts_us(other) + chrome_dur_us(other, start + len), ts + dur) << other << " " << start + len;
    }
  }
}

TEST(ChromeRules, CatchesMissingFieldsAndNegativeDur) {
  for (const char* key : {"ph", "ts", "pid", "tid", "name"}) {
    json doc = good_doc();
    doc["traceEvents"][2].erase(key);
    EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), std::string("\"") + key + "\"")) << key;
  }
  json doc = good_doc();
  doc["traceEvents"][2].erase("dur");
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "without a numeric \"dur\""));
  doc = good_doc();
  doc["traceEvents"][4]["dur"] = -0.001;
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "negative dur"));
  doc = good_doc();
  doc["traceEvents"][2]["ts"] = "1.0";
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "no numeric \"ts\""));
  doc = good_doc();
  doc["traceEvents"][5]["s"] = "x";
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "instant scope"));
  doc = good_doc();
  doc["traceEvents"].push_back(42);
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "is not an object"));
}

// pid and tid are 64-bit signed integers; a value outside is named, never wrapped.
TEST(ChromeRules, IdsAndTimesOutOfRange) {
  json doc = good_doc();
  doc["traceEvents"][2]["pid"] = 18446744073709551615ull;
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "\"pid\" 18446744073709551615, which is not an integer"));
  doc = good_doc();
  doc["traceEvents"][2]["tid"] = 1.5;
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "\"tid\" 1.5, which is not an integer"));
  doc = good_doc();
  doc["traceEvents"][2]["ts"] = 1e300;
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "\"ts\" 1e+300, out of range"));
  doc = good_doc();
  doc["traceEvents"][4]["dur"] = 1e300;
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "\"dur\" 1e+300, out of range"));
}

TEST(ChromeRules, CatchesMissingNames) {
  json doc = good_doc();
  doc["traceEvents"].erase(0);
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "process 1 has no process_name"));
  doc = good_doc();
  doc["traceEvents"].erase(1);
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "thread 0 of process 1 has no thread_name"));
  doc = good_doc();
  doc["traceEvents"][1]["args"] = json::object();
  EXPECT_TRUE(mentions(check_chrome_trace_rules(doc), "no string args.name"));
}

TEST(ChromeRules, CatchesBadTopLevel) {
  EXPECT_TRUE(mentions(check_chrome_trace_rules(json::array()), "not a JSON object"));
  EXPECT_TRUE(mentions(check_chrome_trace_rules(json::object()), "traceEvents is missing"));
  EXPECT_TRUE(mentions(check_chrome_trace_rules(json{{"traceEvents", 3}}), "not an array"));
  EXPECT_TRUE(mentions(check_chrome_trace_rules(json{{"traceEvents", json::array()}, {"displayTimeUnit", "us"}}),
                       "displayTimeUnit"));
  EXPECT_EQ(check_chrome_trace_rules(json{{"traceEvents", json::array()}}), std::vector<std::string>{});
}

}  // namespace
}  // namespace ipt::trace
