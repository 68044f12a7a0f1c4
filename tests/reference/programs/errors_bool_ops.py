import torch
a = torch.tensor([True, False])
b = torch.tensor([False, False])
try:
    a - b
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.sub(a, True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    -a
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    a.neg()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    a.relu()
except RuntimeError as e:
    print("RuntimeError:", e)
print(a + b, a * b)
