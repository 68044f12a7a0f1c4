// The backward engine: accumulation into .grad, the errors PyTorch raises (saved tensor
// modified in place, second backward through a freed graph, in-place on a leaf, implicit
// gradient for a non-scalar root), no_grad, and the events it records for the graph view.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <pthread.h>
#include <string>

#include "core/ops/scalar_tensor.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"
#include "tests/autograd/gradcheck.h"

namespace ipt_test {
namespace {

using ipt::autograd::backward;
using D = std::vector<double>;
using ipt::trace::Category;
using ipt::trace::Event;
using ipt::trace::Recorder;
using ipt::trace::ScopedTrace;

Tensor num(double v) { return ipt::native::wrapped_scalar_tensor(v); }
D values(const Tensor& t) { return t.defined() ? ipt::to_double_vector(t) : D{}; }

// The message of the ipt::Error that `f` throws ("" if none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ipt::Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// One Autograd instant event, its payload's fields as a map.
struct Ev {
  std::string name;
  std::map<std::string, std::string> f;
};

std::vector<Ev> autograd_instants(const Recorder& rec, std::initializer_list<const char*> names) {
  std::vector<Ev> out;
  for (const Event& e : rec.events()) {
    if (e.category != Category::Autograd || e.phase != ipt::trace::Phase::Instant) continue;
    bool wanted = false;
    for (const char* n : names) wanted = wanted || std::strcmp(e.name, n) == 0;
    if (!wanted) continue;
    Ev ev{e.name, {}};
    if (auto* x = std::get_if<ipt::trace::EngineStep>(&e.payload))
      for (const auto& [k, v] : ipt::trace::payload_fields(*x)) ev.f[k] = v;
    if (auto* g = std::get_if<ipt::trace::GraphNode>(&e.payload))
      for (const auto& [k, v] : ipt::trace::payload_fields(*g)) ev.f[k] = v;
    out.push_back(std::move(ev));
  }
  return out;
}

std::string id_of(const std::shared_ptr<ipt::autograd::Node>& n) { return std::to_string(n->id); }

std::shared_ptr<ipt::autograd::Node> accumulator(const Tensor& leaf) {
  return ipt::autograd::autograd_meta(leaf).grad_accumulator.lock();
}

// ---- accumulation ------------------------------------------------------------------------

TEST(Engine, GradientsAccumulateAcrossBackwardCalls) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}));
  Tensor loss = ops::sum(ops::mul_Tensor(x, x));
  backward(loss, std::nullopt, /*retain_graph=*/true);
  EXPECT_EQ(values(grad_of(x)), (D{2, 4, 6}));
  const Tensor first = grad_of(x);
  backward(loss, std::nullopt, /*retain_graph=*/true);
  EXPECT_EQ(values(grad_of(x)), (D{4, 8, 12}));
  EXPECT_TRUE(grad_of(x).is_same(first)) << "later gradients are added into the same .grad tensor";
  backward(loss, std::nullopt, false);
  EXPECT_EQ(values(grad_of(x)), (D{6, 12, 18}));
  // A fresh graph adds into the existing .grad too.
  backward(ops::sum(ops::mul_Tensor(x, num(10.0))), std::nullopt, false);
  EXPECT_EQ(values(grad_of(x)), (D{16, 22, 28}));
}

