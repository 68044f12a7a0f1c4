// write -> read gives back identical events (field by field) and meta, for every payload
// type; the exported document's shape (key order, versioned payload, Chrome args).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

#include "core/trace/recorder.h"
#include "core/trace/trace_json.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::trace {
namespace {

using nlohmann::json;
using testing::expect_same_events;
using testing::sample_events;

TraceMeta sample_meta() {
  TraceMeta m;
  m.title = "Lesson 3: what add does";
  m.source = "x = torch.ones(2, 3, requires_grad=True)\ny = x + x\nprint(y)\n";
  m.fields = {{"backend", "cpu"}, {"lesson", "3"}, {"ünïcode", "✓"}};
  return m;
}

std::filesystem::path temp_dir() {
  auto dir = std::filesystem::temp_directory_path() /
             ("ipt_trace_rt_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
              std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(RoundTrip, EveryPayloadTypeThroughAFile) {
  auto events = sample_events();
  auto meta = sample_meta();
  auto path = temp_dir() / "trace.json";
  write_trace_file(path, events, meta);
  LoadedTrace back = read_trace_file(path);
  expect_same_events(events, back.events);
  EXPECT_EQ(back.meta, meta);
  // Loaded strings are interned.
  for (const Event& e : back.events) EXPECT_EQ(e.name, intern(e.name));
  std::filesystem::remove_all(path.parent_path());
}

TEST(RoundTrip, ThroughTextAndThroughToJson) {
  auto events = sample_events();
  auto meta = sample_meta();
  expect_same_events(events, read_trace_json(to_json_text(events, meta)).events);
  expect_same_events(events, read_trace_json(to_json(events, meta).dump()).events);
  EXPECT_EQ(read_trace_json(to_json(events, meta).dump(2)).meta, meta);
}

// A backward over hundreds of nodes is one "autograd graph" event: it is read back whole
// (a record of key/value fields could hold only 31 nodes).
TEST(RoundTrip, AGraphOfManyNodes) {
  GraphNodes g;
  for (uint64_t id = 1; id <= 500; ++id) {
    GraphNode n;
    n.node = id;
    n.name = "MulBackward0";
    n.seq = static_cast<int64_t>(1000 - id);
    if (id < 500) n.next = {NextEdge{true, id + 1, 0}, NextEdge{}};
    n.deps = id == 1 ? 0 : 1;
    g.nodes.push_back(std::move(n));
  }
  std::vector<Event> events = {testing::make_event(0, 5, 0, Phase::Instant, Category::Autograd, "autograd graph", g)};
  expect_same_events(events, read_trace_json(to_json_text(events, {})).events);
  expect_same_events(events, read_trace_json(to_json_text_v1(events, {})).events);
}

// A tensor snapshotted again with the same values shares one list of the "values" table;
// values that differ only in sign or NaN bits do not.
TEST(RoundTrip, RepeatedStoragePreviewsAreStoredOnce) {
  TensorMeta t;
  t.storage_values = {1.5, 2.5, 0.0};
  TensorMeta negative_zero = t;
  negative_zero.storage_values[2] = -0.0;
  std::vector<Event> events;
  for (int i = 0; i < 5; ++i)
    events.push_back(
        testing::make_event(static_cast<uint64_t>(i), i, 0, Phase::Instant, Category::Tensor, "tensor", t));
  events.push_back(testing::make_event(5, 5, 0, Phase::Instant, Category::Tensor, "tensor", negative_zero));
  const json doc = json::parse(to_json_text(events, {}));
  EXPECT_EQ(doc["insidePyTorch"]["values"].size(), 2u);
  expect_same_events(events, read_trace_json(doc.dump()).events);
}

TEST(RoundTrip, EmptyTraceAndEmptyMeta) {
  LoadedTrace back = read_trace_json(to_json_text({}, {}));
  EXPECT_TRUE(back.events.empty());
  EXPECT_EQ(back.meta, TraceMeta{});
}

TEST(RoundTrip, RecordedTraceFromSeveralThreads) {
  Recorder r;
  {
    ScopedTrace on(r);
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
      threads.emplace_back([&r, t] {
        for (int i = 0; i < 50; ++i) {
          r.begin(Category::Dispatch, "outer", ScriptLine{t, i});
          r.begin(Category::Kernel, "inner");
          r.end(Category::Kernel, "inner");
          r.end(Category::Dispatch, "outer");
        }
      });
    for (auto& th : threads) th.join();
  }
  auto events = r.events();
  json doc = json::parse(to_json_text(events, {}));
  EXPECT_EQ(check_chrome_trace_rules(doc), std::vector<std::string>{});
  expect_same_events(events, read_trace_json(doc.dump()).events);
}

TEST(RoundTrip, EveryDispatchKeyNameParsesBack) {
  // The payload stores canonical keys by name; make sure each name maps back to its key.
  for (int f = 0; f <= static_cast<int>(Functionality::EndOfFunctionality); ++f) {
    auto fn = static_cast<Functionality>(f);
    std::vector<DispatchKey> ks;
    if (is_per_backend(fn)) {
      for (int b = 1; b <= kNumBackends; ++b) ks.emplace_back(fn, static_cast<BackendComponent>(b));
    } else {
      ks.emplace_back(fn);
    }
    for (int a = 1; a <= static_cast<int>(AliasKey::CompositeExplicitAutogradNonFunctional); ++a)
      ks.emplace_back(static_cast<AliasKey>(a));
    for (const DispatchKey& k : ks) {
      DispatchStep d;
      d.chosen = k;
      std::vector<Event> one{testing::make_event(0, 0, 0, Phase::Instant, Category::Dispatch, "k", d)};
      auto back = read_trace_json(to_json_text(one, {})).events;
      EXPECT_TRUE(std::get<DispatchStep>(back[0].payload).chosen == k) << k.name();
    }
  }
}

TEST(RoundTrip, LoadReportsProgressAndCanBeCancelled) {
  std::vector<Event> events;
  for (uint64_t i = 0; i < 20000; ++i)
    events.push_back(testing::make_event(i, static_cast<int64_t>(i) * 10, 0, Phase::Instant, Category::Note, "n"));
  const auto path = std::filesystem::temp_directory_path() / ("ipt_progress_" + std::to_string(::getpid()) + ".json");
  write_trace_file(path, events, {});
  LoadProgress progress;
  EXPECT_EQ(read_trace_file(path, &progress).events.size(), events.size());
  EXPECT_EQ(progress.fraction.load(), 1.0);
  LoadProgress cancelled;
  cancelled.cancel = true;
  try {
    read_trace_file(path, &cancelled);
    ADD_FAILURE() << "a cancelled load returned";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("loading was cancelled"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(Export, DocumentShape) {
  auto events = sample_events();
  std::string text = to_json_text(events, sample_meta());
  // Perfetto needs displayTimeUnit early and traceEvents before any key it does not know.
  EXPECT_EQ(text.rfind("{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[", 0), 0u);
  EXPECT_LT(text.find("\"traceEvents\""), text.find("\"insidePyTorch\""));
  json doc = json::parse(text);
  EXPECT_EQ(doc, to_json(events, sample_meta()));
  EXPECT_EQ(doc["displayTimeUnit"], "ns");
  const json& p = doc["insidePyTorch"];
  EXPECT_EQ(p["format"], "inside-pytorch-trace");
  EXPECT_EQ(p["version"], 7);
  EXPECT_EQ(p["meta"]["title"], "Lesson 3: what add does");
  // The records stream out first and the tables they fill follow (Note [Compact payload records]).
  EXPECT_LT(text.find("\"events\":["), text.find("\"strings\":["));
  EXPECT_LT(text.find("\"events\":["), text.find("\"values\":["));
  const json& strings = p["strings"];
  ASSERT_EQ(strings[0], "");
  ASSERT_EQ(p["events"].size(), events.size());
  const json& step = p["events"][1];  // [dt_ns, tid, phase, category, name, payload]
  EXPECT_EQ(step[0], 1000);           // 1000 ns after event 0
  EXPECT_EQ(step[2], 0);              // begin
  EXPECT_EQ(step[3], 0);              // dispatch
  EXPECT_EQ(strings[step[4].get<size_t>()], "aten::add.Tensor [AutogradCPU]");
  EXPECT_EQ(p["first_seq"], 0);
  EXPECT_FALSE(p.contains("seqs"));
  const json& payload = step[5];
  EXPECT_EQ(payload[0], 0);  // dispatch_step
  EXPECT_EQ(strings[payload[1].get<size_t>()], "aten::add.Tensor");
  EXPECT_EQ(strings[payload[8].get<size_t>()], "AutogradCPU");
  EXPECT_EQ(
      strings[payload[4].get<size_t>()], "0x" + [] {
        char b[20];
        std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(keysets::default_included.raw()));
        return std::string(b);
      }());
  EXPECT_TRUE(p["events"][3][5][8].is_array());  // Dense without a backend: its three names
  EXPECT_EQ(p["events"][5].size(), 5u);          // an End without a payload
  // Events whose seqs are not consecutive list them.
  std::vector<Event> gaps = events;
  gaps[2].seq = 100;
  const json g = to_json(gaps, {});
  EXPECT_FALSE(g["insidePyTorch"].contains("first_seq"));
  EXPECT_EQ(g["insidePyTorch"]["seqs"][2], 100);
  testing::expect_same_events(gaps, read_trace_json(g.dump()).events);
}

TEST(Export, ChromeSlicesAndArgs) {
  auto events = sample_events();
  json doc = to_json(events, sample_meta());
  const json& te = doc["traceEvents"];
  const json* add = nullptr;
  int x = 0, i = 0, m = 0;
  for (const json& e : te) {
    if (e["ph"] == "X") ++x;
    if (e["ph"] == "i") {
      ++i;
      EXPECT_FALSE(e.contains("s"));  // thread scope, the default
    }
    if (e["ph"] == "M") ++m;
    if (e["name"] == "aten::add.Tensor [AutogradCPU]") add = &e;
    if (e["name"] == "process_name") {
      EXPECT_EQ(e["args"]["name"], e["pid"] == 1 ? "Inside PyTorch" : "GPU 0");  // the host; the device (Kineto's pid)
    }
    if (e["name"] == "thread_name" && e["tid"] == 1) {
      EXPECT_EQ(e["args"]["name"], "host thread 1");
    }
  }
  EXPECT_EQ(x, 9);   // 9 Begin/End pairs (3 of them on the simulated GPU, 1 a compile phase)
  EXPECT_EQ(i, 25);  // with the two schema checks, two compile artifacts and five typed compile facts
  ASSERT_NE(add, nullptr);
  // Note [Microseconds that never overlap] in chrome_layout.cpp: ts is 3/8 ns after 1000 ns,
  // ts + dur 1/8 ns after its end, 2000 ns.
  EXPECT_EQ((*add)["ts"].get<double>(), 1.000375);
  EXPECT_NEAR((*add)["dur"].get<double>(), 0.99975, 1e-12);  // the exact double makes ts + dur land right
  EXPECT_EQ((*add)["cat"], "dispatch");
  // The args are the seq and a short summary; the full payload is in insidePyTorch.
  const json& args = (*add)["args"];
  EXPECT_FALSE(args.contains("seq"));  // the payload has it, in the same order
  EXPECT_EQ(args["kernel"], "VariableType::add_Tensor");
  EXPECT_FALSE(args.contains("end"));
  // A ts gives back the same nanosecond whether a reader rounds or truncates (Perfetto
  // truncates us * 1000); a nonzero dur truncates to 1 ns less than it rounds to, and ts + dur
  // to the same nanosecond either way.
  for (const json& e : te) {
    if (e["ph"] == "M") continue;
    const double ts = e["ts"];
    EXPECT_EQ(static_cast<int64_t>(ts * 1000.0), std::llround(ts * 1000.0)) << e.dump();
    if (!e.contains("dur")) continue;
    const double dur = e["dur"];
    const int64_t rounded = std::llround(dur * 1000.0);
    EXPECT_EQ(static_cast<int64_t>(dur * 1000.0), rounded == 0 ? 0 : rounded - 1) << e.dump();
    EXPECT_EQ(static_cast<int64_t>((ts + dur) * 1000.0), std::llround((ts + dur) * 1000.0)) << e.dump();
  }
}

// Note [Forward-backward flows]: an arrow from the operator that created a node to its run.
TEST(Export, ForwardBackwardFlows) {
  using testing::make_event;
  GraphNode created;
  created.node = 7;
  created.name = "MulBackward0";
  EngineStep runs;
  runs.node = 7;
  runs.name = "MulBackward0";
  std::vector<Event> ev = {make_event(0, 100, 0, Phase::Begin, Category::Dispatch, "aten::mul.Tensor [AutogradCPU]"),
                           make_event(1, 150, 0, Phase::Instant, Category::Autograd, "node created", created),
                           make_event(2, 200, 0, Phase::End, Category::Dispatch, "aten::mul.Tensor [AutogradCPU]"),
                           make_event(3, 300, 0, Phase::Begin, Category::Autograd, "backward"),
                           make_event(4, 320, 0, Phase::Begin, Category::Autograd, "MulBackward0", runs),
                           make_event(5, 400, 0, Phase::End, Category::Autograd, "MulBackward0"),
                           make_event(6, 410, 0, Phase::End, Category::Autograd, "backward")};
  const json doc = to_json(ev, {});
  std::vector<json> flows;
  for (const json& e : doc["traceEvents"])
    if (e.value("cat", "") == "fwdbwd") flows.push_back(e);
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["ph"], "s");
  EXPECT_EQ(flows[0]["id"], 7);
  EXPECT_EQ(flows[0]["ts"].get<double>(), 0.150375);  // inside the forward mul's slice
  EXPECT_EQ(flows[1]["ph"], "f");
  EXPECT_EQ(flows[1]["bp"], "e");
  EXPECT_EQ(flows[1]["id"], 7);
  EXPECT_EQ(flows[1]["ts"].get<double>(), 0.320375);  // where MulBackward0 starts
  EXPECT_EQ(check_chrome_trace_rules(doc), std::vector<std::string>{});
  // A node whose creation was not recorded gets no arrow.
  ev.erase(ev.begin() + 1);
  int n = 0;
  const json without = to_json(ev, {});
  for (const json& e : without["traceEvents"]) n += e.value("cat", "") == "fwdbwd";
  EXPECT_EQ(n, 0);
}

TEST(Export, DocExampleLoadsAndFollowsTheRules) {
  std::ifstream in(IPT_TRACE_FORMAT_DOC);
  ASSERT_TRUE(in) << IPT_TRACE_FORMAT_DOC;
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto begin = doc.find("```json\n");
  ASSERT_NE(begin, std::string::npos);
  begin += 8;
  std::string example = doc.substr(begin, doc.find("```", begin) - begin);
  LoadedTrace t = read_trace_json(example);
  ASSERT_EQ(t.events.size(), 4u);
  EXPECT_EQ(t.meta.title, "add two tensors");
  EXPECT_EQ(std::get<DispatchStep>(t.events[1].payload).chosen, keys::CPU);
  EXPECT_EQ(check_chrome_trace_rules(json::parse(example)), std::vector<std::string>{});
  // The example is exactly what the exporter writes for its events.
  EXPECT_EQ(to_json_text(t.events, t.meta), example);
}

}  // namespace
}  // namespace ipt::trace
