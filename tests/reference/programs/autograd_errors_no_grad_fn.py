import torch
c = torch.tensor([1., 2., 3.])
try:
    c.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.no_grad():
    y = (x * 2).sum()
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
d = (x * 2).sum().detach()
try:
    d.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.grad)