TEST(Engine, GradientsFromSeveralUsesAreSummed) {
  Tensor x = leaf(from_values({3}, {0.5, -1, 2}));
  // x*x + 3x + exp(x): three paths into x's AccumulateGrad, one of them twice.
  Tensor y = ops::add_Tensor(ops::add_Tensor(ops::mul_Tensor(x, x), ops::mul_Tensor(x, num(3.0))), ops::exp(x));
  backward(ops::sum(y), std::nullopt, false);
  D g = values(grad_of(x));
  D xv = values(x);
  ASSERT_EQ(g.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(g[i], 2 * xv[i] + 3 + std::exp(xv[i]), 1e-12);

  // A diamond: a feeds two branches that meet again.
  Tensor z = leaf(from_values({2}, {1.5, -2}));
  Tensor a = ops::mul_Tensor(z, num(2.0));
  Tensor b = ops::mul_Tensor(a, a);
  Tensor c = ops::add_Tensor(a, b);  // 2z + 4z^2 -> 2 + 8z
  backward(ops::sum(c), std::nullopt, false);
  EXPECT_EQ(values(grad_of(z)), (D{2 + 8 * 1.5, 2 + 8 * -2.0}));
  // Intermediates keep no gradient.
  EXPECT_FALSE(grad_of(a).defined());
  EXPECT_FALSE(grad_of(b).defined());
}

// The first gradient becomes .grad as a fresh tensor: here it is an expand of a 0-dim
// tensor (stride 0), which must not be kept as is (later gradients are added in place).
TEST(Engine, FirstGradientIsCopiedIntoAFreshTensor) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}));
  Tensor loss = ops::sum(x);
  backward(loss, std::nullopt, true);
  EXPECT_EQ(grad_of(x).strides(), (V{1}));
  backward(loss, std::nullopt, true);
  EXPECT_EQ(values(grad_of(x)), (D{2, 2, 2}));
  // A gradient given by the caller is not aliased either.
  Tensor z = leaf(from_values({2}, {1, 2}));
  Tensor g = from_values({2}, {3, 4});
  backward(z, g, false);
  EXPECT_FALSE(grad_of(z).is_same(g));
  EXPECT_NE(grad_of(z).storage(), g.storage());
  backward(z, g, false);
  EXPECT_EQ(values(g), (D{3, 4}));
  EXPECT_EQ(values(grad_of(z)), (D{6, 8}));
}

// Gradients have the dtype of the tensor they belong to (type promotion in the forward).
TEST(Engine, GradientDtypeFollowsTheLeaf) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}, ipt::ScalarType::Float));
  Tensor z = leaf(from_values({3}, {4, 5, 6}));
  Tensor y = ops::mul_Tensor(x, z);
  ASSERT_EQ(y.dtype(), ipt::ScalarType::Double);
  backward(ops::sum(y), std::nullopt, false);
  EXPECT_EQ(grad_of(x).dtype(), ipt::ScalarType::Float);
  EXPECT_EQ(grad_of(z).dtype(), ipt::ScalarType::Double);
  EXPECT_EQ(values(grad_of(x)), (D{4, 5, 6}));
  EXPECT_EQ(values(grad_of(z)), (D{1, 2, 3}));
}

TEST(Engine, LeavesOffThePathGetNoGradient) {
  Tensor x = leaf(from_values({2}, {1, 2}));
  Tensor unused = leaf(from_values({2}, {3, 4}));
  Tensor plain = from_values({2}, {5, 6});
  backward(ops::sum(ops::mul_Tensor(x, plain)), std::nullopt, false);
  EXPECT_EQ(values(grad_of(x)), (D{5, 6}));
  EXPECT_FALSE(grad_of(unused).defined());
  EXPECT_FALSE(grad_of(plain).defined());
}

// ---- errors --------------------------------------------------------------------------------

TEST(Engine, SavedTensorModifiedInPlaceIsAnError) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}));
  Tensor a = ops::mul_Tensor(x, num(2.0));
  Tensor b = ops::mul_Tensor(a, a);  // saves a (version 0)
  ops::add__Tensor(a, num(1.0));     // a is now at version 1
  EXPECT_EQ(a.impl()->version(), 1u);
  const std::string msg = error_of([&] { backward(ops::sum(b), std::nullopt, false); });
  EXPECT_EQ(msg,
            "one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[torch.DoubleTensor [3]], which is output 0 of Add, is at version 1; expected version 0 "
            "instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
            "with torch.autograd.set_detect_anomaly(True, check_nan=False).");
  EXPECT_FALSE(grad_of(x).defined());

  // A saved output (exp saves its result) modified in place.
  Tensor y = ops::exp(x);
  ops::mul__Tensor(y, num(2.0));
  const std::string msg2 = error_of([&] { backward(ops::sum(y), std::nullopt, false); });
  EXPECT_TRUE(contains(msg2, "modified by an inplace operation: [torch.DoubleTensor [3]]")) << msg2;
  EXPECT_TRUE(contains(msg2, "is at version 1; expected version 0 instead")) << msg2;

  // Modifying a tensor no node saved is fine.
  Tensor c = ops::mul_Tensor(x, num(2.0));
  Tensor d = ops::add_Tensor(c, num(1.0));  // add saves nothing
  ops::mul__Tensor(c, num(3.0));
  backward(ops::sum(d), std::nullopt, false);
  EXPECT_EQ(values(grad_of(x)), (D{2, 2, 2}));
}

