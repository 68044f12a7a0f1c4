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
y = m.t()
print(y.grad_fn.name(), edges(y.grad_fn), y.is_leaf, y.shape)
y = m.transpose(0, 1)
print(y.grad_fn.name(), edges(y.grad_fn))
y = torch.transpose(m, 1, 0)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.permute(1, 0)
print(y.grad_fn.name(), edges(y.grad_fn))
y = m.t().t()
print(y.grad_fn.name(), edges(y.grad_fn))
c = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
y = c.permute(2, 0, 1)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
