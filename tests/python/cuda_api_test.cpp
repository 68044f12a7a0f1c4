// torch.cuda on the simulated GPU, from Python: tensors on "cuda" compute what the CPU does,
// with CUDA's key sets; events time work on the modeled clock and refuse to before it is done;
// streams order work through events; the caching allocator's state reads as PyTorch's.
#include <gtest/gtest.h>

#include "core/embed/session.h"
#include "core/trace/recorder.h"

namespace ipt::python {
namespace {

std::string run_ok(const std::string& code) {
  Session s;
  auto r = s.run(code, "prog.py");
  EXPECT_TRUE(r.result.ok) << r.result.traceback;
  return r.output;
}

TEST(CudaApi, TensorsOnTheSimulatedGpuComputeAsOnTheCpu) {
  EXPECT_EQ(run_ok("import torch\n"
                   "print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.get_device_name())\n"
                   "a = torch.arange(6.).reshape(2, 3)\n"
                   "g = a.cuda()\n"
                   "print(g.device, g.is_cuda, torch._C._dispatch_keys(g))\n"
                   "r = (g * 2 + g - 1).relu() @ g.t()\n"
                   "print(torch.equal(r.cpu(), (a * 2 + a - 1).relu() @ a.t()))\n"
                   "g.add_(1)\n"
                   "print(g, g.sum().item())\n"
                   "print((g + 1.5).to('cpu'))\n"),
            "True 1 NVIDIA H200 (simulated)\n"
            "cuda:0 True DispatchKeySet(CUDA, ADInplaceOrView, AutogradCUDA, AutocastCUDA)\n"
            "True\n"
            "tensor([[1., 2., 3.],\n        [4., 5., 6.]], device='cuda:0') 21.0\n"
            "tensor([[2.5000, 3.5000, 4.5000],\n        [5.5000, 6.5000, 7.5000]])\n");
}

TEST(CudaApi, MixingDevicesIsPyTorchsError) {
  Session s;
  auto r = s.run("import torch\ntorch.ones(2, device='cuda') + torch.ones(2)\n", "prog.py");
  EXPECT_EQ(r.result.error_kind, "RuntimeError");
  EXPECT_NE(
      r.result.error_message.find("Expected all tensors to be on the same device, but found at least two devices, "
                                  "cuda:0 and cpu!"),
      std::string::npos)
      << r.result.error_message;
  // A CPU scalar goes along, as in PyTorch.
  EXPECT_EQ(run_ok("import torch\nprint((torch.ones(2, device='cuda') * torch.tensor(3.)).cpu())\n"),
            "tensor([3., 3.])\n");
}

TEST(CudaApi, EventsTimeTheModeledWork) {
  // On the modeled clock the host's time is the model's too (Note [The modeled clock]).
  trace::Recorder::current().set_clock(trace::ClockKind::Modeled);
  struct Restore {
    ~Restore() { trace::Recorder::current().set_clock(trace::ClockKind::Measured); }
  } restore;
  // mm 1024^3 in FP32 at 66.9 TFLOP/s: 32.1 us + 2 us of latency, after the 5 us launch;
  // in TF32 at 494.7 TFLOP/s: 4.3 us + 2 us.
  EXPECT_EQ(run_ok("import torch\n"
                   "a = torch.ones(1024, 1024, device='cuda')\n"
                   "start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n"
                   "start.record(); b = a @ a; end.record()\n"
                   "try:\n"
                   "    start.elapsed_time(end)\n"
                   "except RuntimeError as e:\n"
                   "    print(e)\n"
                   "print(end.query())\n"
                   "end.synchronize()\n"
                   "print(end.query(), round(start.elapsed_time(end), 4))\n"
                   "torch.set_float32_matmul_precision('high')\n"
                   "print(torch.backends.cuda.matmul.allow_tf32)\n"
                   "start.record(); b = a @ a; end.record(); torch.cuda.synchronize()\n"
                   "print(round(start.elapsed_time(end), 4))\n"
                   "torch.backends.cuda.matmul.allow_tf32 = False\n"
                   "never = torch.cuda.Event(enable_timing=True)\n"
                   "try:\n"
                   "    start.elapsed_time(never)\n"
                   "except ValueError as e:\n"
                   "    print(e)\n"
                   "print(b[0, 0].item())\n"),
            "Both events must be completed before calculating elapsed time.\n"
            "False\n"
            "True 0.2891\n"
            "True\n"
            "0.0113\n"
            "Both events must be recorded before calculating elapsed time.\n"
            "1024.0\n");
}

TEST(CudaApi, StreamsAreOrderedByEvents) {
  EXPECT_EQ(
      run_ok("import torch\n"
             "s = torch.cuda.Stream()\n"
             "print(s != torch.cuda.default_stream(), torch.cuda.current_stream() == torch.cuda.default_stream())\n"
             "x = torch.ones(512, 512, device='cuda')\n"
             "for _ in range(20):\n"
             "    x = x @ x / 512\n"
             "s.wait_stream(torch.cuda.current_stream())\n"
             "with torch.cuda.stream(s):\n"
             "    print(torch.cuda.current_stream() == s)\n"
             "    y = x + 1\n"
             "print(torch.cuda.current_stream() == torch.cuda.default_stream())\n"
             "s.synchronize()\n"
             "print(s.query(), y[0, 0].item())\n"),
      "True True\nTrue\nTrue\nTrue 2.0\n");
}

TEST(CudaApi, TheCachingAllocatorReadsAsPyTorchs) {
  EXPECT_EQ(
      run_ok(
          "import torch\n"
          "torch.cuda.synchronize(); torch.cuda.empty_cache()\n"
          "base = torch.cuda.memory_allocated()\n"
          "a = torch.empty(1000, device='cuda')\n"  // 4000 bytes, rounded to 4096
          "print(torch.cuda.memory_allocated() - base)\n"
          "s = torch.cuda.Stream()\n"
          "with torch.cuda.stream(s):\n"
          "    b = a * 2\n"
          "a.record_stream(s)\n"
          "del a\n"
          "states = [blk['state'] for seg in torch.cuda.memory._snapshot()['segments'] for blk in seg['blocks']]\n"
          "print('active_pending_free' in states)\n"
          "torch.cuda.synchronize(); torch.cuda.empty_cache()\n"
          "del b\n"
          "torch.cuda.empty_cache()\n"
          "print(torch.cuda.memory_allocated() - base, torch.cuda.memory_reserved())\n"
          "actions = [t['action'] for t in torch.cuda.memory._snapshot()['device_traces'][0]]\n"
          "print(all(k in actions for k in ['alloc', 'free_requested', 'free_completed', 'segment_alloc', 'segment_free']))\n"),
      "4096\nTrue\n0 0\nTrue\n");
}

}  // namespace
}  // namespace ipt::python
