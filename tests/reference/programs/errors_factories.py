import torch
try:
    torch.tensor([[1, 2], [3]])
except ValueError as e:
    print("ValueError:", e)
try:
    torch.zeros(2, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.arange(0, 10, 0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.arange(0, 10, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2, 2).sum(dim=(0, 0))
except RuntimeError as e:
    print("RuntimeError:", e)
