# Inference tensors in autograd: requires_grad=True inside inference_mode, and inference tensors
# that a backward formula would have to save.
import torch
def attempt(f):
    try:
        r = f()
        print("ok", r)
    except RuntimeError as e:
        print("RuntimeError:", e)
with torch.inference_mode():
    t = torch.ones(3)
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    print(a.requires_grad, a.is_leaf, a.is_inference(), b.requires_grad, b.grad_fn, b.is_inference())
w = torch.ones(3, requires_grad=True)
attempt(lambda: (t * w).grad_fn.name())
attempt(lambda: (t + w).grad_fn.name())
attempt(lambda: (w * 2 + t).sum())
attempt(lambda: t.exp().is_inference())
c = a * 3
print(c.requires_grad, c.grad_fn.name(), c.is_inference())
c.sum().backward()
print(a.grad)
attempt(lambda: torch.exp(a).grad_fn)
with torch.inference_mode():
    e = torch.ones(2, requires_grad=True)
attempt(lambda: e.exp().sum().backward())
print(e.grad)
