# On the simulated GPU, inductor writes each fused kernel as Triton text and runs its C++
# equivalent on the current stream, as one kernel the device model times; results equal eager's.
# PyTorch 2.15 has no counterpart to compare with (the simulated GPU is this project's; the
# reference has no GPU): expected/sim_gpu.txt is the project's own output, checked by hand. Its
# wrapper follows 2.15's output_code layout; the kernel is declared through
# async_compile.triton(..., cpu_equivalent=...) and launched with .run() on the current stream.
import torch

torch._logging.set_logs(output_code=True)


def f(x, y):
    return ((x + y) * 2.0).relu().sin()


def g(x):
    return (x * x).sum()


torch.manual_seed(0)
x, y = torch.randn(16, 8).cuda(), torch.randn(16, 8).cuda()
r = torch.compile(f)(x, y)
print(r.device, torch.allclose(r.cpu(), f(x, y).cpu(), atol=1e-5))
torch._logging.set_logs(output_code=False)
print(torch.allclose(torch.compile(g)(x).cpu(), g(x).cpu(), rtol=1e-4))
row = torch.randn(8).cuda()
print(torch.allclose(torch.compile(lambda a, b: a * b + 1.0)(x, row).cpu(), (x * row + 1.0).cpu()))
# The kernel is asynchronous, as a launch is: the host returns before the stream has run it.
torch.cuda.synchronize()
print("stream idle after synchronize:", torch.cuda.current_stream().query())
