import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
v = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([4., 5., 6.], requires_grad=True)
m = torch.arange(6.).reshape(2, 3).requires_grad_()
y = v @ w
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m @ v
print(y.grad_fn.name(), edges(y.grad_fn), y)
u = torch.tensor([1., -1.], requires_grad=True)
y = u @ m
print(y.grad_fn.name(), edges(y.grad_fn), y)
inner = y.grad_fn.next_functions[0][0]
print(inner.name(), edges(inner))
y = torch.matmul(m, m.t())
print(y.grad_fn.name(), edges(y.grad_fn), y)
