# In-place writes into views that autograd cannot rebase: views made in no_grad mode, in
# inference mode, or by an operator returning several views (split, unbind, chunk).
import torch
def attempt(f):
    try:
        f()
        print("ok")
    except RuntimeError as e:
        print("RuntimeError:", e)
x = torch.ones(4, requires_grad=True)
with torch.no_grad():
    v = x[0:2]
attempt(lambda: v.mul_(2))
y = x * 1
with torch.no_grad():
    v2 = y[0:2]
print(v2.requires_grad, v2.grad_fn)
attempt(lambda: v2.mul_(2))
a, b = y.view(2, 2).unbind()
attempt(lambda: a.mul_(2))
attempt(lambda: b.mul_(2))
s1, s2 = y.split(2)
attempt(lambda: s2.add_(1))
c1, c2 = y.chunk(2)
attempt(lambda: c1.zero_())
w = torch.ones(2, requires_grad=True)
z = torch.zeros(4)
with torch.no_grad():
    v3 = z[0:2]
attempt(lambda: v3.mul_(w))
attempt(lambda: v3.mul_(2))       # nothing to record: allowed
d = y.detach()
d.mul_(torch.ones(4, requires_grad=True))
print(type(d.grad_fn).__name__, type(y.grad_fn).__name__)
with torch.inference_mode():
    iv = torch.ones(3)
    ivv = iv[0:2]
attempt(lambda: ivv.add_(1))
attempt(lambda: iv.mul_(2))
with torch.inference_mode():
    print(iv.clone().add_(1).is_inference())
u = y[1:3].view(2)
u.add_(w)
print(type(y.grad_fn).__name__, type(u.grad_fn).__name__, u._base is y)
y.sum().backward()
print(x.grad, w.grad)
