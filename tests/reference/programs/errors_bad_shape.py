import torch
x = torch.arange(12.).reshape(3, 4)
try:
    x.view(5)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.reshape(5, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.view(-1, 5)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.view(-1, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.arange(12.).reshape(3, 5)
except RuntimeError as e:
    print("RuntimeError:", e)
