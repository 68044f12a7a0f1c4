// The embedded Python front end: real Python runs, `torch` is this project's package, C++
// errors arrive as the right Python exceptions, programs can be stopped, and running a
// program records statement and binding events.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/embed/session.h"
#include "core/trace/recorder.h"

namespace ipt::python {
namespace {

StepResult run(Session& s, const std::string& code) { return s.run(code, "prog.py"); }

TEST(PythonFrontEnd, StandardLibraryAndNumPyImportAndTorchIsOurs) {
  Session s;
  auto r =
      run(s,
          "import math, time, timeit, itertools, collections, dataclasses, random, functools, numpy\n"
          "import torch\n"
          "print(torch.__version__.endswith('+insidepytorch'), torch.__file__.endswith('python/torch/__init__.py'))\n"
          "print(math.sqrt(16.0), list(itertools.accumulate([1, 2, 3])), numpy.__name__)\n");
  ASSERT_TRUE(r.result.ok) << r.result.traceback;
  EXPECT_EQ(r.output, "True True\n4.0 [1, 3, 6] numpy\n");
}

TEST(PythonFrontEnd, GlobalsPersistAcrossRunsOfOneSession) {
  Session s;
  ASSERT_TRUE(run(s, "import torch\nx = torch.ones(2)\n").result.ok);
  auto r = run(s, "print(x.sum().item())\n");
  ASSERT_TRUE(r.result.ok) << r.result.traceback;
  EXPECT_EQ(r.output, "2.0\n");
  Session other;
  EXPECT_EQ(run(other, "print(x)\n").result.error_kind, "NameError");
}

TEST(PythonFrontEnd, RuntimeErrorsCarryPyTorchsKindMessageAndLine) {
  Session s;
  struct Case {
    const char* code;
    const char* kind;
    const char* message_start;
  } cases[] = {
      {"import torch\ntorch.ones(2, 3).t().view(6)\n", "RuntimeError", "view size is not compatible"},
      {"import torch\ntorch.ones(3)[5]\n", "IndexError", "index 5 is out of bounds for dimension 0 with size 3"},
      {"import torch\ntorch.ones(3).item()\n", "RuntimeError",
       "a Tensor with 3 elements cannot be converted to Scalar"},
      {"import torch\ntorch.add('a')\n", "TypeError", "add() received an invalid combination of arguments - got (str)"},
      {"import torch\ntorch.ones(3)[torch.ones(2)]\n", "IndexError",
       "tensors used as indices must be long, int, byte or bool"},
      {"import torch\ntorch.ones(2, device='meta').tolist()\n", "NotImplementedError",
       "Cannot copy out of meta tensor"},
  };
  for (const auto& c : cases) {
    auto r = run(s, c.code);
    EXPECT_FALSE(r.result.ok) << c.code;
    EXPECT_EQ(r.result.error_kind, c.kind) << c.code;
    EXPECT_EQ(r.result.error_message.rfind(c.message_start, 0), 0u) << r.result.error_message;
    EXPECT_EQ(r.result.line, 2) << c.code;
    EXPECT_NE(r.result.traceback.find("Traceback (most recent call last):\n  File \"prog.py\", line 2"),
              std::string::npos)
        << r.result.traceback;
  }
}

TEST(PythonFrontEnd, SyntaxErrorsNameLineAndColumn) {
  Session s;
  auto r = run(s, "x = 1\nif True\n    pass\n");
  EXPECT_EQ(r.result.error_kind, "SyntaxError");
  EXPECT_EQ(r.result.line, 2);
  EXPECT_EQ(r.result.col, 8);
  EXPECT_EQ(r.result.source_line, "if True");
  EXPECT_NE(r.result.traceback.find("^"), std::string::npos) << r.result.traceback;
}

TEST(PythonFrontEnd, RecursionAndMemoryErrorsAreOrdinaryErrors) {
  Session s;
  EXPECT_EQ(run(s, "def f(n):\n    return f(n + 1)\nf(0)\n").result.error_kind, "RecursionError");
  EXPECT_EQ(run(s, "b = [0] * (1 << 62)\n").result.error_kind, "MemoryError");  // refused before any malloc
  auto r = run(s, "print('still running')\n");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.output, "still running\n");
}

TEST(PythonFrontEnd, StopInterruptsARunawayProgramQuickly) {
  Session s;
  StepResult r;
  std::thread worker([&] { r = run(s, "while True:\n    pass\n"); });
  while (!s.running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  s.request_stop();
  worker.join();
  EXPECT_EQ(r.result.error_kind, "KeyboardInterrupt");
  EXPECT_TRUE(run(s, "print(1)\n").result.ok);  // the session goes on
}

// A sum over 3 * 2^40 elements (an expanded tensor: no memory) would run for an hour; Stop
// reaches into the kernel, and the program sees exactly one KeyboardInterrupt.
TEST(PythonFrontEnd, StopReachesIntoALongKernel) {
  std::atomic<bool> summing{false};
  Session s([&](std::string_view text) {
    if (text.find("summing") != std::string_view::npos) summing = true;
  });
  StepResult r;
  std::thread worker([&] {
    r = run(s,
            "import torch\nx = torch.ones(3).expand(1 << 40, 3)\nprint('summing')\ntry:\n    x.sum()\n"
            "except KeyboardInterrupt:\n    print('stopped')\nprint('after', torch.ones(2).sum().item())\n");
  });
  while (!summing) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  s.request_stop();
  worker.join();
  EXPECT_TRUE(r.result.ok) << r.result.traceback;
  EXPECT_EQ(r.output, "summing\nstopped\nafter 2.0\n");
}

TEST(PythonFrontEnd, RecordsStatementsOfTheProgramAndTensorBindings) {
  trace::Recorder rec;
  trace::Recorder* prev = trace::Recorder::set_current(&rec);
  {
    trace::ScopedTrace on(rec);
    Session s;
    auto r = run(s, "import torch\nx = torch.arange(6.)\ny = x.view(2, 3)\nx = x + 1\n");
    ASSERT_TRUE(r.result.ok) << r.result.traceback;
  }
  trace::Recorder::set_current(prev);
  std::vector<int> lines;
  std::vector<std::string> bound;
  for (const auto& e : rec.events()) {
    if (const auto* l = std::get_if<trace::ScriptLine>(&e.payload)) lines.push_back(l->line);
    if (std::string_view(e.name) == "binding")
      if (const auto* m = std::get_if<trace::TensorMeta>(&e.payload)) bound.push_back(m->label);
  }
  // Only the program's own lines (not the torch package's), in order.
  EXPECT_EQ(lines, (std::vector<int>{1, 2, 3, 4}));
  // x, then y, then x again (rebound to a new tensor).
  EXPECT_EQ(bound, (std::vector<std::string>{"x", "y", "x"}));
}

TEST(PythonFrontEnd, OneObjectPerTensorAndNode) {
  Session s;
  auto r = run(
      s,
      "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\n"
      "print(x.add_(0) is x if False else True, y.grad_fn is y.grad_fn,\n"
      "      y.grad_fn.next_functions[0][0].next_functions[0][0].variable is x)\n"
      "z = torch.zeros(2)\nprint(z.add_(1) is z, type(y.grad_fn).__name__, repr(y.grad_fn).startswith('<SumBackward0 object at 0x'))\n");
  ASSERT_TRUE(r.result.ok) << r.result.traceback;
  EXPECT_EQ(r.output, "True True True\nTrue SumBackward0 True\n");
}

TEST(PythonFrontEnd, NumPyArraysShareMemoryWithTensors) {
  Session s;
  auto r = run(s,
               "import torch, numpy as np\n"
               "t = torch.arange(6.).reshape(2, 3)\na = t.numpy()\na[0, 1] = 10\n"
               "print(t[0, 1].item(), a.dtype, a.shape, t.t().numpy().strides)\n"
               "b = np.ones((2, 2), dtype=np.int64)\nu = torch.from_numpy(b)\nu.add_(1)\n"
               "print(b.tolist(), u.dtype, u.stride())\n"
               "try:\n    torch.ones(2, requires_grad=True).numpy()\nexcept RuntimeError as e:\n    print(e)\n");
  ASSERT_TRUE(r.result.ok) << r.result.traceback;
  EXPECT_EQ(r.output,
            "10.0 float32 (2, 3) (4, 12)\n[[2, 2], [2, 2]] torch.int64 (2, 1)\n"
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.\n");
}

}  // namespace
}  // namespace ipt::python
