import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
x = torch.tensor([1., 2., 4.], requires_grad=True)
y = 1 + x
print(y.grad_fn.name(), edges(y.grad_fn))
y = 2 * x
print(y.grad_fn.name(), edges(y.grad_fn))
y = 1 - x
print(y.grad_fn.name(), edges(y.grad_fn))
y = 2 / x
print(y.grad_fn.name(), edges(y.grad_fn))
r = y.grad_fn.next_functions[0][0]
print(r.name(), edges(r))
