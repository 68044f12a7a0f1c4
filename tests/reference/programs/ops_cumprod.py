# cumprod along a dim, as 2.15's CPU kernel computes it (float products accumulated in double,
# integers in int64, the input converted to dtype= first): contiguous, strided and inner dims,
# integer and bool promotion, dtype=, 0-D and empty tensors, a diffusion model's alphas_cumprod,
# the gradient with and without zeros in the input (first and second order) and the node.
import torch


def bits(name, t):
    raw = t.view(torch.int32) if t.dtype == torch.float32 else t.view(torch.int64) if t.dtype == torch.float64 else t
    print(name, list(t.shape), t.dtype, t.flatten().tolist()[:10], raw.flatten().tolist()[:10])


torch.manual_seed(0)
x = torch.rand(4, 5) + 0.5
bits("cumprod dim 1", torch.cumprod(x, 1))
bits("cumprod dim 0", x.cumprod(0))
bits("cumprod dim -1 strided", torch.cumprod(x.t(), -1))
bits("cumprod 3-D inner", torch.cumprod(torch.rand(2, 6, 3) + 0.5, dim=1))
bits("cumprod float64", torch.cumprod(x.double(), 1))
bits("cumprod dtype=float64", torch.cumprod(x, 1, dtype=torch.float64))
bits("cumprod int", torch.cumprod(torch.tensor([1, 2, 3, 4, 5]), 0))
bits("cumprod int32 overflow", torch.cumprod(torch.full((40,), 3, dtype=torch.int32), 0))
bits("cumprod int32 dtype=int32", torch.cumprod(torch.full((40,), 3, dtype=torch.int32), 0, dtype=torch.int32))
bits("cumprod bool", torch.cumprod(torch.tensor([True, True, False, True]), 0))
bits("cumprod 0-D", torch.cumprod(torch.tensor(2.5), 0))
bits("cumprod empty", torch.cumprod(torch.zeros(0, 3), 0))
bits("cumprod long row", torch.cumprod(torch.rand(3000) * 0.02 + 0.99, 0)[::300])
betas = torch.linspace(1e-4, 0.02, 1000)
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
bits("alphas_cumprod", alphas_cumprod[::111])
print("sqrt(alphas_cumprod)[-1]", alphas_cumprod.sqrt()[-1].item())

a = torch.tensor([[2.0, 3.0, 0.5, 4.0], [1.5, -2.0, 3.0, 0.25]], requires_grad=True)
y = torch.cumprod(a, 1)
y.backward(torch.tensor([[1.0, 2.0, 3.0, 4.0], [0.5, 1.0, -1.0, 2.0]]))
print("grad", a.grad.tolist(), y.grad_fn.name())
z = torch.tensor([[2.0, 0.0, 3.0, 4.0], [0.0, 5.0, 0.0, 2.0], [1.0, 2.0, 3.0, 0.0]], requires_grad=True)
torch.cumprod(z, 1).sum().backward()
print("grad with zeros", z.grad.tolist())
z.grad = None
torch.cumprod(z, 0).pow(2).sum().backward()
print("grad with zeros dim 0", z.grad.tolist())
v = torch.tensor([1.5, 2.0, -0.5], requires_grad=True)
g, = torch.autograd.grad(torch.cumprod(v, 0).sum(), v, create_graph=True)
g2, = torch.autograd.grad(g.sum(), v)
# (the second order goes through div's and cumsum's own backward formulas: compared to 6 digits)
print("second order", g.tolist(), [float("%.6g" % t) for t in g2.tolist()])
