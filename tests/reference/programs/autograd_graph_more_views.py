import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
m = torch.arange(9.).reshape(3, 3).requires_grad_()
y = m.flatten()
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.t().flatten()
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.diagonal()
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m.unfold(1, 2, 1)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
y = m.as_strided((2, 2), (3, 1), 1)
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m.diagonal().sum()
y.backward()
print(m.grad)
