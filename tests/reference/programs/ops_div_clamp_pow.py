# div with rounding_mode ("trunc", "floor", None) on floats, integers, negative operands,
# zeros, broadcasting and Python numbers; clamp with tensor bounds (one or both, broadcast,
# NaN); number ** tensor; their gradients and nodes; errors.
import torch


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
a = torch.randn(5, 7) * 10
b = torch.randn(7) * 3
for mode in (None, "trunc", "floor"):
    print("div", mode, torch.div(a, b, rounding_mode=mode).flatten().tolist())
    print("div scalar", mode, torch.div(a, -2.5, rounding_mode=mode).flatten().tolist())
    print("div float64", mode, torch.div(a.double(), b.double(), rounding_mode=mode).flatten().tolist()[:12])
ia = torch.tensor([7, -7, 7, -7, 0, 9, -9])
ib = torch.tensor([2, 2, -2, -2, 3, -4, 4])
for mode in (None, "trunc", "floor"):
    r = torch.div(ia, ib, rounding_mode=mode)
    print("div int", mode, r.dtype, r.tolist())
    print("div int scalar", mode, torch.div(ia, 3, rounding_mode=mode).tolist())
print("div zero", torch.div(torch.tensor([1.0, -1.0, 0.0]), 0.0, rounding_mode="floor").tolist())
print("div zero trunc", torch.div(torch.tensor([1.0, -1.0, 0.0]), 0.0, rounding_mode="trunc").tolist())
print("div neg zero", torch.div(torch.tensor([-0.5, 0.5]), torch.tensor([2.0, -2.0]), rounding_mode="floor").tolist())
x = a.clone()
x.div_(b, rounding_mode="floor")
print("div_", x.flatten().tolist()[:10])
print("method", a.div(3, rounding_mode="trunc").flatten().tolist()[:10])
print("half", torch.div(a.half(), b.half(), rounding_mode="floor").flatten().tolist()[:10])
attempt("div bad mode", lambda: torch.div(a, b, rounding_mode="bad"))
attempt("div int zero", lambda: torch.div(ia, torch.zeros(7, dtype=torch.long), rounding_mode="trunc"))
attempt("div bool", lambda: torch.div(torch.tensor([True]), torch.tensor([True]), rounding_mode="floor"))
g = torch.randn(3, 4, requires_grad=True)
h = torch.randn(4, requires_grad=True)
y = torch.div(g, h, rounding_mode="floor")
print("div node", y.grad_fn.name())
y.sum().backward()
print("div grads", g.grad.tolist(), h.grad.tolist())
y2 = torch.div(g, 2.0, rounding_mode="trunc")
print("div scalar node", y2.grad_fn.name())
y3 = torch.div(g, h, rounding_mode=None)
print("div none node", y3.grad_fn.name())

lo = torch.randn(5, 1)
hi = lo + torch.rand(7)
c = torch.randn(5, 7)
print("clamp both", torch.clamp(c, lo, hi).flatten().tolist())
print("clamp min", torch.clamp(c, min=lo).flatten().tolist())
print("clamp max", torch.clamp(c, max=hi).flatten().tolist())
print("clamp nan", torch.clamp(torch.tensor([float("nan"), 1.0, -1.0]), torch.tensor([0.0, float("nan"), 0.0]),
                               torch.tensor([0.5, 2.0, 0.5])).tolist())
print("clamp int", torch.clamp(torch.arange(-5, 5), torch.tensor(-2), torch.tensor(3)).tolist())
print("clamp promote", torch.clamp(torch.arange(-5, 5), torch.tensor([-2.5]), torch.tensor([3.5])).dtype)
print("clamp float64", torch.clamp(c.double(), lo, hi).flatten().tolist()[:10])
cc = c.clone()
cc.clamp_(lo, hi)
print("clamp_", cc.flatten().tolist()[:10])
print("clamp crossed", torch.clamp(torch.tensor([0.0, 1.0, 2.0]), torch.tensor(1.5), torch.tensor(0.5)).tolist())
attempt("clamp none", lambda: torch.clamp(c, min=None, max=None))
attempt("clamp bool", lambda: torch.clamp(torch.tensor([True]), torch.tensor([False]), torch.tensor([True])))
attempt("clamp shape", lambda: torch.clamp(c, torch.randn(3)))
gc = torch.randn(4, 3, requires_grad=True)
glo = torch.full((3,), -0.5, requires_grad=True)
ghi = torch.tensor(0.5, requires_grad=True)
yc = torch.clamp(gc, glo, ghi)
print("clamp node", yc.grad_fn.name())
(yc * torch.arange(12.0).view(4, 3)).sum().backward()
print("clamp grads", gc.grad.tolist(), glo.grad.tolist(), ghi.grad.tolist())

e = torch.linspace(-3, 3, 13)
print("pow scalar", torch.pow(2, e).tolist())
print("pow scalar float", torch.pow(2.5, e).tolist())
print("pow one", torch.pow(1, e).tolist())
print("pow int", torch.pow(3, torch.arange(6)).tolist(), torch.pow(3, torch.arange(6)).dtype)
print("rpow", (2 ** torch.arange(5)).tolist(), (1.5 ** torch.arange(5.0)).tolist())
print("pow zero base", torch.pow(0, torch.tensor([-1.0, 0.0, 2.0])).tolist())
ge = torch.randn(6, requires_grad=True)
yp = torch.pow(3.0, ge)
print("pow node", yp.grad_fn.name())
yp.sum().backward()
print("pow grad", ge.grad.tolist())
ge0 = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
torch.pow(0.0, ge0).sum().backward()
print("pow zero grad", ge0.grad.tolist())
