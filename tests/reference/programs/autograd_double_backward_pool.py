# Double backward through the pooling and embedding layers: the gradient of a gradient taken with
# create_graph=True, its nodes (AvgPool2DBackwardBackward0, ...), and the second-order values.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4, dtype=torch.float64, requires_grad=True)
w = torch.randn(1, 2, 2, 2, dtype=torch.float64)
for name, f in [("avg_pool2d", lambda t: F.avg_pool2d(t, 2)),
                ("max_pool2d", lambda t: F.max_pool2d(t, 2)),
                ("adaptive_avg_pool2d", lambda t: F.adaptive_avg_pool2d(t, (2, 2)))]:
    y = f(x)
    v = torch.randn(y.shape, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(y, x, v, create_graph=True)
    print(name, "grad node", type(g.grad_fn).__name__)
    (gv,) = torch.autograd.grad((g * g).sum(), v)
    print(name, "second order", gv.flatten().tolist())

weight = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
idx = torch.tensor([[0, 4, 2], [2, 1, 4]])
out = F.embedding(idx, weight, padding_idx=2)
v = torch.randn(out.shape, dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(out, weight, v, create_graph=True)
print("embedding grad node", type(g.grad_fn).__name__)
(gv,) = torch.autograd.grad((g * torch.arange(15.0, dtype=torch.float64).view(5, 3)).sum(), v)
print("embedding second order", gv.flatten().tolist())
