import torch
x = torch.arange(6.).reshape(2, 3).requires_grad_()
y = x * 2
y.backward(torch.ones(2, 3))
print(x.grad)
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * a
b.backward(torch.tensor([1., 0.1, 0.01]))
print(a.grad)
s = torch.tensor([4.], requires_grad=True)
t = s * 3
t.backward()
print(s.grad)
k = torch.tensor(2., requires_grad=True)
(k * k).backward(torch.tensor(5.))
print(k.grad)
