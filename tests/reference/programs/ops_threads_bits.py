# Pointwise kernels and sums split over 1 and 2 threads give PyTorch's bits at each count: the
# elements go to threads in PyTorch's chunks, sigmoid's vectors start at each chunk's first
# element (so one element of 100003 differs between the two counts, in PyTorch as here), and a
# sum to one value adds one partial per thread (two_pass_reduction). Sizes cross the vector width
# and the grain (32768); inputs are contiguous, transposed, strided and broadcast. Each tensor
# result is printed as a digest of its float32 bits. pow with the exponents 0.5, 2, 3, -0.5, -1 and
# -2 is PyTorch's sqrt / multiplications / divisions, not a call of pow.
import hashlib
import struct

import torch


def digest(x):
    x = x.contiguous().flatten()
    return hashlib.md5(struct.pack("%df" % x.numel(), *x.tolist())).hexdigest()[:16]


def values(n):
    return (torch.arange(n, dtype=torch.float32) % 1001 - 500) / 97.0


for threads in (1, 2):
    torch.set_num_threads(threads)
    print("threads", torch.get_num_threads())
    for n in (1, 15, 16, 17, 2049, 32768, 32769, 100003):
        a = values(n)
        b = (a * -0.3 + 1.0) % 2.5 + 0.5
        print(n, digest(a + b), digest(torch.sub(a, b, alpha=0.7)), digest(a * 2.5), digest(a / b),
              digest(torch.sigmoid(a)), digest(torch.addcmul(a, b, a, value=0.25)), digest(a.relu()))
        # pow's exponents that PyTorch computes without pow, and clamp
        print("  pow", digest(a.pow(2)), digest(a.pow(3)), digest(b.pow(0.5)), digest(b.pow(-0.5)), digest(b.pow(-1)),
              digest(b.pow(-2)), digest(a - b), digest(a.clamp(-0.5, 0.5)), digest(a.double().pow(3).float()))
    m = values(301 * 257).reshape(301, 257)
    row = values(257)
    col = values(301).reshape(301, 1)
    print("2-D", digest(m.t() + m.t()), digest(m * row), digest(m - col), digest(torch.sigmoid(m.t())),
          digest(m[:, 1::2] / 3.0))
    x = m.clone()
    x.t().add_(1.5)
    print("in place", digest(x))
    for n in (32767, 32768, 32769, 100003, 1 << 20):
        a = values(n) + 0.001
        print("sum", n, a.sum().item(), a.mean().item(), a.double().sum().item())
    m = values(1024 * 999).reshape(1024, 999) + 0.001
    print("sum 2-D", m.sum().item(), digest(m.sum(1)), digest(m.sum(0)), m.t().sum().item(), m[:, ::2].sum().item())
    d = values(40000).double()
    print("float + double", digest((a[:1] + d).float()), digest(torch.sigmoid(d).float()))
