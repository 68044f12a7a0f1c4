import torch
x = torch.arange(12.).reshape(3, 4)
try:
    x[::-1]
except ValueError as e:
    print("ValueError:", e)
try:
    x.permute(0, 0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.diagonal(0, 1, 1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.unfold(1, 5, 1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.flatten(1, 0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.as_strided((4, 4), (4, 1))
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.squeeze(1).shape)
