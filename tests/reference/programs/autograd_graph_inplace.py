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
y = x * 1
y.relu_()
print(y.grad_fn.name(), edges(y.grad_fn), y)
y.exp_()
print(y.grad_fn.name(), edges(y.grad_fn))
y.neg_()
print(y.grad_fn.name(), edges(y.grad_fn))
y.mul_(2)
print(y.grad_fn.name(), edges(y.grad_fn))
y.sub_(1)
print(y.grad_fn.name(), edges(y.grad_fn), y._version)
c = torch.tensor([1., 1., 1.])
c.add_(x)
print(c.requires_grad, c.is_leaf, c.grad_fn.name(), edges(c.grad_fn))
c.sum().backward()
print(x.grad)
