import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
print(y.grad_fn.name(), y._version)
v = y[1:]
v.mul_(10)
print(y.grad_fn.name(), edges(y.grad_fn), y._version)
print(v.grad_fn.name(), edges(v.grad_fn))
print(y)
y.sum().backward()
print(x.grad)
