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
y = x.expand(2, 3)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
y = x.expand(4, -1)
print(y.grad_fn.name(), edges(y.grad_fn))
y = x + torch.ones(2, 3)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
col = torch.tensor([[1.], [2.]], requires_grad=True)
y = x * col
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
y = x.expand(2, 3) + col
print(y.grad_fn.name(), edges(y.grad_fn))
