import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
d = y.detach()
print(d.requires_grad, d.is_leaf, d.grad_fn)
print(d)
print(d.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
e = d * 3
print(e.requires_grad, e.grad_fn, e)
xd = x.detach()
print(xd.requires_grad, xd.is_leaf, xd)
z = y + d
print(z.requires_grad, z.grad_fn.name())
z.sum().backward()
print(x.grad)
xd.add_(10)
print(x)
