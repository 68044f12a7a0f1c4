import torch
def edges(fn):
    out = []
    for f, n in fn.next_functions:
        if f is None:
            out.append((None, n))
        else:
            out.append((f.name(), n))
    return out
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.unsqueeze(0)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
y = torch.unsqueeze(x, 1)
print(y.grad_fn.name(), edges(y.grad_fn), y.shape)
z = y.squeeze(1)
print(z.grad_fn.name(), edges(z.grad_fn), z.shape)
z = y.squeeze()
print(z.grad_fn.name(), edges(z.grad_fn), z.shape)
z = y.squeeze(0)
print(z.grad_fn.name(), edges(z.grad_fn), z.shape)
k = torch.tensor([[5.]], requires_grad=True)
z = k.squeeze()
print(z.grad_fn.name(), edges(z.grad_fn), z)
