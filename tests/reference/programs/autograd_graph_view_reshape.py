import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
m = torch.arange(6.).reshape(2, 3).requires_grad_()
y = m.view(6)
print(y.grad_fn.name(), edges(y.grad_fn), y.is_leaf)
y = m.view(3, -1)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.reshape(3, 2)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.reshape(-1)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.t().reshape(6)
print(y.grad_fn.name(), edges(y.grad_fn), y)
inner = y.grad_fn.next_functions[0][0]
print(inner.name(), edges(inner))
y = m.view(6).view(2, 3)
print(y.grad_fn.name(), edges(y.grad_fn))
