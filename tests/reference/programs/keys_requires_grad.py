import torch
w = torch.ones(2, requires_grad=True)
print(torch._C._dispatch_keys(w))
r = torch.zeros(3, 2, requires_grad=True)
print(torch._C._dispatch_keys(r))
m = torch.ones(2, device='meta', requires_grad=True)
print(torch._C._dispatch_keys(m))
