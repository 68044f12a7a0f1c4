import torch
x = torch.arange(12.).reshape(3, 4)
t = x.t()
try:
    t.view(12)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x[:, ::2].view(6)
except RuntimeError as e:
    print("RuntimeError:", e)
print(t.reshape(12).shape)
print(t.view(4, 3).shape)
print(t.view(4, 1, 3).stride())
print(x[:, ::2].view(3, 2, 1).stride())
