# Double backward: autograd.grad(create_graph=True), hessian / jacobian / vjp, backward(create_graph=True)
# accumulating a .grad with its own graph, and a gradient penalty through nn.Linear.
import warnings
import torch
warnings.simplefilter("ignore")
x = torch.tensor(2., requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, type(g.grad_fn).__name__, [type(n).__name__ if n else None for n, _ in g.grad_fn.next_functions])
h, = torch.autograd.grad(g, x)
print(h)
x2 = torch.tensor([0.5, 1.5], requires_grad=True)
for f in (lambda t: t.sin() * t, lambda t: t.exp().sum() * t, lambda t: t.tanh(), lambda t: torch.sigmoid(t) ** 2,
          lambda t: (t * t).log(), lambda t: t.sqrt() / (t + 1), lambda t: torch.relu(t - 1) ** 2, lambda t: t.pow(t)):
    y = f(x2).sum()
    g, = torch.autograd.grad(y, x2, create_graph=True)
    h, = torch.autograd.grad(g.sum(), x2)
    print(g.detach(), h)
from torch.autograd.functional import hessian, jacobian, vjp
print(hessian(lambda t: (t ** 3).sum(), torch.tensor([1., 2.])))
print(hessian(lambda a, b: (a * b.exp()).sum(), (torch.tensor([1., 2.]), torch.tensor([0.5, -1.]))))
print(jacobian(lambda t: t ** 2, torch.tensor([1., 3.]), create_graph=True))
print(vjp(lambda t: t ** 2, torch.tensor([1., 3.]), torch.ones(2), create_graph=True))
w = torch.tensor([1., -2.], requires_grad=True)
loss = (w ** 2).sum()
loss.backward(create_graph=True)
print(w.grad, type(w.grad.grad_fn).__name__)
w.grad.sum().backward()
print(w.grad)
lin = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(0.5); lin.bias.fill_(0.1)
inp = torch.tensor([[1., 2.]], requires_grad=True)
out = lin(inp).tanh().sum()
gi, = torch.autograd.grad(out, inp, create_graph=True)
penalty = (gi ** 2).sum()
penalty.backward()
print(gi.detach(), lin.weight.grad, lin.bias.grad)
