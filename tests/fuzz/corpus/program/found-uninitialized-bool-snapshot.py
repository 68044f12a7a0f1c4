import torch
a = torch.zeros(2, 2, dtype=torch.float64)
print(a, a.dtype)
b = torch.ones(3, dtype=torch.int64)
print(b, b.dtype)
c = torch.ones(2, dtype=torch.bool)
print(c, c.dtype)
d = torch.zeros(2, dtype=torch.bool)
print(d)
e = torch.ones(2, 2, dtype=torch.float64) * 0.1
print(e)
f = torch.zeros(3, dtype=torch.int64) + 5
print(f, f.dtype)
g = torch.full((2,), 3, dtype=torch.float32)
print(g, g.dtype)
