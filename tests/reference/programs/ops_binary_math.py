# maximum / minimum (NaN propagation; the sign of a tied zero and of NaN differ between PyTorch's
# vector lanes and its scalar tail), atan2 (SLEEF on whole two-vector chunks, glibc for the rest),
# fmod (Tensor and Scalar), the bitwise ops and their operators, logical_xor and isinf: values,
# dtypes, broadcasting, in place and out=, errors and gradients.
import torch

torch.manual_seed(0)
a = torch.randn(300) * 4
b = torch.randn(300) * 4
a[::17] = float("nan")
b[5::23] = float("nan")
for f in (torch.maximum, torch.minimum):
    r = f(a, b)
    print(f.__name__, r.tolist())
    print(f.__name__, "nan signs", torch.signbit(r[r.isnan()]).int().tolist())
    print(f.__name__, "double", f(a.double(), b.double()).tolist()[:40])
    print(f.__name__, "half", f(a[:40].half(), b[:40].half()).tolist())
    print(f.__name__, "strided", f(a.view(20, 15).t(), b.view(20, 15).t()).flatten().tolist()[:40])
z, nz = torch.zeros(40), -torch.zeros(40)
for f in (torch.maximum, torch.minimum):
    print(f.__name__, "zeros", torch.signbit(f(nz, z)).int().tolist(), torch.signbit(f(z, nz)).int().tolist())
print(torch.maximum(torch.tensor([1, 5, -3]), torch.tensor([3, 2, -7])), torch.minimum(torch.tensor([1, 5]), torch.tensor([3.5, 2.0])))
print(torch.maximum(torch.tensor([True, False]), torch.tensor([False, False])), torch.maximum(torch.randn(3, 1), torch.randn(4)).shape)
out = torch.empty(3, dtype=torch.float64)
print(torch.maximum(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 2.0, 2.0]), out=out), out.dtype)

x = torch.randn(300) * 3
y = torch.randn(300) * 3
print("atan2", torch.atan2(x, y).tolist())
print("atan2 double", torch.atan2(x.double(), y.double()).tolist()[:60])
print("atan2 tail", torch.atan2(x[:37], y[:37]).tolist(), torch.atan2(x[:37].double(), y[:37].double()).tolist())
print("atan2 strided", torch.atan2(x.view(20, 15).t(), y.view(20, 15).t()).flatten().tolist()[:40])
print("atan2 ints", torch.atan2(torch.tensor([1, -1, 0]), torch.tensor([0, 0, -1])))
print("atan2 edge", torch.atan2(torch.tensor([0.0, -0.0, 0.0, -0.0, float("inf"), 1.0]), torch.tensor([0.0, 0.0, -0.0, -0.0, float("inf"), float("nan")])).tolist())
c = x[:5].clone()
c.atan2_(y[:5])
print(c)

print(torch.fmod(torch.tensor([-7, 7, -7, 7]), torch.tensor([3, 3, -3, -3])), torch.fmod(torch.tensor([-7.5, 7.5]), 2))
print(torch.fmod(x[:20], y[:20]).tolist(), torch.fmod(x[:20], 1.5).tolist())
print(torch.fmod(torch.tensor([5.0, -5.0]), 0.0), torch.fmod(torch.tensor([5]), 2.5), torch.tensor([9, 10]).fmod_(4))
d = torch.tensor([4.5, -4.5])
d.fmod_(torch.tensor([2.0, 2.0]))
print(d, torch.fmod(torch.tensor([7], dtype=torch.int16), torch.tensor([4], dtype=torch.int16)).dtype)

i = torch.tensor([12, 10, -3, 255])
j = torch.tensor([10, 6, 5, 1])
for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    print(name, getattr(torch, name)(i, j), getattr(torch, name)(i, 3), getattr(i, name)(j.to(torch.uint8)).dtype)
print(i & j, i | j, i ^ j, i & 6, 6 & i, 6 | i, 6 ^ i)
print(torch.tensor([True, False, True]) & torch.tensor([True, True, False]), torch.tensor([True, False]) ^ True)
u = torch.tensor([250, 3], dtype=torch.uint8)
u &= torch.tensor([15, 1], dtype=torch.uint8)
u |= 64
u ^= torch.tensor([1, 1], dtype=torch.uint8)
print(u)
print(torch.bitwise_and(i, j, out=torch.empty(4, dtype=torch.int64)))
print(torch.logical_xor(torch.tensor([1.0, 0.0, 2.0, 0.0]), torch.tensor([1, 1, 0, 0])))
e = torch.tensor([1.0, 0.0, 3.0])
e.logical_xor_(torch.tensor([True, True, False]))
print(e, torch.logical_xor(torch.tensor([1, 0]), torch.tensor([0, 0]), out=torch.empty(2, dtype=torch.int32)))
print(torch.isinf(torch.tensor([1.0, float("inf"), float("-inf"), float("nan")])), torch.isinf(torch.tensor([1, 2])),
      torch.isinf(torch.tensor([float("inf")], dtype=torch.float16)), torch.tensor([[1.0, float("inf")]]).isinf())
for f in (lambda: torch.bitwise_and(torch.tensor([1.0]), torch.tensor([1.0])),
          lambda: torch.tensor([1.0]) | torch.tensor([1.0]),
          lambda: torch.bitwise_xor(torch.tensor([5]), 1.5),
          lambda: torch.fmod(torch.tensor([5]), torch.tensor([0])),
          lambda: torch.tensor([5]).atan2_(torch.tensor([1])),
          lambda: torch.maximum(torch.randn(2), torch.randn(3))):
    try:
        f()
    except (RuntimeError, NotImplementedError, TypeError) as err:
        print(type(err).__name__, err)

# gradients
p = torch.tensor([1.0, 2.0, 3.0, -1.0], requires_grad=True)
q = torch.tensor([1.0, 1.0, 4.0, -2.0], requires_grad=True)
for f in (torch.maximum, torch.minimum, torch.atan2, torch.fmod):
    r = f(p, q)
    r.backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    print(f.__name__, type(r.grad_fn).__name__, p.grad.tolist(), q.grad.tolist())
    p.grad = None
    q.grad = None
r = torch.fmod(p, 1.5)
r.sum().backward()
print(type(r.grad_fn).__name__, p.grad.tolist())
row = torch.tensor([[0.5, 2.5]], requires_grad=True)
col = torch.tensor([[1.0], [2.0], [0.5]], requires_grad=True)
torch.maximum(row, col).sum().backward()
print(row.grad.tolist(), col.grad.tolist())
print(torch.isinf(p).requires_grad, torch.logical_xor(p, q).requires_grad)
