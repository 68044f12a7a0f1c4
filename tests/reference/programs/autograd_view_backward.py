# Backward of as_strided, unfold and diagonal (windows that overlap add their gradients).
import torch
x = torch.arange(12., requires_grad=True)
a = x.as_strided((3, 3), (2, 1), 1)
u = x.unfold(0, 4, 3)
d = x.view(3, 4).diagonal(1)
print(a.grad_fn.name(), u.grad_fn.name(), d.grad_fn.name(), u.shape, u.stride())
(a * torch.arange(9.).view(3, 3)).sum().backward()
print(x.grad)
x.grad = None
(u * torch.arange(12.).view(3, 4)).sum().backward()
print(x.grad)
x.grad = None
x.unfold(0, 3, 2).sum().backward()
print(x.grad)
x.grad = None
(d * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
m = torch.arange(20., requires_grad=True).view(4, 5)
m.retain_grad()
m.unfold(1, 2, 1).pow(2).sum().backward()
print(m.grad)
y = torch.arange(6., requires_grad=True)
y.as_strided((3, 3), (1, 1)).sum().backward()
print(y.grad)
