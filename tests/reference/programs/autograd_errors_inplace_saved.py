import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
z = y * y
print(y._version, y.grad_fn.name())
y.add_(1)
print(y._version, y.grad_fn.name())
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.grad)
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.exp()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
