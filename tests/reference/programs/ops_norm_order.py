# p-norms in PyTorch's order and precision: float32 2-norms of a contiguous row in its 8-lane
# vectorized loop, other p and float64 one accumulator in row order; Tensor.norm / torch.norm over
# dims, and "fro".
import torch
torch.manual_seed(0)
for n in (3, 8, 17, 100, 1000, 10007):
    x = torch.randn(n)
    print(n, x.norm().item(), x.norm(1).item(), x.norm(3).item(), x.cumsum(0)[-1].item(), x.double().norm().item(), x.std().item(), x.var().item())
m = torch.randn(37, 50)
print(m.norm(dim=1)[:4].tolist(), m.norm(dim=0)[:4].tolist(), m.sum(1)[:3].tolist(), m.mean(0)[:3].tolist())
m = torch.randn(37, 50)
print(m.norm(dim=1)[:4].tolist(), m.norm(dim=0)[:4].tolist(), m.norm(p=1, dim=1, keepdim=True).shape)
print(m.norm(p="fro").item(), m.norm(p="fro", dim=(0, 1)).item(), torch.norm(m, 3).item(), m.norm(float("inf")).item())
w = torch.randn(3, 4, requires_grad=True)
print(w.norm().grad_fn.name(), w.norm(dim=1).grad_fn.name(), w.norm(p="fro", dim=(0, 1)).grad_fn.name())
