# The activation modules over silu, mish, softplus, hardsigmoid, hardswish, celu, glu,
# hardshrink / softshrink, threshold and prelu, and PixelShuffle / PixelUnshuffle: printed forms,
# PReLU's weight, autograd nodes (2.15's infinitely differentiable silu / mish backward under
# create_graph, the double-backward nodes, hardsigmoid_backward's NotImplemented), in-place forms,
# dtypes, out=, Meta shapes and 2.15's messages.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
mods = [nn.SiLU(), nn.SiLU(inplace=True), nn.Mish(), nn.Softplus(), nn.Softplus(2.0, 5), nn.Hardsigmoid(), nn.Hardswish(),
        nn.CELU(), nn.CELU(0.5, True), nn.GLU(), nn.GLU(0), nn.Hardshrink(), nn.Softshrink(0.3), nn.Threshold(0.1, 20),
        nn.Threshold(0.1, 2.5, True), nn.PReLU(), nn.PReLU(3, 0.1), nn.PixelShuffle(2), nn.PixelUnshuffle(3)]
for m in mods:
    print(repr(m), [(k, tuple(v.shape)) for k, v in m.state_dict().items()])
print(nn.Sequential(nn.Linear(4, 6), nn.SiLU(), nn.Linear(6, 4), nn.Mish(), nn.PReLU(4)))

x = torch.randn(4, 6, requires_grad=True)
for name, f in [("silu", F.silu), ("mish", F.mish), ("softplus", F.softplus), ("softplus b", lambda t: F.softplus(t, 2.0, 1.0)),
                ("hardsigmoid", F.hardsigmoid), ("hardswish", F.hardswish), ("celu", F.celu), ("celu a", lambda t: F.celu(t, 0.4)),
                ("glu", F.glu), ("glu0", lambda t: F.glu(t, 0)), ("hardshrink", F.hardshrink), ("softshrink", F.softshrink),
                ("threshold", lambda t: F.threshold(t, 0.2, -1.0)), ("prelu", lambda t: F.prelu(t, torch.tensor([0.25]))),
                ("prelu ch", lambda t: F.prelu(t, torch.linspace(0.1, 0.6, 6)))]:
    y = f(x)
    gx, = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(name, type(y.grad_fn).__name__, [round(v, 6) for v in y.flatten().tolist()[:8]], round(gx.sum().item(), 5))
    try:
        ggx, = torch.autograd.grad(gx.pow(2).sum(), x)
        print("   double", type(gx.grad_fn).__name__, round(ggx.sum().item(), 5))
    except Exception as e:
        print("   double", type(e).__name__, str(e).split("\n")[0])

# PReLU learns per channel
m = nn.PReLU(3)
inp = torch.randn(2, 3, 4, 4)
out = m(inp)
out.sum().backward()
print(type(out.grad_fn).__name__, [round(v, 5) for v in m.weight.grad.tolist()])
w = torch.tensor([0.3], requires_grad=True)
y = F.prelu(torch.randn(5, requires_grad=True), w)
y.backward(torch.ones(5))
print(round(w.grad.item(), 6))

# in-place forms
for name, f in [("silu_", lambda t: F.silu(t, inplace=True)), ("mish_", lambda t: F.mish(t, inplace=True)),
                ("hardsigmoid_", lambda t: F.hardsigmoid(t, inplace=True)), ("hardswish_", lambda t: F.hardswish(t, inplace=True)),
                ("celu_", lambda t: F.celu(t, inplace=True)), ("threshold_", lambda t: F.threshold(t, 0.1, 2., inplace=True))]:
    y = x * 1
    r = f(y)
    r.sum().backward()
    print(name, r is y, type(r.grad_fn).__name__, round(x.grad.sum().item(), 5))
    x.grad = None

# pixel shuffle with gradients
p = torch.arange(2 * 9 * 2 * 2, dtype=torch.float32).view(2, 9, 2, 2).requires_grad_()
s = F.pixel_shuffle(p, 3)
print(s.shape, s[0, 0].tolist(), type(s.grad_fn).__name__)
s.backward(torch.arange(s.numel(), dtype=torch.float32).view(s.shape))
print(p.grad[0, :, 0, 0].tolist())
print(F.pixel_unshuffle(s, 3).equal(p), F.pixel_shuffle(torch.ones(1, 4, 0, 2), 2).shape)
print(torch.pixel_shuffle(torch.arange(8.).view(2, 1, 2, 2).expand(2, 4, 2, 2), 2)[1].tolist())

# dtypes and out=
print(F.silu(torch.tensor([1.0, -2.0], dtype=torch.float64)).dtype, F.hardsigmoid(torch.tensor([1.0], dtype=torch.bfloat16)).dtype)
print(F.threshold(torch.tensor([1, 5, -3]), 2, 7).tolist(), F.threshold(torch.tensor([1., 5.]), 2, 7).tolist())
o = torch.empty(2)
print(torch._C._nn.silu(torch.tensor([1.0, 2.0]), out=o) is o, o.tolist())
print(torch.hardshrink(torch.tensor([0.2, 0.9]), 0.5).tolist(), torch.tensor([0.2, -0.9]).hardshrink().tolist())
print(F.softplus(torch.tensor([30.0, -30.0, 0.0])).tolist())

for bad in (lambda: F.silu(torch.tensor([1, 2])), lambda: F.mish(torch.tensor([1, 2])), lambda: F.softplus(torch.tensor([1])),
            lambda: F.softshrink(torch.ones(2), -0.5), lambda: F.glu(torch.ones(3)), lambda: F.glu(torch.tensor(1.0)),
            lambda: F.glu(torch.ones(2, 4), 2), lambda: F.celu(torch.ones(2), 0.0),
            lambda: F.prelu(torch.ones(2, 3), torch.ones(2)), lambda: F.prelu(torch.ones(2, 3), torch.ones(3, dtype=torch.float64)),
            lambda: F.prelu(torch.ones(2, 3), torch.ones(1, 3)), lambda: F.prelu(torch.tensor(1.0), torch.ones(2)),
            lambda: F.pixel_shuffle(torch.ones(3, 3), 2), lambda: F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2),
            lambda: F.pixel_shuffle(torch.ones(1, 4, 2, 2), 0), lambda: F.pixel_unshuffle(torch.ones(1, 1, 3, 4), 2),
            lambda: F.pixel_unshuffle(torch.ones(1, 1, 4, 3), 2), lambda: F.pixel_unshuffle(torch.ones(4, 4), 2),
            lambda: F.hardswish(torch.tensor([True])), lambda: F.threshold(torch.tensor([True]), 0, 1),
            lambda: nn.GLU()(torch.ones(5))):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])

# Meta tensors: shapes without data
m = torch.empty(2, 8, 3, 3, device="meta")
print(F.silu(m).shape, F.glu(m, 1).shape, F.pixel_shuffle(m, 2).shape, F.pixel_unshuffle(m, 3).shape,
      F.prelu(m, torch.empty(8, device="meta")).shape, torch.ops.aten.mish_backward(m, m).device)
