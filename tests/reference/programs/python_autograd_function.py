import torch
from torch.autograd.functional import jacobian

class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y

class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * 2 * k
    @staticmethod
    def backward(ctx, grad):
        return grad * 2 * ctx.k, None

x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = MyExp.apply(x)
print(y)
print(type(y.grad_fn).__name__, y.requires_grad)
y.sum().backward()
print(x.grad)
z = Double.apply(x, 3.0)
print(z, type(z.grad_fn).__name__)
(g,) = torch.autograd.grad(z.sum(), x)
print(g)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(g2,) = torch.autograd.grad((w ** 2).sum(), w)
print(g2, w.grad)
print(jacobian(lambda t: t ** 2 + t, torch.tensor([1.0, 2.0])))
print(jacobian(lambda t: t.sum() * t, torch.tensor([1.0, 2.0, 3.0])))
print(jacobian(lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
