import torch
f = torch.ones(2)
print(torch._C._dispatch_keys(f))
i = torch.arange(3)
print(torch._C._dispatch_keys(i))
b = torch.tensor([True, False])
print(torch._C._dispatch_keys(b))
d = torch.zeros(2, dtype=torch.float64)
print(torch._C._dispatch_keys(d))
v = torch.arange(6.).reshape(2, 3).t()
print(torch._C._dispatch_keys(v))
s = f + 1
print(torch._C._dispatch_keys(s))
print(torch._C._dispatch_keys(torch.tensor(3.)))
