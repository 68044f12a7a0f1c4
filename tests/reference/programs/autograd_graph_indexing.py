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
y = m[0]
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m[1:]
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
y = m[:, 1]
print(y.grad_fn.name(), edges(y.grad_fn), y)
inner = y.grad_fn.next_functions[0][0]
print(inner.name(), edges(inner))
y = m[0, 1]
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m.select(1, 2)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.narrow(1, 0, 2)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m[-1, ::2]
print(y.grad_fn.name(), edges(y.grad_fn), y)
