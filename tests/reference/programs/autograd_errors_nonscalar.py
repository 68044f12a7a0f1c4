import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
m = torch.arange(4.).reshape(2, 2).requires_grad_()
try:
    m.t().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.backward(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.backward(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
y.sum().backward()
print(x.grad)
