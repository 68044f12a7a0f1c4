# torch.rand and uniform_ after manual_seed: PyTorch's values, bit for bit.
import torch
torch.manual_seed(0)
print(torch.rand(3))
print(torch.rand(3).tolist())
print(torch.rand(2, 3, dtype=torch.float64).tolist())
print(torch.rand(20).tolist())
t = torch.empty(3, 4).t()          # a transposed tensor is filled in memory order
t.uniform_()
print(t.tolist())
print(torch.empty(5).uniform_(-0.3, 1.9).tolist())
print(torch.empty(4, dtype=torch.float64).uniform_(-2, 3).tolist())
print(torch.rand_like(torch.zeros(2, 2)).tolist())
print(torch.empty(2, 6)[:, ::2].uniform_().tolist())
torch.manual_seed(42)
print(torch.rand(4, 4))
print(torch.rand(5, dtype=torch.float16))
