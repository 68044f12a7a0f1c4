# flip; reflection, replication and circular padding through F.pad (1-D, 2-D, 3-D, batched or
# not, negative padding) and their gradients; nearest and bilinear upsampling through
# F.interpolate (sizes, scale factors, align_corners) and their gradients; errors.
import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
x = torch.randn(2, 3, 4)
print("flip", torch.flip(x, (0, 2)).flatten().tolist())
print("flip method", x.flip(1).flatten().tolist()[:12], x.flip(-1, 0).shape)
print("flip transposed", torch.flip(x.transpose(1, 2), [1]).stride(), torch.flip(x.transpose(1, 2), [1]).flatten().tolist()[:8])
print("flip int", torch.flip(torch.arange(6).view(2, 3), [0, 1]).tolist())
print("flip empty dims", torch.flip(x, []).equal(x))
print("flip 0-dim", torch.flip(torch.tensor(3.0), []).item())
attempt("flip dup", lambda: torch.flip(x, (0, 0)))
attempt("flip range", lambda: torch.flip(x, (5,)))
g = torch.randn(2, 3, requires_grad=True)
yf = torch.flip(g, [1])
print("flip node", yf.grad_fn.name())
(yf * torch.arange(6.0).view(2, 3)).sum().backward()
print("flip grad", g.grad.tolist())

img = torch.randn(2, 2, 4, 5)
for mode in ("reflect", "replicate", "circular"):
    print("pad2d", mode, F.pad(img, (2, 1, 3, 2), mode=mode).flatten().tolist())
    print("pad1d", mode, F.pad(torch.randn(2, 3, 6), (3, 2), mode=mode).flatten().tolist())
    print("pad3d", mode, F.pad(torch.randn(1, 2, 3, 4, 5), (1, 2, 2, 1, 1, 1), mode=mode).flatten().tolist())
    print("pad unbatched", mode, F.pad(torch.randn(3, 4, 5), (1, 1, 2, 2), mode=mode).shape)
    print("pad negative", mode, F.pad(img, (-1, 2, 1, -2), mode=mode).flatten().tolist())
print("pad int", F.pad(torch.arange(12).view(1, 3, 4), (2, 2), mode="reflect").tolist())
print("pad float64", F.pad(img.double(), (1, 1, 1, 1), mode="replicate").flatten().tolist()[:20])
print("pad constant", F.pad(img, (1, 1), value=2.5).flatten().tolist()[:20])
print("pad ops", torch._C._nn.reflection_pad2d(img, [1, 1, 1, 1]).shape, torch._C._nn.replication_pad1d(torch.randn(2, 3), [4, 0]).shape)
attempt("pad reflect too big", lambda: F.pad(img, (5, 0, 0, 0), mode="reflect"))
attempt("pad reflect too big h", lambda: F.pad(img, (0, 0, 0, 4), mode="reflect"))
attempt("pad bad size", lambda: F.pad(img, (1, 1), mode="reflect"))
attempt("pad bad mode", lambda: F.pad(img, (1, 1), mode="bogus"))
attempt("pad value", lambda: F.pad(img, (1, 1, 1, 1), mode="reflect", value=1.0))
attempt("pad 2d input", lambda: F.pad(torch.randn(2, 3), (1, 1, 1, 1), mode="reflect"))
attempt("pad op dims", lambda: torch._C._nn.reflection_pad2d(torch.randn(3, 3), [1, 1, 1, 1]))
attempt("pad op negative", lambda: torch._C._nn.replication_pad2d(img, [-3, -3, 0, 0]))
attempt("pad op negative 1d", lambda: torch._C._nn.replication_pad1d(torch.randn(2, 3), [-3, -1]))
attempt("pad op count", lambda: torch._C._nn.reflection_pad2d(img, [1, 1, 1]))
attempt("pad op bool", lambda: torch._C._nn.reflection_pad2d(torch.ones(2, 3, 3, dtype=torch.bool), [1, 1, 1, 1]))
attempt("pad circular wrap", lambda: F.pad(img, (6, 0), mode="circular"))
for mode in ("reflect", "replicate", "circular"):
    gp = torch.randn(1, 2, 3, 4, requires_grad=True)
    yp = F.pad(gp, (2, 1, 1, 2), mode=mode)
    print("pad node", mode, yp.grad_fn.name())
    (yp * torch.arange(float(yp.numel())).view(yp.shape)).sum().backward()
    print("pad grad", mode, gp.grad.flatten().tolist())
