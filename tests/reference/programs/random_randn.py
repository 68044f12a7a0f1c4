# torch.randn and normal_: Box-Muller on PyTorch's draws, with its separate path for 16 or more
# contiguous elements (and the last 16 drawn again when the size is not a multiple of 16).
import torch
torch.manual_seed(0)
print(torch.randn(3))
for n in (1, 3, 15, 16, 17, 20, 33):
    print(n, torch.randn(n).tolist())
for n in (3, 16, 21):
    print(n, torch.randn(n, dtype=torch.float64).tolist())
print(torch.randn(4, 5))
print(torch.empty(5, 4).t().normal_().tolist())       # not contiguous: one value at a time
print(torch.empty(40).normal_(0.3, 2.5).tolist())
print(torch.empty(5).normal_(0.3, 2.5).tolist())
print(torch.empty(18, dtype=torch.float64).normal_(-1, 0.5).tolist())
print(torch.normal(2.0, 3.0, size=(5,)).tolist())
print(torch.normal(torch.arange(4.), 0.5).tolist())
print(torch.normal(1.0, torch.arange(1., 4.)).tolist())
print(torch.normal(torch.zeros(3), torch.ones(3)).tolist())
print(torch.randn_like(torch.zeros(2, 3)).tolist())
torch.manual_seed(1)
x = torch.randn(1000)
print(x.sum().item(), x.mean().item(), x.std().item())
print(torch.randn(3, 3, dtype=torch.float64))
# Every bit of large draws: a digest of the float32 / float64 values.
import hashlib
import struct
def digest(t, fmt):
    v = t.reshape(-1).tolist()
    return hashlib.sha256(struct.pack("<%d%s" % (len(v), fmt), *v)).hexdigest()[:16]
torch.manual_seed(0)
print(digest(torch.randn(30000), "f"), digest(torch.empty(30001).normal_(0.3, 2.5), "f"))
print(digest(torch.randn(20000, dtype=torch.float64), "d"), digest(torch.rand(20000), "f"))
print(digest(torch.empty(150, 100).t().normal_(), "f"))
