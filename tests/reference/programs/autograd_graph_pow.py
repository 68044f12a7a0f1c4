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
e = torch.tensor([2., 0.5, 1.])
y = x ** 2
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = x.pow(3)
print(y.grad_fn.name(), edges(y.grad_fn))
y = x ** e
print(y.grad_fn.name(), edges(y.grad_fn))
y = e ** x
print(y.grad_fn.name(), edges(y.grad_fn))
y = x ** x
print(y.grad_fn.name(), edges(y.grad_fn))
y = torch.pow(x, 0.5)
print(y.grad_fn.name(), edges(y.grad_fn))
