import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
x = torch.tensor([-1., 0., 2.], requires_grad=True)
y = -x
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = x.neg()
print(y.grad_fn.name(), edges(y.grad_fn))
y = x.exp()
print(y.grad_fn.name(), edges(y.grad_fn))
y = torch.exp(x)
print(y.grad_fn.name(), edges(y.grad_fn))
y = x.relu()
print(y.grad_fn.name(), edges(y.grad_fn), y)
y = torch.relu(x)
print(y.grad_fn.name(), edges(y.grad_fn))
y = x.exp().neg().relu()
print(y.grad_fn.name(), edges(y.grad_fn))
