import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.retain_grad()
print(y.retains_grad, x.retains_grad, (x * 3).retains_grad)
z = (y * y).sum()
z.backward()
print(y.grad)
print(x.grad)
print(y.is_leaf, y.grad_fn.name())
a = torch.tensor([1., -1.], requires_grad=True)
b = a.exp()
b.retain_grad()
c = b.sum() * 3
c.retain_grad()
c.backward()
print(c.grad)
print(b.grad)
print(a.grad)
