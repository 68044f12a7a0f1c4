import torch
with torch.inference_mode():
    t = torch.ones(2)
    print(torch._C._dispatch_keys(t))
    u = t * 2
    print(torch._C._dispatch_keys(u))
print(torch._C._dispatch_keys(t))
print(t.is_inference())
n = torch.ones(2)
print(n.is_inference())
print(torch._C._dispatch_keys(n))
with torch.no_grad():
    g = torch.ones(2)
print(torch._C._dispatch_keys(g), g.is_inference())
