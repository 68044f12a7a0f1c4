import torch
x = torch.ones(2, requires_grad=True)
y = x
for i in range(20000):
    y = y * 1.0
y.sum().backward()
print(x.grad)
del y
