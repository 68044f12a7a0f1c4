import torch
a = torch.ones(2, 3)
b = torch.ones(4)
try:
    a + b
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(3, 1) * torch.ones(2, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    a.add_(torch.ones(3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(3).add_(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
print(a)
