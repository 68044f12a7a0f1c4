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
y = x + 1
print(y.grad_fn.name(), edges(y.grad_fn))
y = x - 1
print(y.grad_fn.name(), edges(y.grad_fn))
y = x * 2
print(y.grad_fn.name(), edges(y.grad_fn))
y = x / 2
print(y.grad_fn.name(), edges(y.grad_fn))
y = x * 0.5 + 1
print(y.grad_fn.name(), edges(y.grad_fn))
y = x.add(2)
print(y.grad_fn.name(), edges(y.grad_fn))
y = x.mul(3.0)
print(y.grad_fn.name(), edges(y.grad_fn), y)
