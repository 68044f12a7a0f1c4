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
w = torch.tensor([4., 5., 6.], requires_grad=True)
c = torch.tensor([1., 1., 1.])
y = x + w
print(y.grad_fn.name(), edges(y.grad_fn), y.requires_grad, y.is_leaf)
y = x + c
print(y.grad_fn.name(), edges(y.grad_fn))
y = c + x
print(y.grad_fn.name(), edges(y.grad_fn))
y = x - w
print(y.grad_fn.name(), edges(y.grad_fn), y.requires_grad, y.is_leaf)
y = c - x
print(y.grad_fn.name(), edges(y.grad_fn))
y = torch.add(x, w)
print(y.grad_fn.name(), edges(y.grad_fn))
y = torch.sub(x, c)
print(y.grad_fn.name(), edges(y.grad_fn))
