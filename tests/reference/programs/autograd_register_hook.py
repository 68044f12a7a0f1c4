# Tensor.register_hook: hooks on leaves and non-leaves, replacement gradients, removal,
# the size check, and retain_grad seeing the hooked gradient.
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
seen = []
h1 = x.register_hook(lambda g: seen.append(g.clone()))
h2 = x.register_hook(lambda g: g * 2)
y = x * x
hy = y.register_hook(lambda g: print("y grad", g))
y.register_hook(lambda g: g + 1)
y.sum().backward()
print(x.grad, seen)
h2.remove()
x.grad = None
(x * 3).sum().backward()
print(x.grad, len(seen))
z = x.detach()
try:
    z.register_hook(print)
except RuntimeError as e:
    print(e)
w = torch.ones(2, requires_grad=True)
w.register_hook(lambda g: torch.ones(3))
try:
    (w * 1).sum().backward()
except RuntimeError as e:
    print(e)
print(x.type(), torch.ones(2, dtype=torch.int32).type(), torch.ones(2, dtype=torch.half).type())
a = torch.ones(2, requires_grad=True)
b = a * 2
b.register_hook(lambda g: g * 10)
b.retain_grad()
b.sum().backward()
print(a.grad, b.grad)
