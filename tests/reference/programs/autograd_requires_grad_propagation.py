import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
c = b * 2 + 1
print(c.requires_grad, c.is_leaf, c.grad_fn)
d = a + b
print(d.requires_grad, d.is_leaf, d.grad_fn.name())
e = b.exp().sum()
print(e.requires_grad, e.is_leaf, e.grad_fn)
f = b.view(2, 1) @ a.view(1, 2)
print(f.requires_grad, f.is_leaf, f.grad_fn.name())
g = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
h = g * b
print(h.requires_grad, h.dtype, h.grad_fn.name())
k = b[0] * a[1]
print(k.requires_grad, k.grad_fn.name(), k)
m = b.t()
print(m.requires_grad, m.is_leaf)
