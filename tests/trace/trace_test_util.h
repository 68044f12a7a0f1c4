#pragma once
// Shared helpers for the trace tests: field-by-field Event comparison (strings compared by
// content, doubles bit-exactly or both NaN) and a sample trace using every payload type.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/dispatch/dispatch_key_set.h"
#include "core/trace/events.h"
#include "core/trace/trace_json.h"
#include "core/util/error.h"

namespace ipt::trace::testing {

inline bool same_str(const char* a, const char* b) { return std::strcmp(a ? a : "", b ? b : "") == 0; }

inline bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// Field-by-field comparison of two records of one type, driven by their declaration (Note
// [Payloads are declared once]): every field of every payload is compared, new ones included.
struct SameFields {
  static void same(const char* a, const char* b, const std::string& at) {
    EXPECT_TRUE(same_str(a, b)) << at << ": \"" << (a ? a : "") << "\" vs \"" << (b ? b : "") << "\"";
  }
  static void same(double a, double b, const std::string& at) {
    EXPECT_TRUE(same_double(a, b)) << at << ": " << a << " vs " << b;
  }
  static void same(const std::string& a, const std::string& b, const std::string& at) { EXPECT_EQ(a, b) << at; }
  static void same(const DispatchKey& a, const DispatchKey& b, const std::string& at) {
    EXPECT_TRUE(a == b) << at << ": " << a.name() << " vs " << b.name();
  }
  template <typename T>
  static void same(const T& a, const T& b, const std::string& at) {
    if constexpr (requires { PayloadInfo<T>::fields; }) {
      record(a, b, at);
    } else if constexpr (requires {
                           a.size();
                           a[0];
                         }) {
      ASSERT_EQ(a.size(), b.size()) << at << ": size";
      for (size_t i = 0; i < a.size(); ++i) same(a[i], b[i], at + "[" + std::to_string(i) + "]");
    } else if constexpr (requires {
                           a.first;
                           a.second;
                         }) {
      same(a.first, b.first, at + ".first");
      same(a.second, b.second, at + ".second");
    } else {
      EXPECT_TRUE(a == b) << at;
    }
  }
  template <typename T>
  static void record(const T& a, const T& b, const std::string& at) {
    std::vector<const void*> theirs;
    PayloadInfo<T>::visit(b, [&](auto, const char*, const auto& y, int) { theirs.push_back(&y); });
    size_t k = 0;
    PayloadInfo<T>::visit(a, [&](auto, const char* name, const auto& x, int) {
      using X = std::decay_t<decltype(x)>;
      same(x, *static_cast<const X*>(theirs[k++]), at + "." + name);
    });
  }
};

// Adds one gtest failure per differing field.
inline void expect_same_payload(const Payload& a, const Payload& b, const std::string& at) {
  ASSERT_EQ(a.index(), b.index()) << at << ": payload type";
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (!std::is_same_v<T, std::monostate>) SameFields::record(x, std::get<T>(b), at);
      },
      a);
}

inline void expect_same_events(const std::vector<Event>& a, const std::vector<Event>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    std::string at = "event " + std::to_string(i);
    EXPECT_EQ(a[i].seq, b[i].seq) << at;
    EXPECT_EQ(a[i].ts_ns, b[i].ts_ns) << at;
    EXPECT_EQ(a[i].tid, b[i].tid) << at;
    EXPECT_EQ(a[i].phase, b[i].phase) << at;
    EXPECT_EQ(a[i].category, b[i].category) << at;
    EXPECT_TRUE(same_str(a[i].name, b[i].name)) << at << ": name " << a[i].name << " vs " << b[i].name;
    expect_same_payload(a[i].payload, b[i].payload, at);
  }
}

inline Event make_event(uint64_t seq, int64_t ts, uint32_t tid, Phase ph, Category c, const char* name,
                        Payload p = {}) {
  Event e;
  e.seq = seq;
  e.ts_ns = ts;
  e.tid = tid;
  e.phase = ph;
  e.category = c;
  e.name = name;
  e.payload = std::move(p);
  return e;
}

