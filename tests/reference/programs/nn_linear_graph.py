import torch
import torch.nn as nn
import torch.nn.functional as F


def names(fn):
    return [type(f).__name__ if f is not None else None for f, _ in fn.next_functions]


lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    lin.bias.copy_(torch.tensor([0.01, -0.02]))
x = torch.arange(12.).reshape(4, 3) / 4
out = lin(x)
print(out)
print(type(out.grad_fn).__name__)
print(names(out.grad_fn))
print(names(out.grad_fn.next_functions[2][0]))
v = lin(torch.tensor([1.0, 2.0, 3.0]))
print(v)
print(type(v.grad_fn).__name__, names(v.grad_fn))
xr = x.clone().requires_grad_(True)
o2 = F.linear(xr, lin.weight)
print(type(o2.grad_fn).__name__, names(o2.grad_fn))
o3 = F.linear(xr, lin.weight, lin.bias)
print(type(o3.grad_fn).__name__, names(o3.grad_fn))
o3.sum().backward()
print(xr.grad)
print(lin.weight.grad)
print(lin.bias.grad)
x3 = torch.ones(2, 2, 3)
o4 = lin(x3)
print(o4.shape, type(o4.grad_fn).__name__, names(o4.grad_fn))
