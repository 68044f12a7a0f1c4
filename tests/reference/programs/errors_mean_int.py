import torch
i = torch.arange(6).reshape(2, 3)
try:
    i.mean()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    i.mean(0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([True, False]).mean()
except RuntimeError as e:
    print("RuntimeError:", e)
print(i.sum(0))