// A node saves an input only when a gradient it must compute uses it (PyTorch's codegen
// guards each such save with should_compute_output). mul's `self` is needed only for
// other's gradient: with `other` not requiring grad, `self` is not saved, so changing it in
// place afterwards is no error. The same for div's `self`.
TEST(Engine, OnlyTensorsTheNeededGradientsUseAreSaved) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}));
  const Tensor p = from_values({3}, {4, 5, 6});
  Tensor a = ops::mul_Tensor(x, num(2.0));
  Tensor b = ops::mul_Tensor(a, p);  // MulBackward0 needs p (for a's gradient), not a
  ops::add__Tensor(a, num(1.0));
  EXPECT_EQ(error_of([&] { backward(ops::sum(b), std::nullopt, false); }), "");
  EXPECT_EQ(values(grad_of(x)), (D{8, 10, 12}));

  Tensor z = leaf(from_values({2}, {1, 2}));
  Tensor c = ops::mul_Tensor(z, num(3.0));
  Tensor q = ops::div_Tensor(c, from_values({2}, {2, 4}));  // DivBackward0 needs the divisor, not c
  ops::mul__Tensor(c, num(0.0));
  EXPECT_EQ(error_of([&] { backward(ops::sum(q), std::nullopt, false); }), "");
  EXPECT_EQ(values(grad_of(z)), (D{1.5, 0.75}));
}

// A view used after its base was modified in place, as the root of backward (the path that
// does not go through another operator's inputs): its gradient must flow through the
// in-place op, as in PyTorch (which regenerates the view's grad_fn from the base's history).
TEST(Engine, ViewOfModifiedBaseAsBackwardRoot) {
  Tensor x = leaf(from_values({2, 3}, {1, 2, 3, 4, 5, 6}));
  Tensor w = leaf(from_values({2, 3}, {10, 20, 30, 40, 50, 60}));
  Tensor y = ops::clone(x);
  Tensor v = ops::select_int(y, 0, 1);  // row 1, taken before the in-place op
  ops::mul__Tensor(y, w);               // v now holds x[1] * w[1]
  EXPECT_EQ(values(v), (D{160, 250, 360}));
  const std::string msg = error_of([&] { backward(v, from_values({3}, {1, 1, 1}), false); });
  ASSERT_EQ(msg, "");
  EXPECT_EQ(values(grad_of(x)), (D{0, 0, 0, 40, 50, 60}));
  EXPECT_EQ(values(grad_of(w)), (D{0, 0, 0, 4, 5, 6}));
}

TEST(Engine, SecondBackwardWithoutRetainGraphIsAnError) {
  Tensor x = leaf(from_values({2}, {1, 2}));
  Tensor loss = ops::sum(ops::mul_Tensor(x, x));
  backward(loss, std::nullopt, false);
  EXPECT_EQ(values(grad_of(x)), (D{2, 4}));
  const std::string msg = error_of([&] { backward(loss, std::nullopt, false); });
  EXPECT_TRUE(contains(msg, "Trying to backward through the graph a second time")) << msg;
  EXPECT_TRUE(contains(msg, "Specify retain_graph=True")) << msg;
  EXPECT_EQ(values(grad_of(x)), (D{2, 4})) << "the failed backward must not touch .grad";

  // With retain_graph=true the first time, the second succeeds (and then frees the graph).
  Tensor loss2 = ops::sum(ops::mul_Tensor(x, x));
  backward(loss2, std::nullopt, true);
  backward(loss2, std::nullopt, false);
  EXPECT_EQ(values(grad_of(x)), (D{6, 12}));
  EXPECT_NE(error_of([&] { backward(loss2, std::nullopt, false); }), "");
}

