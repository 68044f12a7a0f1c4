import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
z = y + 1
y.mul_(3)
print(y, y._version)
z.sum().backward()
print(x.grad)
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
b.add_(a)
print(b.grad_fn.name())
b.sum().backward()
print(a.grad)
