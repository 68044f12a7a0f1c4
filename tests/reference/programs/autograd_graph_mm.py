import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = torch.tensor([[1., 0.], [0., 1.]], requires_grad=True)
c = torch.tensor([[2., 0.], [0., 2.]])
y = torch.mm(a, b)
print(y.grad_fn.name(), edges(y.grad_fn), y.requires_grad, y.is_leaf)
y = a.mm(c)
print(y.grad_fn.name(), edges(y.grad_fn))
y = c.mm(a)
print(y.grad_fn.name(), edges(y.grad_fn))
y = a @ a.t()
print(y.grad_fn.name(), edges(y.grad_fn))
y = a.mm(b).mm(c)
print(y.grad_fn.name(), edges(y.grad_fn))