TEST(Engine, InPlaceOnLeafRequiringGradIsAnError) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}));
  EXPECT_EQ(error_of([&] { ops::add__Tensor(x, num(1.0)); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(error_of([&] { ops::mul__Tensor(x, num(2.0)); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(values(x), (D{1, 2, 3}));
  EXPECT_EQ(error_of([&] { ops::add__Tensor(ops::select_int(x, 0, 1), num(1.0)); }),
            "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  // Allowed under no_grad (an optimizer step), and it bumps the version.
  {
    ipt::NoGradGuard no_grad;
    const uint64_t v = x.impl()->version();
    ops::add__Tensor(x, num(1.0));
    EXPECT_EQ(x.impl()->version(), v + 1);
  }
  EXPECT_EQ(values(x), (D{2, 3, 4}));
  EXPECT_TRUE(ipt::autograd::is_leaf(x));
}

TEST(Engine, RootErrors) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}));
  Tensor y = ops::mul_Tensor(x, num(2.0));
  EXPECT_EQ(error_of([&] { backward(y, std::nullopt, false); }),
            "grad can be implicitly created only for scalar outputs");
  EXPECT_EQ(error_of([&] {
              backward(y, from_values({2}, {1, 1}), false);
            }),
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of "
            "torch.Size([3]).");
  EXPECT_FALSE(grad_of(x).defined());
  // With an explicit gradient a non-scalar root is fine: vector-Jacobian product.
  backward(y, from_values({3}, {1, 10, 100}), false);
  EXPECT_EQ(values(grad_of(x)), (D{2, 20, 200}));
  // A root that does not require grad.
  EXPECT_EQ(error_of([&] {
              backward(ops::sum(from_values({2}, {1, 2})), std::nullopt, false);
            }),
            "element 0 of tensors does not require grad and does not have a grad_fn");
  // A 1-element non-0-dim root gets an implicit gradient of ones.
  Tensor z = leaf(from_values({1, 1}, {3}));
  backward(ops::mul_Tensor(z, z), std::nullopt, false);
  EXPECT_EQ(values(grad_of(z)), (D{6}));
  // A leaf root: its own .grad is the gradient.
  Tensor w = leaf(from_values({}, {5}));
  backward(w, std::nullopt, false);
  EXPECT_EQ(values(grad_of(w)), (D{1}));
}

TEST(Engine, NoGradRecordsNothing) {
  Tensor x = leaf(from_values({3}, {1, 2, 3}));
  Recorder rec;
  {
    ScopedTrace trace(rec);
    ipt::NoGradGuard no_grad;
    Tensor y = ops::exp(ops::mul_Tensor(x, x));
    Tensor s = ops::sum(y);
    EXPECT_FALSE(y.requires_grad());
    EXPECT_FALSE(s.requires_grad());
    EXPECT_EQ(ipt::autograd::grad_fn(y), nullptr);
    EXPECT_EQ(ipt::autograd::grad_fn(s), nullptr);
    EXPECT_EQ(error_of([&] { backward(s, std::nullopt, false); }),
              "element 0 of tensors does not require grad and does not have a grad_fn");
  }
  EXPECT_TRUE(autograd_instants(rec, {"node created", "node ready", "grad arrived", "grad written"}).empty());
  int decisions = 0;
  for (const Event& e : rec.events()) {
    if (e.category != Category::Autograd || std::strcmp(e.name, "autograd decision") != 0) continue;
    ++decisions;
    const auto* d = std::get_if<ipt::trace::AutogradDecision>(&e.payload);
    ASSERT_NE(d, nullptr);
    EXPECT_FALSE(d->grad_mode) << d->op;
    EXPECT_FALSE(d->records()) << d->op;
    EXPECT_TRUE(contains(ipt::trace::decision_text(*d), "no graph is recorded")) << d->op;
  }
  EXPECT_GE(decisions, 3);
  EXPECT_FALSE(accumulator(x)) << "no edge to x was ever made";
  // Grad mode is back on after the guard.
  Tensor y = ops::mul_Tensor(x, x);
  EXPECT_TRUE(y.requires_grad());
  ASSERT_NE(ipt::autograd::grad_fn(y), nullptr);
  EXPECT_STREQ(ipt::autograd::grad_fn(y)->name(), "MulBackward0");
}

// ---- the recorded events ------------------------------------------------------------------

// loss = sum(x*x + x): SumBackward0 -> AddBackward0 -> {MulBackward0 -> AccumulateGrad (twice),
// AccumulateGrad}. AccumulateGrad waits for three gradients.
TEST(Engine, RecordsReadyArrivedWrittenAdded) {
  Tensor x = leaf(from_values({1}, {2}));
  Tensor m = ops::mul_Tensor(x, x);
  Tensor a = ops::add_Tensor(m, x);
  Tensor loss = ops::sum(a);
  const auto sum_fn = ipt::autograd::grad_fn(loss);
  const auto add_fn = ipt::autograd::grad_fn(a);
  const auto mul_fn = ipt::autograd::grad_fn(m);
  const auto acc = accumulator(x);
  ASSERT_TRUE(sum_fn && add_fn && mul_fn && acc);
  EXPECT_STREQ(sum_fn->name(), "SumBackward0");
  EXPECT_STREQ(add_fn->name(), "AddBackward0");
  EXPECT_STREQ(mul_fn->name(), "MulBackward0");
  EXPECT_STREQ(acc->name(), "torch::autograd::AccumulateGrad");

  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round == 0 ? "first backward" : "second backward");
    Recorder rec;
    {
      ScopedTrace trace(rec);
      EXPECT_EQ(&Recorder::current(), &rec);
      backward(loss, std::nullopt, /*retain_graph=*/round == 0);
    }
    const auto ev = autograd_instants(rec, {"node ready", "grad arrived", "grad written", "grad added"});
    struct Want {
      const char* name;
      std::string node;
      std::map<std::string, std::string> fields;
    };
    const std::string xid = std::to_string(x.impl()->id());
    const std::vector<Want> want = {
        {"node ready", id_of(sum_fn), {{"name", "SumBackward0"}}},
        {"grad arrived",
         id_of(add_fn),
         {{"from", id_of(sum_fn)}, {"input_nr", "0"}, {"deps_left", "0"}, {"sum", "[1]"}}},
        {"node ready", id_of(add_fn), {{"name", "AddBackward0"}}},
        // AddBackward0's edges in input order: self (MulBackward0), then other (x).
        {"grad arrived", id_of(mul_fn), {{"from", id_of(add_fn)}, {"deps_left", "0"}, {"sum", "[1]"}}},
        {"node ready", id_of(mul_fn), {{"name", "MulBackward0"}}},
        {"grad arrived", id_of(acc), {{"from", id_of(add_fn)}, {"deps_left", "2"}, {"sum", "[1]"}}},
        // MulBackward0 ran next (highest sequence number among the ready nodes).
        {"grad arrived", id_of(acc), {{"from", id_of(mul_fn)}, {"deps_left", "1"}, {"sum", "[3]"}}},
        {"grad arrived", id_of(acc), {{"from", id_of(mul_fn)}, {"deps_left", "0"}, {"sum", "[5]"}}},
        {"node ready", id_of(acc), {{"name", "torch::autograd::AccumulateGrad"}}},
        {round == 0 ? "grad written" : "grad added", id_of(acc), {{"tensor", xid}}},
    };
    ASSERT_EQ(ev.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      SCOPED_TRACE("event " + std::to_string(i) + " (" + want[i].name + ")");
      EXPECT_EQ(ev[i].name, want[i].name);
      EXPECT_EQ(ev[i].f.at("node"), want[i].node);
      for (const auto& [k, v] : want[i].fields) {
        auto it = ev[i].f.find(k);
        ASSERT_NE(it, ev[i].f.end()) << "missing field " << k;
        EXPECT_EQ(it->second, v) << "field " << k;
      }
    }
    // The .grad tensor named in the event is x's .grad.
    EXPECT_EQ(ev.back().f.at("grad_tensor"), std::to_string(grad_of(x).impl()->id()));
    EXPECT_EQ(values(grad_of(x)), (D{round == 0 ? 5.0 : 10.0}));

    // deps_left of each node's arrivals counts down to exactly 0.
    std::map<std::string, std::vector<int>> lefts;
    for (const Ev& e : ev)
      if (e.name == "grad arrived") lefts[e.f.at("node")].push_back(std::stoi(e.f.at("deps_left")));
    for (const auto& [node, l] : lefts) {
      for (size_t i = 0; i < l.size(); ++i) EXPECT_EQ(l[i], static_cast<int>(l.size() - 1 - i)) << "node " << node;
    }

    // The graph event lists every node once with its dependency count; backward is one span.
    int graphs = 0, begins = 0, ends = 0;
    for (const Event& e : rec.events()) {
      if (e.category != Category::Autograd) continue;
      if (std::strcmp(e.name, "autograd graph") == 0) {
        ++graphs;
        const auto& nodes = std::get<ipt::trace::GraphNodes>(e.payload).nodes;
        ASSERT_EQ(nodes.size(), 4u);
        bool saw_acc = false, saw_sum = false;
        for (const auto& n : nodes) {
          if (std::to_string(n.node) == id_of(acc)) {
            saw_acc = true;
            EXPECT_STREQ(n.name, "torch::autograd::AccumulateGrad");
            EXPECT_EQ(n.seq, -1);
            EXPECT_EQ(n.deps, 3);
            ASSERT_EQ(n.leaves.size(), 1u);
            EXPECT_EQ(std::to_string(n.leaves[0].tensor), xid);
          }
          if (std::to_string(n.node) == id_of(sum_fn)) {
            saw_sum = true;
            EXPECT_STREQ(n.name, "SumBackward0");
            EXPECT_EQ(n.deps, 0);
          }
        }
        EXPECT_TRUE(saw_acc && saw_sum);
      }
      if (std::strcmp(e.name, "backward") == 0) (e.phase == ipt::trace::Phase::Begin ? begins : ends)++;
    }
    EXPECT_EQ(graphs, 1);
    EXPECT_EQ(begins, 1);
    EXPECT_EQ(ends, 1);
  }
}

