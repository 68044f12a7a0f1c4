// The dispatch model on hand-built event lists shaped like what the dispatcher records: an
// in-place add going AutogradCPU -> ADInplaceOrView -> CPU (redispatches below wrapper
// kernels), a call that makes a nested call of another operator, a call on a second thread,
// the details recorded inside a step (kernel details, autograd decisions, Text notes), the
// step range, the CLI's text, and the tensors a range saw.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/dispatch/dispatch_key_set.h"
#include "core/views/dispatch_model.h"
#include "event_list.h"

namespace ipt::views {
namespace {

using trace::Category;
using trace::Event;
using trace::Phase;

const uint64_t kCpuTensor = tensor_key_set(BackendComponent::CPU).raw();

trace::DispatchStep step(const char* op, bool redispatch, DispatchKey chosen, const char* kernel,
                         const char* kernel_kind) {
  trace::DispatchStep s;
  s.op = op;
  s.redispatch = redispatch;
  s.chosen = chosen;
  s.kernel = kernel;
  s.kernel_kind = kernel_kind;
  return s;
}

struct Events : testing::EventList {
  size_t begin(trace::DispatchStep s, uint32_t tid = 0) {
    return add(Category::Dispatch, Phase::Begin, s.op, std::move(s), tid);
  }
  size_t end(uint32_t tid = 0) { return add(Category::Dispatch, Phase::End, "end", {}, tid); }
};

// Indexes of the Begin events of the sample below.
struct Sample {
  Events e;
  size_t add_autograd, add_inplace, add_cpu, add_end, mul, sum, empty, empty_cpu;
};

// a.add_(b); c = a * b (which makes an empty result through BackendSelect); and, on thread 1
// meanwhile, a sum.
Sample sample() {
  Sample s;
  Events& e = s.e;
  e.add(Category::Script, Phase::Instant, "line", trace::ScriptLine{1, 1});
  trace::DispatchStep add =
      step("aten::add_.Tensor", false, keys::AutogradCPU, "VariableType::add__Tensor", "autograd kernel");
  add.arg_key_sets = {kCpuTensor, kCpuTensor};
  add.merged = kCpuTensor;
  s.add_autograd = e.begin(add);
  e.add(Category::Autograd, Phase::Instant, "autograd decision",
        trace::AutogradDecision{"aten::add_.Tensor", true, false, ""});
  e.add(Category::Dispatch, Phase::Instant, "dispatch table", trace::DispatchTable{});  // not a detail
  s.add_inplace =
      e.begin(step("aten::add_.Tensor", true, keys::ADInplaceOrView, "ADInplaceOrView::add__Tensor", "kernel"));
  s.add_cpu = e.begin(step("aten::add_.Tensor", true, keys::CPU, "add_cpu_", "kernel"));
  e.add(Category::Kernel, Phase::Instant, "loop", trace::KernelDetail{{{"path", "contiguous"}, {"n", "6"}}});
  e.add(Category::Kernel, Phase::Begin, "vectorized", trace::Text{"8 lanes"});
  e.add(Category::Kernel, Phase::End, "vectorized", trace::Text{"not a detail"});
  e.end();
  e.end();
  s.add_end = e.end();
  trace::DispatchStep mul = step("aten::mul.Tensor", false, keys::CPU, "mul_cpu", "kernel");
  mul.arg_key_sets = {kCpuTensor};
  mul.merged = DispatchKeySet(keys::CPU).raw();
  mul.skipped_fallthrough = DispatchKeySet(keys::ADInplaceOrView).raw();
  s.mul = e.begin(mul);
  s.sum = e.begin(step("aten::sum", false, keys::CPU, "sum_cpu", "kernel"), 1);
  s.empty = e.begin(step("aten::empty.memory_format", false, keys::BackendSelect, "empty_backend_select", "kernel"));
  s.empty_cpu = e.begin(step("aten::empty.memory_format", true, keys::CPU, "empty_cpu", "kernel"));
  e.end();
  e.end();
  e.add(Category::Autograd, Phase::Instant, "note", trace::Text{"below autograd"});
  e.end(1);  // the sum ends on its thread
  e.end();
  return s;
}

TEST(DispatchForest, CallsRedispatchesAndDetails) {
  const Sample s = sample();
  const std::vector<DispatchNode> roots = dispatch_forest(s.e.ev);
  // Top-level calls of every thread, in event order.
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_EQ(roots[0].event_index, s.add_autograd);
  EXPECT_EQ(roots[1].event_index, s.mul);
  EXPECT_EQ(roots[2].event_index, s.sum);
  EXPECT_STREQ(roots[2].step->op, "aten::sum");
  EXPECT_TRUE(roots[2].children.empty());
  // The add: each redispatch nests inside the wrapper kernel that made it.
  const DispatchNode& add = roots[0];
  EXPECT_FALSE(add.step->redispatch);
  ASSERT_EQ(add.children.size(), 1u);
  EXPECT_EQ(add.children[0].event_index, s.add_inplace);
  EXPECT_TRUE(add.children[0].step->redispatch);
  ASSERT_EQ(add.children[0].children.size(), 1u);
  const DispatchNode& cpu = add.children[0].children[0];
  EXPECT_EQ(cpu.event_index, s.add_cpu);
  EXPECT_TRUE(cpu.children.empty());
  // Details: autograd and kernel events inside the step, not End events nor Dispatch instants.
  ASSERT_EQ(add.details.size(), 1u);
  EXPECT_STREQ(add.details[0]->name, "autograd decision");
  EXPECT_TRUE(add.children[0].details.empty());
  ASSERT_EQ(cpu.details.size(), 2u);
  EXPECT_STREQ(cpu.details[0]->name, "loop");
  EXPECT_STREQ(cpu.details[1]->name, "vectorized");
  EXPECT_EQ(cpu.details[1]->phase, Phase::Begin);
  // The mul: a nested call of another operator, its own redispatch below it, and a note made
  // after it returned; the sum on thread 1 is not nested in it.
  const DispatchNode& mul = roots[1];
  ASSERT_EQ(mul.children.size(), 1u);
  EXPECT_EQ(mul.children[0].event_index, s.empty);
  ASSERT_EQ(mul.children[0].children.size(), 1u);
  EXPECT_EQ(mul.children[0].children[0].event_index, s.empty_cpu);
  ASSERT_EQ(mul.details.size(), 1u);
  EXPECT_STREQ(mul.details[0]->name, "note");
}

TEST(DispatchForest, RedispatchChain) {
  const Sample s = sample();
  const std::vector<DispatchNode> roots = dispatch_forest(s.e.ev);
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_EQ(redispatch_chain(roots[0]), "AutogradCPU -> ADInplaceOrView -> CPU");
  EXPECT_EQ(redispatch_chain(roots[0].children[0]), "ADInplaceOrView -> CPU");
  // A nested call of another operator is not part of the chain; its own redispatch is.
  EXPECT_EQ(redispatch_chain(roots[1]), "CPU");
  EXPECT_EQ(redispatch_chain(roots[1].children[0]), "BackendSelect -> CPU");
  EXPECT_EQ(redispatch_chain(roots[2]), "CPU");
}

TEST(DispatchForest, StepRange) {
  const Sample s = sample();
  // Starting inside the add: its first redispatch becomes a root; the unmatched Ends that
  // follow are ignored.
  std::vector<DispatchNode> roots = dispatch_forest(s.e.ev, s.add_inplace, s.mul + 1);
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_EQ(roots[0].event_index, s.add_inplace);
  EXPECT_TRUE(roots[0].step->redispatch);
  EXPECT_EQ(redispatch_chain(roots[0]), "ADInplaceOrView -> CPU");
  EXPECT_EQ(roots[1].event_index, s.mul);  // [first, last) includes the mul's Begin
  EXPECT_TRUE(roots[1].children.empty());
  // Ending inside the add: the open steps are kept as far as they got.
  roots = dispatch_forest(s.e.ev, 0, s.add_cpu);
  ASSERT_EQ(roots.size(), 1u);
  ASSERT_EQ(roots[0].children.size(), 1u);
  EXPECT_TRUE(roots[0].children[0].children.empty());
  // Past the end is clamped; an empty range has no calls.
  EXPECT_EQ(dispatch_forest(s.e.ev, 0, 10'000).size(), 3u);
  EXPECT_TRUE(dispatch_forest(s.e.ev, s.add_end + 1, s.mul).empty());
  EXPECT_TRUE(dispatch_forest(s.e.ev, 5, 5).empty());
}

TEST(DispatchText, RendersChainsKeysDetailsAndNestedCalls) {
  const Sample s = sample();
  const std::vector<DispatchNode> roots = dispatch_forest(s.e.ev);
  const std::string cpu_keys = DispatchKeySet::from_raw(kCpuTensor).to_string();
  EXPECT_EQ(cpu_keys, "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  const std::string expected =
      "aten::add_.Tensor  AutogradCPU [autograd kernel] -> ADInplaceOrView [kernel] -> CPU [kernel add_cpu_]\n"
      "    tensor keys: " +
      cpu_keys + ", " + cpu_keys +
      "\n"
      "    merged: " +
      cpu_keys +
      "\n"
      "    aten::add_.Tensor: grad mode on, no input requires grad -> no graph is recorded\n"
      "    loop: path=contiguous n=6\n"
      "    8 lanes\n"
      "aten::mul.Tensor  CPU [kernel mul_cpu]\n"
      "    tensor keys: " +
      cpu_keys +
      "\n"
      "    merged: DispatchKeySet(CPU)  (fallthrough skipped: DispatchKeySet(ADInplaceOrView))\n"
      "    below autograd\n"
      "  aten::empty.memory_format  BackendSelect [kernel] -> CPU [kernel empty_cpu]\n"
      "aten::sum  CPU [kernel sum_cpu]\n"
      "    merged: DispatchKeySet()\n";
  EXPECT_EQ(render_dispatch_text(roots), expected);
  // max_depth 1: top-level calls only.
  const std::string top = render_dispatch_text(roots, 1);
  EXPECT_EQ(top.find("aten::empty"), std::string::npos);
  EXPECT_NE(top.find("    below autograd\n"), std::string::npos);
  EXPECT_EQ(render_dispatch_text({}), "");
}

TEST(DispatchText, GraphNodeAndEngineStepDetails) {
  Events e;
  e.begin(step("aten::mul.Tensor", false, keys::AutogradCPU, "VariableType::mul_Tensor", "autograd kernel"));
  trace::GraphNode g;
  g.node = 4;
  g.name = "MulBackward0";
  g.seq = 3;
  g.next = {trace::NextEdge{true, 5, 0}, trace::NextEdge{}};
  g.output_tensor = 15;
  e.add(Category::Autograd, Phase::Instant, "node created", g);
  trace::EngineStep x;
  x.node = 4;
  x.name = "MulBackward0";
  x.action = trace::EngineAction::NodeReady;
  e.add(Category::Autograd, Phase::Instant, "node ready", x);
  e.end();
  EXPECT_EQ(render_dispatch_text(dispatch_forest(e.ev)),
            "aten::mul.Tensor  AutogradCPU [autograd kernel VariableType::mul_Tensor]\n"
            "    merged: DispatchKeySet()\n"
            "    node created: node=4 name=MulBackward0 seq=3 next=5:0,none output_tensor=15\n"
            "    node ready: node=4 name=MulBackward0\n");
}

trace::TensorMeta meta(uint64_t tensor, uint64_t storage, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                       int64_t offset, bool is_view = false) {
  trace::TensorMeta m;
  m.tensor_id = tensor;
  m.storage_id = storage;
  m.storage_nbytes = 24;
  m.sizes = std::move(sizes);
  m.strides = std::move(strides);
  m.storage_offset = offset;
  m.is_view = is_view;
  return m;
}

TEST(TensorsSeen, LatestSnapshotInFirstSeenOrder) {
  Events e;
  e.add(Category::Tensor, Phase::Instant, "tensor", meta(7, 1, {2, 3}, {3, 1}, 0));
  e.add(Category::Tensor, Phase::Instant, "tensor", meta(3, 1, {3, 2}, {1, 3}, 0, true));
  e.add(Category::Tensor, Phase::Instant, "tensor", meta(7, 2, {6}, {1}, 0));  // 7 again, later snapshot
  e.add(Category::Tensor, Phase::Instant, "tensor", meta(9, 1, {}, {}, 4, true));
  std::vector<const trace::TensorMeta*> seen = tensors_seen(e.ev);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], &std::get<trace::TensorMeta>(e.ev[2].payload));  // tensor 7's latest
  EXPECT_EQ(seen[1]->tensor_id, 3u);
  EXPECT_EQ(seen[2]->tensor_id, 9u);
  EXPECT_EQ(render_tensors_text(seen),
            "  tensor#7 float32 size=(6,) stride=(1,) offset=0 -> storage#2 (24 bytes)\n"
            "  tensor#3 float32 size=(3, 2) stride=(1, 3) offset=0 -> storage#1 (24 bytes) view\n"
            "  tensor#9 float32 size=() stride=() offset=4 -> storage#1 (24 bytes) view\n");
  // [first, last): only what the range recorded.
  seen = tensors_seen(e.ev, 1, 3);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0]->tensor_id, 3u);
  EXPECT_EQ(seen[1]->tensor_id, 7u);
  EXPECT_EQ(seen[1]->storage_id, 2u);
  EXPECT_TRUE(tensors_seen(e.ev, 0, 0).empty());
  EXPECT_EQ(tensors_seen(e.ev, 0, 100).size(), 3u);
  EXPECT_EQ(render_tensors_text({}), "");
}

}  // namespace
}  // namespace ipt::views
