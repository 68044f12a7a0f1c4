import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.no_grad():
    y = x * 2
    print(torch.is_grad_enabled())
    s = (x + 1).sum()
    v = x.view(3, 1)
print(y.requires_grad, y.is_leaf, y.grad_fn)
print(s.requires_grad, s.grad_fn)
print(v.requires_grad, v.grad_fn)
print(y)
print(torch.is_grad_enabled())
z = x * 2
print(z.requires_grad, z.grad_fn.name())
w = y * x
print(w.requires_grad, w.grad_fn.name())
