import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
try:
    x.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.mul_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x[0].zero_()
except RuntimeError as e:
    print("RuntimeError:", e)
print(x, x._version)
with torch.no_grad():
    x.add_(1)
print(x, x._version)
c = torch.tensor([1., 2., 3.])
c.add_(1)
print(c)