// Ready order: among ready nodes the most recently created runs first; the graph event is
// recorded before any node runs.
TEST(Engine, ReadyQueueRunsLaterNodesFirst) {
  Tensor x = leaf(from_values({2}, {1, 2}));
  Tensor p = ops::exp(x);            // created first
  Tensor q = ops::mul_Tensor(x, x);  // created second
  Tensor loss = ops::sum(ops::add_Tensor(p, q));
  Recorder rec;
  {
    ScopedTrace trace(rec);
    backward(loss, std::nullopt, false);
  }
  std::vector<std::string> ran;
  bool graph_seen = false;
  for (const Event& e : rec.events()) {
    if (e.category != Category::Autograd) continue;
    if (std::strcmp(e.name, "autograd graph") == 0) graph_seen = true;
    if (e.phase == ipt::trace::Phase::Begin && std::strcmp(e.name, "backward") != 0) {
      EXPECT_TRUE(graph_seen);
      ran.push_back(e.name);
    }
  }
  EXPECT_EQ(ran, (std::vector<std::string>{"SumBackward0", "AddBackward0", "MulBackward0", "ExpBackward0",
                                           "torch::autograd::AccumulateGrad"}));
}

// A failing node closes its trace spans (the begin/end pairs stay balanced).
TEST(Engine, ErrorInsideBackwardKeepsTraceBalanced) {
  Tensor x = leaf(from_values({2}, {1, 2}));
  Tensor a = ops::mul_Tensor(x, num(2.0));
  Tensor b = ops::mul_Tensor(a, a);
  ops::add__Tensor(a, num(1.0));
  Recorder rec;
  {
    ScopedTrace trace(rec);
    EXPECT_NE(error_of([&] { backward(ops::sum(b), std::nullopt, false); }), "");
  }
  int depth = 0;
  for (const Event& e : rec.events()) {
    if (e.category != Category::Autograd) continue;
    if (e.phase == ipt::trace::Phase::Begin) ++depth;
    if (e.phase == ipt::trace::Phase::End) --depth;
    EXPECT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
}

// A long chain of nodes (an RNN unrolled over many steps, a long loop of updates): running
// it and freeing it must not recurse once per node. PyTorch frees graphs iteratively
// (deleteNode in torch/csrc/autograd/function.cpp) for this reason. The chain is built, run
// and freed on a thread with a 1 MiB stack, which a per-node recursion overflows long before
// 100,000 nodes (at least ~50 bytes of stack per level) and straight-line code never fills; in
// a child process, so an overflow is reported as a failure instead of ending the run.
void run_on_small_stack(void* (*fn)(void*)) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 20);
  pthread_t th;
  if (pthread_create(&th, &attr, fn, nullptr) != 0) std::exit(3);
  pthread_join(th, nullptr);
  pthread_attr_destroy(&attr);
}

TEST(EngineDeathTest, DeepChainIsRunAndFreedWithoutRecursion) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        run_on_small_stack([](void*) -> void* {
          constexpr int64_t kNodes = 100000;
          Tensor x = leaf(from_values({1}, {1}));
          const Tensor c = from_values({1}, {1.0});
          {
            Tensor y = x;
            for (int64_t i = 0; i < kNodes; ++i) y = ops::mul_Tensor(y, c);
            backward(ops::sum(y), std::nullopt, false);
          }  // the graph is freed here
          {
            Tensor y = x;  // freed without ever running backward
            for (int64_t i = 0; i < kNodes; ++i) y = ops::mul_Tensor(y, c);
          }
          std::exit(values(grad_of(x)) == D{1} ? 0 : 1);
        });
        std::exit(2);
      },
      testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace ipt_test
