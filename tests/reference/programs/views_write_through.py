import torch
x = torch.arange(12.).reshape(3, 4)
v = x.t()
v[0, 1] = 100.
print(x)
r = x[1]
r[2] = -1.
print(x)
x[:, 0] = 0.
print(x)
x[2] = 7.
print(x)
c = x[:, 1]
c.mul_(10.)
print(x)
x[0, ::2] = torch.tensor([5., 6.])
print(x)
d = x.diagonal()
d.add_(1000.)
print(x)
x[...] = 1.
print(x)
x[1, 1] = torch.tensor(2.)
print(x)
