# amax / amin over any dims (NaN wins, dim=[] is every dim, PyTorch's errors for empty inputs
# and repeated dims) and logsumexp as PyTorch 2.15 composes it (max subtracted before exp and added
# back after log, an infinite max replaced by 0, integers as the default float), with their
# gradients (amax's split evenly between ties). Large inputs at 1 and 2 threads, contiguous,
# transposed and strided, are printed as digests of their bits (logsumexp's rounded).
import hashlib
import struct

import torch

x = torch.tensor([[1.0, 5.0, 3.0], [float("nan"), 2.0, -1.0]])
print(x.amax(), x.amax(1), x.amin(0), x.amax((0, 1)), x.amax(-1, keepdim=True), torch.amin(x, dim=[1]))
print(torch.tensor([[1, 7], [3, 2]]).amax(0), torch.tensor([True, False]).amin(), torch.tensor(3.).amax(),
      torch.tensor(3.).amax(0), torch.tensor([[1, 7], [3, 2]], dtype=torch.int32).amin(1), x.half().amax(0))
for f in (lambda: torch.zeros(2, 0).amax(1), lambda: torch.zeros(0).amax(), lambda: x.amax(2),
          lambda: x.amax((1, 1)), lambda: torch.zeros(2, 0).amax(0), lambda: torch.zeros(0, 3).amin(dim=0)):
    try:
        print(f())
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
y = torch.tensor([[0.5, 1.5, -2.0], [100.0, 100.0, -float("inf")], [-float("inf")] * 3])
print(torch.logsumexp(y, 1), y.logsumexp(1, keepdim=True), torch.logsumexp(y, (0, 1)),
      torch.logsumexp(torch.tensor([[1, 2], [3, 4]]), 0))
print(torch.logsumexp(torch.tensor([float("inf"), 1.0]), 0), torch.logsumexp(torch.zeros(2, 0), 1),
      torch.logsumexp(torch.zeros(0, 2), 0), torch.logsumexp(y.double(), -1))
a = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.5, 1.0]], requires_grad=True)
a.amax(1).sum().backward()
print(a.grad)
a.grad = None
torch.logsumexp(a, 1).sum().backward()
print(a.grad)
a.grad = None
a.amin().backward()
print(a.grad)
a.grad = None
(a.amax((0, 1), keepdim=True) * 2).sum().backward()
print(a.grad, type(torch.logsumexp(a, 1).grad_fn).__name__, type(a.amax(0).grad_fn).__name__,
      type(a.amin(0).grad_fn).__name__)


def digest(t):
    t = t.contiguous().flatten().double()
    return hashlib.md5(struct.pack("%dd" % t.numel(), *t.tolist())).hexdigest()[:16]


# 2.15 computes exp and log with MKL's VML (see ops_elementwise_vml_float32): logsumexp's last
# bits are not reproducible, so it is compared to 4 decimals.
def rounded(t):
    values = [round(v, 4) for v in t.flatten().tolist()]
    return hashlib.md5(repr(values).encode()).hexdigest()[:16]


for threads in (1, 2):
    torch.set_num_threads(threads)
    v = (torch.arange(300 * 400, dtype=torch.float32) * 0.618034 % 1.0 - 0.5).reshape(300, 400)
    print(threads, v.amax().item(), v.amin().item(), digest(v.amax(1)), digest(v.amin(0)), digest(v.t().amax(1)),
          digest(v[:, ::3].amax(0)), rounded(torch.logsumexp(v, 1)), rounded(torch.logsumexp(v, 0)),
          rounded(torch.logsumexp(v.t(), 1)), round(torch.logsumexp(v, (0, 1)).item(), 4))
