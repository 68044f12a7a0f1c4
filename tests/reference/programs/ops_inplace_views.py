import torch
x = torch.arange(12.).reshape(3, 4)
v = x[1]
v += 100
print(x)
t = x.t()
t.mul_(-1)
print(x)
x[:, 1:3].relu_()
print(x)
c = x[::2, ::3]
c.add_(torch.tensor([1., 2.]))
print(x)
d = x.diagonal()
d -= d
print(x)
e = x.expand(2, 3, 4)
print(e.shape)