// A small trace that uses every payload type and awkward values (NaN, -0.0, huge ids,
// unicode and control characters, an alias key and a non-canonical key).
inline std::vector<Event> sample_events() {
  std::vector<Event> ev;
  uint64_t seq = 0;
  auto add = [&](int64_t ts, uint32_t tid, Phase ph, Category c, const char* name, Payload p = {}) {
    ev.push_back(make_event(seq++, ts, tid, ph, c, name, std::move(p)));
  };
  add(0, 0, Phase::Instant, Category::Script, "line 1", ScriptLine{1, 0});
  DispatchStep d;
  d.op = "aten::add.Tensor";
  d.arg_key_sets = {tensor_key_set(BackendComponent::CPU).raw(), tensor_key_set(BackendComponent::CUDA).raw(),
                    ~uint64_t(0)};
  d.tls_included = keysets::default_included.raw();
  d.tls_excluded = keysets::default_excluded.raw();
  d.merged = (tensor_key_set(BackendComponent::CPU) | keysets::default_included).raw();
  d.skipped_fallthrough = DispatchKeySet(Functionality::ADInplaceOrView).raw();
  d.chosen = keys::AutogradCPU;
  d.kernel = "VariableType::add_Tensor";
  d.kernel_kind = "autograd kernel";
  d.registered_at = "core/ops/autograd/add.cpp:12";
  add(1000, 0, Phase::Begin, Category::Dispatch, "aten::add.Tensor [AutogradCPU]", d);
  DispatchStep d2 = d;
  d2.redispatch = true;
  d2.arg_key_sets.clear();
  d2.chosen = keys::CompositeImplicitAutograd;
  add(1001, 0, Phase::Begin, Category::Dispatch, "aten::add.Tensor [CompositeImplicitAutograd]", d2);
  DispatchStep d3 = d;
  d3.chosen = DispatchKey(Functionality::Dense);  // non-canonical: Dense without a backend
  add(1001, 0, Phase::Begin, Category::Dispatch, "aten::add.Tensor [Dense]", d3);
  KernelDetail k;
  k.fields = {{"copy", "blocked transpose"}, {"lda", "64"}, {"lda", "dup key"}, {"empty", ""}};
  add(1002, 0, Phase::Instant, Category::Kernel, "cblas_sgemm", k);
  add(1003, 0, Phase::End, Category::Dispatch, "aten::add.Tensor [Dense]");
  add(1003, 0, Phase::End, Category::Dispatch, "aten::add.Tensor [CompositeImplicitAutograd]");
  add(1500, 0, Phase::Instant, Category::Storage, "storage allocated", StorageInfo{77, 24, "cpu", false});
  TensorMeta t;
  t.tensor_id = 5;
  t.storage_id = std::numeric_limits<uint64_t>::max();
  t.storage_nbytes = 24;
  t.dtype = "float64";
  t.device = "cuda:0";
  t.sizes = {2, 3};
  t.strides = {1, 2};
  t.storage_offset = -1;
  t.version = 3;
  t.key_set = tensor_key_set(BackendComponent::CUDA).raw();
  t.requires_grad = true;
  t.is_view = true;
  t.label = "résultat \"z\"\n";
  t.storage_values = {1.0,
                      -0.0,
                      0.1,
                      1e-310,
                      1e308,
                      std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::infinity(),
                      -std::numeric_limits<double>::infinity()};
  t.storage_truncated = true;
  add(1600, 0, Phase::Instant, Category::Tensor, "tensor", t);
  add(2000, 0, Phase::End, Category::Dispatch, "aten::add.Tensor [AutogradCPU]", Text{"end payload"});
  GraphNode made;
  made.node = 9;
  made.name = "MulBackward0";
  made.seq = 4;
  made.next = {NextEdge{true, 3, 0}, NextEdge{}, NextEdge{true, std::numeric_limits<uint32_t>::max(), 7}};
  made.output_tensor = 5;
  made.leaves = {LeafEdge{3, 11}};
  add(1601, 0, Phase::Instant, Category::Autograd, "node created", made);
  add(2100, 1, Phase::Begin, Category::Autograd, "backward", EngineRun{16, "backward"});
  GraphNode acc;
  acc.node = 3;
  acc.name = "torch::autograd::AccumulateGrad";
  acc.leaves = {LeafEdge{3, 11}};
  acc.deps = 1;
  made.deps = 0;
  add(2100, 1, Phase::Instant, Category::Autograd, "autograd graph", GraphNodes{{made, acc}});
  EngineStep ready;
  ready.node = 9;
  ready.name = "MulBackward0";
  ready.action = EngineAction::NodeReady;
  add(2100, 1, Phase::Instant, Category::Autograd, "node ready", ready);
  EngineStep runs = ready;
  runs.action = EngineAction::NodeRuns;
  add(2100, 1, Phase::Begin, Category::Autograd, "MulBackward0", runs);
  EngineStep arrived = ready;
  arrived.action = EngineAction::GradArrived;
  arrived.node = 3;
  arrived.name = "torch::autograd::AccumulateGrad";
  arrived.from = 9;
  arrived.input_nr = 0;
  arrived.deps_left = -2;
  arrived.sum = {1.5, std::numeric_limits<double>::quiet_NaN(), -0.0};
  arrived.sum_truncated = true;
  add(2100, 1, Phase::Instant, Category::Autograd, "grad arrived", arrived);
  EngineStep none = arrived;
  none.sum.clear();
  none.sum_truncated = false;
  none.sum_none = true;
  add(2100, 1, Phase::Instant, Category::Autograd, "grad arrived", none);
  add(2100, 1, Phase::End, Category::Autograd, "MulBackward0");
  EngineStep written;
  written.node = 3;
  written.name = "torch::autograd::AccumulateGrad";
  written.tensor = 11;
  written.grad_tensor = 12;
  written.action = EngineAction::GradWritten;
  add(2100, 1, Phase::Instant, Category::Autograd, "grad written", written);
  add(2100, 1, Phase::Instant, Category::Autograd, "note", Text{"tab\there, nul-free, emoji \xF0\x9F\x94\xA5"});
  add(2100, 1, Phase::End, Category::Autograd, "backward");
  add(2200, 0, Phase::Instant, Category::Lesson, "step", Text{""});
  add(2300, 0, Phase::Instant, Category::Note, "", StorageInfo{77, 24, "cpu", true});
  DispatchTable table;
  table.op = "aten::add.Tensor";
  table.schema = "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  table.rows = {DispatchTableRow{keys::CPU, false, "build/generated/RegisterCPU.cpp:96", "kernel"},
                DispatchTableRow{DispatchKey(Functionality::ADInplaceOrView), true, "core/ops/fallthrough.cpp:3",
                                 "backend fallback"},
                DispatchTableRow{DispatchKey(Functionality::Dense), false, "", "missing"}};  // non-canonical
  add(2400, 0, Phase::Instant, Category::Dispatch, "dispatch table", table);
  add(2500, 0, Phase::Instant, Category::Autograd, "autograd decision",
      AutogradDecision{"aten::mul.Tensor", true, true, "MulBackward0"});
  // A launch on the simulated GPU: the host's call, the kernel on stream 7's track, and the
  // allocator's action (Note [Device tracks]).
  add(2600, 0, Phase::Instant, Category::GpuMemory, "alloc",
      DeviceMemory{"alloc", 0, 7, 139637976727552ull, 4194304, 4194304, 20971520});
  const DeviceWork launch{42, 0, 7, -1, 12582912, 1048576.0, "TF32", 139637976727552ull};
  add(2600, 0, Phase::Begin, Category::CudaRuntime, "cudaLaunchKernel", launch);
  add(2605, 0, Phase::End, Category::CudaRuntime, "cudaLaunchKernel");
  add(2605, device_track(0, 7), Phase::Begin, Category::Kernel, "ampere_tf32_s1688gemm_128x128", launch);
  add(2700, device_track(0, 7), Phase::End, Category::Kernel, "ampere_tf32_s1688gemm_128x128");
  add(2700, 0, Phase::Begin, Category::CudaRuntime, "cudaStreamSynchronize", DeviceWork{0, 0, 7, -1, 0, 0.0, "", 0});
  add(2800, 0, Phase::End, Category::CudaRuntime, "cudaStreamSynchronize");
  // What the schema check mode found on two calls: a violation, and a call that did nothing
  // to its arguments.
  SchemaCheck bad{"aten::_test_schema_writes_self", {}};
  bad.findings.push_back(SchemaCheckFinding{"mutated_without_annotation", "input",
                                            "Argument input is not defined as mutable but was mutated"});
  bad.findings.push_back(SchemaCheckFinding{"aliased", "input", "Argument input aliases output_0, as its schema says"});
  add(2900, 0, Phase::Instant, Category::Note, "schema check", bad);
  add(2950, 0, Phase::Instant, Category::Note, "schema check", SchemaCheck{"aten::add.Tensor", {}});
  // torch.compile: a capture phase and what it produced (a graph, a break on a user line).
  add(3000, 0, Phase::Begin, Category::Compile, "capture [0/0]", CompilePhase{"capture", 0, 0});
  add(3100, 0, Phase::Instant, Category::Compile, "graph [0/0]",
      CompileArtifact{CompileArtifactKind::Graph, "0/0", "prog.py", 0, "def forward(self, L_x_):\n    return (L_x_,)"});
  add(3150, 0, Phase::Instant, Category::Compile, "graph break [0/0]",
      CompileArtifact{CompileArtifactKind::GraphBreak, "0/0", "prog.py", 5, "builtin: print \"quoted\" \u4e2d"});
  add(3200, 0, Phase::End, Category::Compile, "capture [0/0]", CompilePhase{"capture", 0, 0});
  add(3300, 0, Phase::Instant, Category::Compile, "fusion [0/1]",
      FusionDecisions{
          0,
          1,
          1,
          {{"mul", FusionAction::StartsKernel, "cpp_fused_mul_sum_0", "", 0},
           {"sum_1", FusionAction::FusedReduction, "cpp_fused_mul_sum_0", "", 0},
           {"add", FusionAction::StartsKernel, "cpp_fused_add_1", "size [4] differs from the kernel's [3]", 1},
           {"mm", FusionAction::NotFused, "", "aten.mm.default is not pointwise \"quoted\" \u4e2d"}}});
  add(3400, 0, Phase::Instant, Category::Compile, "recompile [0/1]",
      Recompile{0,
                1,
                {GuardFailure{0, 0, "TENSOR_MATCH", "L['x']", "3", "4", 4,
                              "tensor 'L['x']' size mismatch at index 0. expected 3, actual 4"},
                 GuardFailure{1, 0, "", "", "", "", -1, "'L[\"y\"]' could not be read \u4e2d"}}});
  add(3500, 0, Phase::Instant, Category::Compile, "cache hit [0/1]", CacheLookup{true, 0, 1, 1234, 2});
  add(3600, 0, Phase::Instant, Category::Compile, "cache miss", CacheLookup{false, -1, -1, 99, 2});
  add(3700, 0, Phase::Instant, Category::Compile, "torch._dynamo.reset()", DynamoReset{0});
  return ev;
}

// The error message of reading `text`, or "" when it loads.
inline std::string error_of(std::string_view text) {
  try {
    read_trace_json(text);
    return "";
  } catch (const ipt::Error& e) {
    return e.what();
  }
}

}  // namespace ipt::trace::testing

// Expects the error of reading `text` to contain `fragment`.
#define EXPECT_ERROR_HAS(text, fragment)                                              \
  do {                                                                                \
    std::string msg_ = ::ipt::trace::testing::error_of(text);                         \
    EXPECT_NE(msg_.find(fragment), std::string::npos) << "message: '" << msg_ << "'"; \
  } while (0)
