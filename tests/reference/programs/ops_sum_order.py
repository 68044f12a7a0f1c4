# float32 sums in PyTorch's order (its cascade sum: per vector lane, four interleaved partial
# sums, levels every 2^p additions), so print(t.sum().item()) gives PyTorch's full repr.
import torch
torch.manual_seed(0)
for n in (1, 7, 8, 9, 33, 100, 1000, 4097, 100003):
    x = torch.randn(n)
    print(n, x.sum().item(), x.mean().item(), x.double().sum().item())
m = torch.randn(5, 37)
print(m.sum(-1).tolist(), m.sum(1, keepdim=True).shape, m.mean(1).tolist())
print(m.sum(0).tolist())
print(torch.randn(3, 1000).sum(1).tolist())
print(torch.randn(100, 5).sum(0).tolist(), torch.randn(100, 40).sum(0).tolist())
print(torch.randn(37, 300).sum(0)[:12].tolist(), torch.randn(37, 300).mean(0)[-5:].tolist())
print(torch.randn(4, 5, 6).sum((1, 2)).tolist(), torch.randn(4, 5, 6).sum((0, 1)).tolist())
print(torch.rand(2000, dtype=torch.float64).sum().item(), (torch.rand(300) * 1e6).sum().item())
print(torch.randn(1000).sum())
# Any dims over any strides: TensorIterator's loop order (reduced dims innermost, then by
# stride; mergeable neighbours merged), for float32 and float64, sum and mean.
import itertools
import struct
g = torch.Generator().manual_seed(7)
h = 0
cases = 0
for shape in ((7, 33, 65), (4, 5, 6, 7), (40, 3, 9), (2, 300, 5), (16, 17), (3, 1, 70, 2)):
    base = torch.randn(shape, generator=g)
    views = [base, base.transpose(0, -1), base.permute(*reversed(range(base.dim()))), base[..., ::2],
             base.transpose(0, 1)[:, 1:]]
    for v in views:
        for r in range(1, v.dim() + 1):
            for dims in itertools.combinations(range(v.dim()), r):
                for t in (v, v.double()):
                    for f in (t.sum, t.mean):
                        for x in f(dims).reshape(-1).tolist():
                            for b in struct.pack("<d", x):
                                h = (h * 1099511628211 + b) % (1 << 64)
                        cases += 1
print(cases, "reductions, digest %016x" % h)
print(base.transpose(1, 2).sum((0, 1))[:3].tolist(), base.double()[:, :, ::3].mean(2)[0, 0].tolist())
