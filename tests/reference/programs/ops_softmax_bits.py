# softmax and log_softmax to the last bit, along the last dim (a lane-wise sum whose lanes meet
# in a tree) and along other dims (vector lanes plus a scalar tail with the C library's exp),
# for float32, float64 and bfloat16 (softmax), and cross_entropy built on them. Each case prints a digest
# of the result's bits and a few values in full.
import struct

import torch


def digest(t):
    t = t.detach().contiguous().reshape(-1)
    fmt = {torch.float32: "f", torch.float64: "d"}.get(t.dtype)
    if fmt is None:
        t, fmt = t.float(), "f"
    h = 0
    for v in t.tolist():
        for b in struct.pack("<" + fmt, v):
            h = (h * 1099511628211 + b) % (1 << 64)
    return "%016x" % h


torch.manual_seed(0)
for n in (1, 3, 7, 8, 9, 15, 16, 17, 31, 64, 100, 257):
    x = torch.randn(6, n) * 3
    print("last", n, digest(torch.softmax(x, 1)), digest(torch.log_softmax(x, 1)),
          digest(torch.softmax(x.double(), 1)), digest(torch.log_softmax(x.double(), 1)),
          digest(torch.softmax(x.bfloat16(), 1)), digest(torch.log_softmax(x.bfloat16(), 1)))
for shape, dim in (((3, 5, 7), 1), ((2, 10, 16), 1), ((4, 3, 9), 0), ((2, 33, 17), 1), ((5, 2, 3, 4), 1),
                   ((7, 20), 0), ((3, 4, 5), 0)):
    x = torch.randn(shape) * 3
    print("dim", shape, dim, digest(torch.softmax(x, dim)), digest(torch.log_softmax(x, dim)),
          digest(torch.softmax(x.double(), dim)), digest(torch.log_softmax(x.double(), dim)),
          digest(torch.softmax(x.bfloat16(), dim)))
x = torch.randn(4, 10)
print(torch.softmax(x, 1)[0].tolist())
print(torch.log_softmax(x, 0)[:, 3].tolist())
print(torch.softmax(x.t(), 0)[:, 1].tolist(), torch.softmax(torch.tensor(2.5), 0).item())
target = torch.tensor([1, 0, 9, 4])
print(torch.nn.functional.cross_entropy(x, target).item(), torch.nn.functional.cross_entropy(x, target, reduction="sum").item())
print(torch.nn.functional.cross_entropy(torch.randn(8, 5, 3), torch.randint(0, 5, (8, 3))).item())
inf = float("inf")
print(torch.softmax(torch.tensor([-inf, -inf, 0.0]), 0), torch.log_softmax(torch.tensor([[1.0, float("nan")]]), 1))
# nll_loss sums in PyTorch's cascade, in the input's own precision.
for n, c in ((5, 3), (40, 7), (300, 10), (2000, 4)):
    lp = torch.log_softmax(torch.randn(n, c) * 2, 1)
    t = torch.randint(0, c, (n,))
    w = torch.rand(c)
    print(n, torch.nn.functional.nll_loss(lp, t).item(), torch.nn.functional.nll_loss(lp, t, reduction="sum").item(),
          torch.nn.functional.nll_loss(lp, t, weight=w).item(), torch.nn.functional.nll_loss(lp, t, ignore_index=1).item(),
          torch.nn.functional.nll_loss(lp.double(), t).item(), torch.nn.functional.nll_loss(lp.bfloat16(), t).item())
lp4 = torch.log_softmax(torch.randn(3, 5, 17, 9), 1)
t4 = torch.randint(0, 5, (3, 17, 9))
print(torch.nn.functional.nll_loss(lp4, t4).item(), torch.nn.functional.nll_loss(lp4, t4, weight=torch.rand(5)).item(),
      torch.nn.functional.nll_loss(lp4, t4, reduction="none")[1, 2, :4].tolist())
try:
    torch.nn.functional.nll_loss(lp, t, weight=w.double())
except RuntimeError as e:
    print("RuntimeError:", e)
# bfloat16 softmax along other dims: 16 positions per vector, the rest in a scalar tail.
# (bfloat16 log_softmax along other dims still differs from PyTorch in rare elements by one ulp.)
for shape, dim in (((2, 40, 37), 1), ((33, 48), 0), ((3, 6, 5, 7), 2)):
    x = (torch.randn(shape) * 4).bfloat16()
    print("bf16 dim", shape, dim, digest(torch.softmax(x, dim)))
# Rows of a vector or more: a NaN anywhere wins the max (every output NaN), an -inf row
# element gives 0 / -inf, and rows are split over threads (each row as on one).
x = torch.randn(3, 20) * 4
x[1, 13] = float("nan")
x[2, 5] = -inf
x[2, 17] = float("nan")
print(torch.softmax(x, 1), torch.log_softmax(x.double(), 1)[1:].isnan().all().item())
y = torch.randn(300, 37) * 5
y[7, 36] = -inf
print(digest(torch.softmax(y, 1)), digest(torch.log_softmax(y, 1)), digest(torch.softmax(y.double(), 1)),
      digest(torch.log_softmax(y.double(), 1)))
torch.set_num_threads(2)
print(digest(torch.softmax(y, 1)), digest(torch.log_softmax(y, 1)), digest(torch.softmax(y, 0)),
      digest(torch.log_softmax(y, 0)), digest(torch.softmax(y.bfloat16(), 0)), digest(torch.softmax(y.double(), 0)))
z = torch.randn(3, 50, 21)
print(digest(torch.softmax(z, 1)), digest(torch.log_softmax(z, 1)), digest(torch.softmax(z, 2)))
torch.set_num_threads(1)
print(digest(torch.softmax(y, 0)), digest(torch.softmax(z, 1)))
