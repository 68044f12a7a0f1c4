# In-place writes into views of tensors that take part in autograd: the base's history is rebased
# with CopySlices, and the view's grad_fn is regenerated (AsStridedBackward0).
import torch
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
v = y[1:3]
print(v.grad_fn.name())
v.mul_(10)
print(y.grad_fn.name(), v.grad_fn.name())
print([(type(f).__name__ if f else None, n) for f, n in y.grad_fn.next_functions])
print([(type(f).__name__, n) for f, n in v.grad_fn.next_functions])
print(y, v)
y.sum().backward()
print(x.grad)

x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 2
y[1:3].mul_(x[1:3])
print(y)
y.sum().backward()
print(x.grad)

c = torch.zeros(3)
w = torch.tensor([5.], requires_grad=True)
c[1:2].copy_(w * 3)
print(c, c.requires_grad, type(c.grad_fn).__name__)
c.sum().backward()
print(w.grad)

z = torch.ones(2, 3, requires_grad=True)
m = z * 1
t = m.t()
t[0].mul_(torch.tensor([2., 3.]))
print(m, type(m.grad_fn).__name__, type(t.grad_fn).__name__)
(m * torch.arange(6.).view(2, 3)).sum().backward()
print(z.grad)

a = torch.arange(6., requires_grad=True)
b = a.view(2, 3) * 1
b[0][1:].add_(a[:2] * 10)
b[1, 0].zero_()
b[:, 2].div_(2)
print(b)
b.pow(2).sum().backward()
print(a.grad)

p = torch.ones(4, requires_grad=True)
q = p.exp()
q[0].mul_(2)
try:
    q.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

leaf = torch.ones(3, requires_grad=True)
for f in (lambda: leaf[0].add_(1), lambda: leaf.view(3).mul_(2), lambda: leaf.add_(1)):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)

r = torch.ones(3, requires_grad=True) * 1
s = r[1:]
s.add_(1)
u = s * 3                   # uses the view after the write: its regenerated history
u.sum().backward(retain_graph=True)
print([(type(f).__name__, n) for f, n in u.grad_fn.next_functions])
r2 = torch.ones(3, requires_grad=True)
k = r2 * 1
k[0].mul_(3)
k.sum().backward()
try:
    k.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
d = k.detach()
d[0].add_(1)
print(k.grad_fn is not None, d.grad_fn, d.requires_grad)
