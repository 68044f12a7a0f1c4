// Dispatcher: computed tables, fallthroughs, redispatch chains and what each call records.
#include <gtest/gtest.h>

#include "core/dispatch/dispatcher.h"
#include "core/trace/recorder.h"
#include "generated/ops.h"

using namespace ipt;

namespace {

std::vector<trace::DispatchStep> record_steps(const std::function<void()>& f) {
  trace::Recorder::current().clear();
  {
    trace::ScopedTrace on;
    f();
  }
  std::vector<trace::DispatchStep> steps;
  for (const auto& e : trace::Recorder::current().events())
    if (e.phase == trace::Phase::Begin && e.category == trace::Category::Dispatch)
      steps.push_back(std::get<trace::DispatchStep>(e.payload));
  trace::Recorder::current().clear();
  return steps;
}

std::string chain(const std::vector<trace::DispatchStep>& steps, const std::string& op) {
  std::string s;
  for (const auto& st : steps)
    if (op == st.op) s += (s.empty() ? "" : " -> ") + st.chosen.name();
  return s;
}

Tensor ones2() { return ops::ones(std::vector<int64_t>{2}); }

}  // namespace

TEST(Dispatcher, AddTableEntriesAndKinds) {
  const OperatorEntry& op = Dispatcher::singleton().get("aten::add.Tensor");
  EXPECT_STREQ(op.entry(keys::CPU).kind, "kernel");
  // add.Tensor is add.out's structured delegate: the generated kernel runs the meta function,
  // allocates the result and calls the CPU impl (Note [Structured kernels]).
  EXPECT_STREQ(op.entry(keys::CPU).kernel.name, "meta_add + add_out_cpu");
  EXPECT_STREQ(op.entry(keys::Meta).kernel.name, "meta_add");
  EXPECT_STREQ(op.entry(keys::AutogradCPU).kind, "autograd kernel");
  EXPECT_STREQ(op.entry(keys::ADInplaceOrView).kind, "backend fallback");
  EXPECT_TRUE(op.entry(keys::ADInplaceOrView).kernel.fallthrough);
  EXPECT_FALSE(op.non_fallthrough_keys().has(Functionality::ADInplaceOrView));
  // The simulated GPU's kernel (backends/sim), from the YAML's CUDA entry.
  EXPECT_STREQ(op.entry(keys::CUDA).kind, "kernel");
  EXPECT_STREQ(op.entry(keys::CUDA).kernel.name, "meta_add + add_out_cuda");
  std::string dump = op.dump_table();
  EXPECT_NE(dump.find("CUDA: registered at build/generated/RegisterCUDA.cpp:"), std::string::npos) << dump;
  EXPECT_NE(dump.find("CPU: registered at build/generated/RegisterCPU.cpp:"), std::string::npos) << dump;
  EXPECT_NE(dump.find("ADInplaceOrView: fallthrough registered at core/dispatch/fallbacks.cpp:"), std::string::npos)
      << dump;
  EXPECT_NE(dump.find("AutogradCPU: registered at build/generated/RegisterAutograd.cpp:"), std::string::npos);
}

TEST(Dispatcher, CompositeKernelsFillTheTable) {
  const OperatorEntry& t = Dispatcher::singleton().get("aten::transpose.int");
  EXPECT_STREQ(t.entry(keys::CPU).kind, "default backend kernel");
  EXPECT_STREQ(t.entry(DispatchKey()).kind, "default backend kernel");  // Undefined
  EXPECT_STREQ(t.entry(keys::ADInplaceOrView).kind, "kernel");          // a view op
  const OperatorEntry& r = Dispatcher::singleton().get("aten::reshape");
  EXPECT_STREQ(r.entry(keys::CPU).kind, "math kernel");
  EXPECT_STREQ(r.entry(keys::AutogradCPU).kind, "math kernel");  // decomposes; no autograd kernel of its own
}

