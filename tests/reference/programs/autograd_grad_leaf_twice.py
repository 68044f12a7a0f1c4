import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x + x
y.sum().backward()
print(x.grad)
a = torch.tensor([2., -1.], requires_grad=True)
b = a * 3
c = a.exp()
(b + c + a).sum().backward()
print(a.grad)
w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
(w @ w.t()).sum().backward()
print(w.grad)