g1 = torch.randn(2, 5, requires_grad=True)
y1 = F.pad(g1, (3, 2), mode="reflect")
(y1 * torch.randn(y1.shape)).sum().backward()
print("pad1d grad", y1.grad_fn.name(), g1.grad.flatten().tolist())

u = torch.randn(2, 3, 5, 7)
print("nearest size", F.interpolate(u, size=(9, 11)).flatten().tolist())
print("nearest scale", F.interpolate(u, scale_factor=2).flatten().tolist()[:40])
print("nearest scale frac", F.interpolate(u, scale_factor=(1.5, 0.7)).shape, F.interpolate(u, scale_factor=(1.5, 0.7)).flatten().tolist())
print("nearest down", F.interpolate(u, size=(3, 4)).flatten().tolist())
print("nearest recompute", F.interpolate(u, scale_factor=1.7, recompute_scale_factor=True).shape)
print("nearest uint8", F.interpolate(torch.arange(12, dtype=torch.uint8).view(1, 1, 3, 4), scale_factor=2).flatten().tolist()[:20])
for ac in (False, True):
    print("bilinear size", ac, F.interpolate(u, size=(9, 11), mode="bilinear", align_corners=ac).flatten().tolist())
    print("bilinear scale", ac, F.interpolate(u, scale_factor=2, mode="bilinear", align_corners=ac).flatten().tolist()[:60])
    print("bilinear down", ac, F.interpolate(u, size=(3, 4), mode="bilinear", align_corners=ac).flatten().tolist())
    print("bilinear large", ac, F.interpolate(torch.randn(1, 2, 40, 50), size=(70, 90), mode="bilinear", align_corners=ac).flatten().tolist()[::97])
    print("bilinear float64", ac, F.interpolate(u.double(), size=(6, 9), mode="bilinear", align_corners=ac).flatten().tolist()[:40])
attempt("interp both", lambda: F.interpolate(u, size=4, scale_factor=2))
attempt("interp none", lambda: F.interpolate(u))
attempt("interp align nearest", lambda: F.interpolate(u, size=4, align_corners=True))
attempt("interp 3d bilinear", lambda: F.interpolate(torch.randn(1, 2, 3), scale_factor=2, mode="bilinear"))
attempt("interp len", lambda: F.interpolate(u, size=(4, 4, 4)))
attempt("nearest op size", lambda: torch._C._nn.upsample_nearest2d(torch.randn(2, 3, 3), [4, 4]))
attempt("nearest op zero", lambda: torch._C._nn.upsample_nearest2d(u, [0, 4]))
attempt("nearest op long", lambda: torch._C._nn.upsample_nearest2d(u.long(), [4, 4]))
attempt("bilinear op long", lambda: torch._C._nn.upsample_bilinear2d(u.long(), [4, 4], False))
attempt("nearest op len", lambda: torch._C._nn.upsample_nearest2d(u, [4]))
for mode, ac in (("nearest", None), ("bilinear", False), ("bilinear", True)):
    gu = torch.randn(1, 2, 3, 4, requires_grad=True)
    yu = F.interpolate(gu, size=(7, 9), mode=mode, align_corners=ac)
    print("interp node", mode, ac, yu.grad_fn.name())
    (yu * torch.randn(yu.shape)).sum().backward()
    print("interp grad", mode, ac, gu.grad.flatten().tolist())
