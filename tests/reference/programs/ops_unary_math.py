# The unary math family that PyTorch 2.15 computes bit for bit as this project does: sinh and
# cosh (glibc's float functions, SLEEF's double ones), asinh and acosh (glibc), atanh, log1p and
# expm1 (SLEEF), round (half to even), trunc and bitwise_not; their in-place and out= forms,
# integer inputs, float16 / bfloat16, strided inputs, the errors, and the gradients.
import torch

torch.manual_seed(0)
x32 = torch.randn(300) * 3
x64 = x32.double() * 1.7
small = torch.rand(300) * 1.8 - 0.9          # inside (-1, 1) for atanh
big = torch.rand(300) * 30 + 1               # >= 1 for acosh
for name, data in (("sinh", x32), ("cosh", x32), ("asinh", x32), ("acosh", big), ("atanh", small),
                   ("log1p", small), ("expm1", x32), ("round", x32), ("trunc", x32)):
    f = getattr(torch, name)
    print(name, "float32", f(data).tolist())
    print(name, "float64", f(data.double() * 1.3).tolist())
    print(name, "strided", f(data.view(20, 15).t()).flatten().tolist()[:40])
    print(name, "float16", f(data[:20].half()).tolist())
    print(name, "bfloat16", f(data[:20].bfloat16()).tolist())
    print(name, "int", f(torch.tensor([0, 1, 2, 3])).dtype, f(torch.tensor([0, 1, 2, 3])).tolist())

# edge values
edge = torch.tensor([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-8, 89.0, -89.0, 710.0,
                     float("inf"), float("-inf"), float("nan")])
for name in ("sinh", "cosh", "asinh", "acosh", "atanh", "log1p", "expm1", "round", "trunc"):
    print(name, "edge", getattr(edge, name)().tolist(), getattr(edge.double(), name)().tolist())

# round half to even, and integers kept as they are
print(torch.tensor([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 4.4999]).round().tolist())
print(torch.tensor([7, -3], dtype=torch.int32).round(), torch.tensor([7, -3]).trunc())

# in place and out=
a = torch.tensor([0.25, -0.75, 2.0])
print(a.expm1_(), a)
b = torch.tensor([0.25, -0.75, 2.0])
print(torch.log1p_(b), torch.round_(torch.tensor([1.5, 2.5])))
out = torch.empty(3, dtype=torch.float64)
print(torch.sinh(torch.tensor([0.5, 1.0, 2.0]), out=out), out.dtype)
print(torch.trunc(torch.tensor([[1.7, -2.7]]), out=torch.empty(0)))
try:
    torch.asinh(torch.tensor([0.5]), out=torch.empty(1, dtype=torch.int64))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]).cosh_()
except RuntimeError as e:
    print("RuntimeError", e)

# bitwise_not and ~
for dt in (torch.bool, torch.uint8, torch.int16, torch.int32, torch.int64):
    t = torch.tensor([0, 1, 5, 127], dtype=dt) if dt != torch.bool else torch.tensor([True, False])
    print(dt, t.bitwise_not().tolist(), (~t).tolist())
c = torch.tensor([1, 2, 3])
c.bitwise_not_()
print(c, torch.bitwise_not(torch.tensor([4]), out=torch.empty(1, dtype=torch.int64)))
for f in (lambda: torch.tensor([1.5]).bitwise_not(), lambda: ~torch.tensor([1.5]),
          lambda: torch.tensor([True]).round(), lambda: torch.tensor([True]).trunc()):
    try:
        f()
    except (NotImplementedError, TypeError) as e:
        print(type(e).__name__, e)

# gradients
for name, data in (("sinh", x32[:8]), ("cosh", x32[:8]), ("asinh", x32[:8]), ("acosh", big[:8]),
                   ("atanh", small[:8]), ("log1p", small[:8]), ("expm1", x32[:8]), ("round", x32[:8]),
                   ("trunc", x32[:8])):
    leaf = data.clone().requires_grad_()
    y = getattr(torch, name)(leaf)
    y.backward(torch.linspace(0.5, 2, 8))
    print(name, type(y.grad_fn).__name__, leaf.grad.tolist())
for name in ("asinh_", "acosh_", "atanh_"):
    leaf = torch.tensor([2.0], requires_grad=True)
    y = leaf * 0.25 + 1
    getattr(y, name)()
    print(name, type(y.grad_fn).__name__)
    try:
        y.sum().backward()
    except NotImplementedError as e:
        print("NotImplementedError", e)
leaf = torch.tensor([0.3, -0.2], requires_grad=True)
y = leaf * 2
y.expm1_()
y.sum().backward()
print(type(y.grad_fn).__name__, leaf.grad.tolist())
print(torch.tensor([5]).bitwise_not().requires_grad)
