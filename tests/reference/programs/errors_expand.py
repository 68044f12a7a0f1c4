import torch
x = torch.ones(2, 3)
try:
    x.expand(3, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.expand(3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(3).expand(2, 4)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(1, 3).expand(-1, -1, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.expand(2, 2, 3).shape)
print(x.expand(-1, 3).shape)
