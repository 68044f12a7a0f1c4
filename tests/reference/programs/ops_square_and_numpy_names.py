# square is pow(self, 2) and arcsin ... arctanh are asin ... atanh under NumPy's names, as PyTorch
# decomposes them: the same values, dtypes, in-place and out= forms, and the autograd node of the
# operator they call.
import torch

x = torch.tensor([[0.5, -0.25], [0.75, 0.1]])
print(x.square(), torch.square(torch.tensor([3, -4])), torch.square(torch.tensor([True, False])))
y = x.clone()
y.square_()
print(y, torch.square_(torch.tensor([1.5])))
for name in ("arcsin", "arccos", "arctan", "arcsinh", "arctanh"):
    f = getattr(torch, name)
    print(name, f(x), getattr(x, name)(), f(torch.tensor([0, 1])).dtype)
    z = x.clone()
    getattr(z, name + "_")()
    print(name + "_", z, f(x, out=torch.empty(2, 2, dtype=torch.float64)).dtype)
print("arccosh", torch.arccosh(x + 1), torch.arccosh(torch.tensor([1.0, 2.0]), out=torch.empty(0)))
leaf = torch.tensor([0.3, -0.6], requires_grad=True)
for name in ("square", "arcsin", "arctan", "arctanh"):
    r = getattr(torch, name)(leaf)
    r.sum().backward()
    print(name, type(r.grad_fn).__name__, leaf.grad.tolist())
    leaf.grad = None