TEST(Dispatcher, AddGoesAutogradThenCPU) {
  Tensor a = ones2(), b = ones2();
  auto steps = record_steps([&] { ops::add_Tensor(a, b); });
  ASSERT_GE(steps.size(), 2u);
  EXPECT_EQ(chain(steps, "aten::add.Tensor"), "AutogradCPU -> CPU");
  const auto& first = steps[0];
  EXPECT_FALSE(first.redispatch);
  ASSERT_EQ(first.arg_key_sets.size(), 2u);
  EXPECT_EQ(DispatchKeySet::from_raw(first.arg_key_sets[0]).to_string(),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  EXPECT_EQ(DispatchKeySet::from_raw(first.tls_included).to_string(), "DispatchKeySet(BackendSelect, ADInplaceOrView)");
  EXPECT_EQ(DispatchKeySet::from_raw(first.merged).to_string(), "DispatchKeySet(CPU, AutogradCPU)");
  EXPECT_STREQ(first.kernel_kind, "autograd kernel");
  EXPECT_TRUE(steps[1].redispatch);
  EXPECT_STREQ(steps[1].kernel, "meta_add + add_out_cpu");
}

TEST(Dispatcher, InPlaceGoesThroughADInplaceOrViewAndBumpsVersion) {
  Tensor a = ones2(), b = ones2();
  uint64_t v0 = a.impl()->version();
  auto steps = record_steps([&] { ops::add__Tensor(a, b); });
  EXPECT_EQ(chain(steps, "aten::add_.Tensor"), "AutogradCPU -> ADInplaceOrView -> CPU");
  EXPECT_EQ(a.impl()->version(), v0 + 1);
}

TEST(Dispatcher, NoGradStillEntersAutogradButBelowAutogradSkipsIt) {
  Tensor a = ones2(), b = ones2();
  {
    NoGradGuard g;
    EXPECT_EQ(chain(record_steps([&] { ops::mul_Tensor(a, b); }), "aten::mul.Tensor"), "AutogradCPU -> CPU");
  }
  {
    AutoDispatchBelowAutograd g;
    EXPECT_EQ(chain(record_steps([&] { ops::mul_Tensor(a, b); }), "aten::mul.Tensor"), "CPU");
  }
}

TEST(Dispatcher, FactoriesUseBackendSelect) {
  auto steps = record_steps([] { ops::empty_memory_format(std::vector<int64_t>{2}); });
  EXPECT_EQ(chain(steps, "aten::empty.memory_format"), "BackendSelect -> CPU");
  steps = record_steps([] { ops::zeros(std::vector<int64_t>{2}); });
  EXPECT_EQ(chain(steps, "aten::zeros"), "BackendSelect -> CPU");
  EXPECT_EQ(chain(steps, "aten::fill_.Scalar"), "AutogradCPU -> ADInplaceOrView -> CPU");
}

TEST(Dispatcher, MetaTensorsUseMetaKernels) {
  Tensor m = ops::ones(std::vector<int64_t>{2, 3}, std::nullopt, std::nullopt, Device(DeviceType::Meta));
  auto steps = record_steps([&] { ops::add_Tensor(m, m); });
  EXPECT_EQ(chain(steps, "aten::add.Tensor"), "AutogradMeta -> Meta");
  Tensor r = ops::add_Tensor(m, m);
  EXPECT_EQ(r.device().type, DeviceType::Meta);
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 3}));
}

TEST(Dispatcher, InferenceModeSkipsAutogradAndADInplaceOrView) {
  InferenceModeGuard g;
  Tensor a = ones2();
  auto steps = record_steps([&] { ops::add__Tensor(a, a); });
  EXPECT_EQ(chain(steps, "aten::add_.Tensor"), "CPU");
}

TEST(Dispatcher, MetaFallbackRefusesOperatorsWithoutMetaKernel) {
  // equal has no Meta kernel: 2.15's Meta fallback refuses it with a NotImplementedError.
  Tensor m = ops::ones(std::vector<int64_t>{1}, std::nullopt, std::nullopt, Device(DeviceType::Meta));
  const OperatorEntry& op = Dispatcher::singleton().get("aten::equal");
  EXPECT_STREQ(op.entry(keys::Meta).kind, "backend fallback");
  try {
    ops::equal(m, m);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::NotImplementedError);
    EXPECT_EQ(std::string(e.what()).rfind("aten::equal: attempted to run this operator with Meta tensors, but there "
                                          "was no fake impl or Meta kernel registered.",
                                          0),
              0u)
        << e.what();
  }
  // item() of a meta tensor reaches _local_scalar_dense's Meta kernel, which refuses it.
  try {
    ops::item(m);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeError);
    EXPECT_STREQ(e.what(), "Tensor.item() cannot be called on meta tensors");
  }
}
