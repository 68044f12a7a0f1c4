import torch
a = torch.ones(2, 3)
b = torch.ones(2, 4)
try:
    torch.mm(a, b)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    a @ b
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    a @ torch.ones(4)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(3) @ torch.ones(4)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.mm(torch.ones(3), a)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(4) @ a
except RuntimeError as e:
    print(type(e).__name__, str(e).split("\n")[0])
