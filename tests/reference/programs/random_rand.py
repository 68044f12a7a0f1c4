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
# float16: PyTorch's transforms in float with the half's 11 bits of mantissa.
torch.manual_seed(0)
print(torch.randn(20, dtype=torch.float16).tolist())
print(torch.randn(5, dtype=torch.float16).tolist(), torch.rand(5, dtype=torch.float16).tolist())
print(torch.empty(20, dtype=torch.float16).normal_(1.5, 0.5).tolist())
print(torch.empty(4, dtype=torch.float16).exponential_().tolist(), torch.empty(4, dtype=torch.float16).random_().tolist())
try:
    torch.multinomial(torch.tensor([0.2, 0.3, 0.5], dtype=torch.float16), 2)
except RuntimeError as e:
    print("RuntimeError:", e)
