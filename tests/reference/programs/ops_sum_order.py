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
