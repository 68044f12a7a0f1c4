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
y = m.clone()
print(y.grad_fn.name(), edges(y.grad_fn), y.is_leaf)
y = m.contiguous()
print(y.grad_fn, y.is_leaf, y.requires_grad)
t = m.t()
y = t.contiguous()
print(y.grad_fn.name(), edges(y.grad_fn), y.is_contiguous())
n = m * 2
y = n.contiguous()
print(y.grad_fn.name(), edges(y.grad_fn))
y = torch.clone(n)
print(y.grad_fn.name(), edges(y.grad_fn))
