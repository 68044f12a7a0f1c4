# nan_to_num (default and given replacements, every dtype's largest values, integers and bools
# unchanged, in place and out=), sinc (0 -> 1, integers promoted, float16 / bfloat16 / float64,
# its gradient at and around 0) and deg2rad / rad2deg (integers promoted to the default dtype,
# in place only on floating tensors), bit for bit with their gradients, autograd nodes and errors.
import torch


def bits(name, t):
    if t.dtype in (torch.float32, torch.int32):
        raw = t.view(torch.int32)
    elif t.dtype in (torch.float64, torch.int64):
        raw = t.view(torch.int64)
    elif t.dtype in (torch.float16, torch.bfloat16, torch.int16):
        raw = t.view(torch.int16)
    else:
        raw = t
    print(name, list(t.shape), t.dtype, t.tolist()[:12] if t.dim() else t.item(), raw.flatten().tolist()[:12])


def err(name, f):
    try:
        f()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__ + ":", str(e).split("\n")[0])


x = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5, -0.0, 3.0e38])
bits("nan_to_num", torch.nan_to_num(x))
bits("nan_to_num given", torch.nan_to_num(x, nan=2.0, posinf=1e3, neginf=-7.25))
bits("nan_to_num posinf only", x.nan_to_num(posinf=5.0))
bits("nan_to_num float64", torch.nan_to_num(x.double()))
bits("nan_to_num float16", torch.nan_to_num(x.half()))
bits("nan_to_num bfloat16", torch.nan_to_num(x.bfloat16(), nan=-1.0))
bits("nan_to_num big replacement to float16", torch.nan_to_num(x.half(), posinf=1e6))
bits("nan_to_num int", torch.nan_to_num(torch.tensor([1, -2, 3]), nan=9.0))
bits("nan_to_num bool", torch.nan_to_num(torch.tensor([True, False])))
y = x.clone()
y.nan_to_num_(nan=-3.0)
bits("nan_to_num_", y)
out = torch.empty(0)
torch.nan_to_num(x, out=out)
bits("nan_to_num out", out)
bits("nan_to_num strided", torch.nan_to_num(torch.stack([x, x]).t()))
g = x.clone().requires_grad_()
r = torch.nan_to_num(g)
r.sum().backward()
print("nan_to_num grad", g.grad.tolist(), r.grad_fn.name())

s = torch.tensor([0.0, -0.0, 0.5, -1.0, 1e-8, 3.25, 100.5, float("inf"), float("nan"), 1e30])
bits("sinc", torch.sinc(s))
bits("sinc float64", torch.sinc(s.double()))
bits("sinc float16", torch.sinc(s.half()))
bits("sinc bfloat16", torch.sinc(s.bfloat16()))
bits("sinc int", torch.sinc(torch.tensor([0, 1, 2])))
bits("sinc long range", torch.sinc(torch.linspace(-20, 20, 1000))[::83])
t = s.clone()
t.sinc_()
bits("sinc_", t)
out = torch.empty(0)
torch.sinc(s, out=out)
bits("sinc out", out)
h = torch.tensor([0.0, 0.25, -1.5, 2.0], requires_grad=True)
r = torch.sinc(h)
r.backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
# (the gradient's sin and cos are 2.15's MKL ones: compared to 6 digits)
print("sinc grad", [float("%.6g" % v) for v in h.grad.tolist()], r.grad_fn.name())

d = torch.tensor([0.0, 90.0, -180.0, 45.5, 360.0, 1e38])
bits("deg2rad", torch.deg2rad(d))
bits("deg2rad float64", torch.deg2rad(d.double()))
bits("deg2rad int", torch.deg2rad(torch.tensor([0, 90, 180])))
bits("deg2rad float16", d[:5].half().deg2rad())
bits("rad2deg", torch.rad2deg(torch.tensor([0.0, 3.141592653589793, -1.0, 1e37])))
bits("rad2deg int", torch.rad2deg(torch.tensor([1, 2], dtype=torch.int32)))
bits("rad2deg bool", torch.rad2deg(torch.tensor([True, False])))
e = d.clone()
e.deg2rad_()
bits("deg2rad_", e)
e.rad2deg_()
bits("rad2deg_", e)
out = torch.empty(6)
torch.deg2rad(d, out=out)
bits("deg2rad out", out)
err("deg2rad_ int", lambda: torch.tensor([1, 2]).deg2rad_())
err("rad2deg_ int", lambda: torch.tensor([1, 2]).rad2deg_())
k = torch.tensor([1.0, 2.0], requires_grad=True)
torch.rad2deg(k).sum().backward()
print("rad2deg grad", k.grad.tolist())
k.grad = None
torch.deg2rad(k).sum().backward()
print("deg2rad grad", k.grad.tolist())
