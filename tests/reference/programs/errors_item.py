import torch
x = torch.arange(3.)
try:
    x.item()
except ValueError as e:
    print("ValueError:", e)
try:
    torch.zeros(0).item()
except ValueError as e:
    print("ValueError:", e)
print(torch.ones(1, 1, 1).item())
print(torch.tensor([7]).item())
