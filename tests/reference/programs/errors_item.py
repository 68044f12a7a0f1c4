import torch
x = torch.arange(3.)
try:
    x.item()
except (RuntimeError, ValueError) as e:
    print(type(e).__name__ + ":", e)
try:
    torch.zeros(0).item()
except (RuntimeError, ValueError) as e:
    print(type(e).__name__ + ":", e)
print(torch.ones(1, 1, 1).item())
print(torch.tensor([7]).item())
