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
y = m.sum()
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m.sum(0)
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m.sum(1, keepdim=True)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
y = torch.sum(m, dim=-1)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.mean()
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m.mean(0)
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = m.mean(1, keepdim=True)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
