import torch
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.arange(3, requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([True, False], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
t = torch.tensor([1, 2])
t.requires_grad_(False)
print(t.requires_grad)
x = torch.tensor([1., 2.], requires_grad=True)
try:
    (x * 2).requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
