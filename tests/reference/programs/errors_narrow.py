import torch
x = torch.arange(12.).reshape(3, 4)
try:
    x.narrow(1, 3, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.narrow(0, 1, 5)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.narrow(1, 5, 1)
except IndexError as e:
    print("IndexError:", e)
try:
    x.narrow(2, 0, 1)
except IndexError as e:
    print("IndexError:", e)
print(x.narrow(1, -2, 2))
