import torch
a = torch.arange(24.).reshape(2, 3, 4)
b = torch.arange(20.).reshape(4, 5)
print(a @ b)
c = torch.arange(40.).reshape(2, 4, 5)
print(torch.matmul(a, c).shape, torch.bmm(a, c))
v = torch.arange(4.)
print(a @ v)
print(v @ c)
d = torch.arange(6.).reshape(1, 3, 2)
e = torch.arange(16.).reshape(2, 1, 2, 4)
print((d @ e).shape)
print(torch.dot(v, v), torch.mv(b.t(), v[:4] * 0 + 1.))
try:
    torch.bmm(a, a)
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    a @ torch.ones(5, 2)
except RuntimeError as err:
    print("RuntimeError:", err)
