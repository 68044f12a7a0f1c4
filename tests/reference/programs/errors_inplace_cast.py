import torch
i = torch.tensor([1, 2, 3])
try:
    i += 1.5
except RuntimeError as e:
    print("RuntimeError:", e)
print(i)
try:
    i.mul_(torch.tensor([0.5, 0.5, 0.5]))
except RuntimeError as e:
    print("RuntimeError:", e)
b = torch.tensor([True, False])
try:
    b.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    i /= 2
except RuntimeError as e:
    print("RuntimeError:", e)
f = torch.tensor([1., 2.])
f += torch.tensor([1.5, 1.5], dtype=torch.float64)
print(f, f.dtype)
