# The nn layers PyTorch 2.15 writes in Python: padding modules, Fold / Unfold, EmbeddingBag, LocalResponseNorm,
# LPPool1d/2d/3d (F.local_response_norm / F.lp_pool*), nn.init's trunc_normal_ (both samplers), eye_, dirac_ and
# sparse_: printed forms, state_dict keys, values, gradients, the draws after manual_seed and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t, n=5):
    return [round(v, n) for v in t.flatten().tolist()]


def err(f):
    try:
        f()
    except Exception as e:
        print(f"{type(e).__name__}: {e}")


x1, x2 = torch.arange(6.0).view(1, 2, 3), torch.arange(9.0).view(1, 1, 3, 3)
x3 = torch.arange(8.0).view(1, 1, 2, 2, 2)
for d, x in ((1, x1), (2, x2), (3, x3)):
    for kind in ("Zero", "Constant", "Reflection", "Replication", "Circular"):
        cls = getattr(nn, f"{kind}Pad{d}d")
        m = cls(1, 2.5) if kind == "Constant" else cls((1, 0, 1, 1, 0, 1)[:2 * d] if d > 1 else 1)
        y = m(x)
        print(m, tuple(y.shape), y.flatten()[:12].tolist(), list(m.state_dict().keys()))
print(nn.ConstantPad2d((1, 2, 0, 1), -1), nn.ZeroPad2d([1, 2, 3, 4]).padding)
xg = torch.arange(9.0).view(1, 1, 3, 3).requires_grad_()
nn.ReflectionPad2d((2, 1, 1, 2))(xg).pow(2).sum().backward()
print(xg.grad.flatten().tolist())
err(lambda: nn.CircularPad2d(1)(torch.ones(3)))
err(lambda: nn.ReflectionPad1d(3)(x1))

unf, fold = nn.Unfold(kernel_size=(2, 3), dilation=1, padding=1, stride=2), nn.Fold((4, 5), 2, stride=1)
print(unf, fold, sep="\n")
cols = unf(torch.arange(32.0).view(1, 2, 4, 4))
print(tuple(cols.shape), cols[0, :, :4].tolist())
img = fold(torch.ones(1, 8, 12))
print(tuple(img.shape), img[0, 0].tolist(), nn.Fold(3, 2)(torch.arange(16.0).view(4, 4)).tolist())
err(lambda: fold(torch.ones(1, 7, 12)))

torch.manual_seed(0)
bag = nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2)
print(bag, list(bag.state_dict().keys()), r(bag.weight[:3]))
print(nn.EmbeddingBag(5, 2), nn.EmbeddingBag(5, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, mode="max"))
inp, offs = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4])
out = bag(inp, offs)
out.sum().backward()
print(r(out), r(bag.weight.grad[:5]))
psw = torch.arange(8.0) / 4
print(r(bag(inp, offs, per_sample_weights=psw)), r(nn.EmbeddingBag(10, 3)(inp.view(2, 4))))
pre = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).view(4, 3), mode="max", include_last_offset=True)
print(pre, pre.weight.requires_grad, pre(torch.tensor([0, 3, 1, 2]), torch.tensor([0, 1, 4])).tolist())
err(lambda: nn.EmbeddingBag(4, 2, padding_idx=4))
err(lambda: nn.EmbeddingBag.from_pretrained(torch.ones(3)))
err(lambda: nn.EmbeddingBag(4, 2, _weight=torch.ones(3, 2)))

torch.manual_seed(1)
lrn = nn.LocalResponseNorm(3, alpha=0.5, beta=0.75, k=2.0)
a3, a4 = torch.randn(2, 5, 4, requires_grad=True), torch.randn(1, 4, 2, 3)
o = lrn(a3)
o.sum().backward()
print(lrn, nn.LocalResponseNorm(2), r(o[0]), r(a3.grad[1]), type(o.grad_fn).__name__)
print(r(F.local_response_norm(a4, 2)), r(F.local_response_norm(torch.randn(1, 3, 2, 2, 2), 4, k=0.5)[0, 1]))
err(lambda: lrn(torch.ones(3, 4)))

b = torch.rand(1, 2, 6, 6, requires_grad=True)
for m in (nn.LPPool1d(2, 3), nn.LPPool2d(1.5, (2, 3), stride=2), nn.LPPool2d(float("inf"), 2, ceil_mode=True),
          nn.LPPool3d(3, 2, stride=(1, 2, 2))):
    y = m(b[0] if isinstance(m, nn.LPPool1d) else (b.unsqueeze(2).expand(1, 2, 3, 6, 6) if isinstance(m, nn.LPPool3d) else b))
    print(m, tuple(y.shape), r(y.flatten()[:8]))
y = F.lp_pool2d(b, 2, 2)
y.sum().backward()
print(r(y), r(b.grad[0, 0]), r(F.lp_pool1d(b[0, 0], -float("inf"), 2)))
err(lambda: nn.LPPool2d(0, 2))
err(lambda: F.lp_pool1d(b[0], 0, 2))

torch.manual_seed(2)
w = torch.empty(3, 5)
print(r(nn.init.trunc_normal_(w)), r(nn.init.trunc_normal_(w, mean=0.5, std=2.0, a=1.0, b=1.5)))
print(r(nn.init.trunc_normal_(torch.empty(6), std=0.02, a=-0.04, b=0.04)), r(nn.init.sparse_(torch.empty(4, 3), 0.5)))
print(nn.init.eye_(torch.empty(2, 4)).tolist(), nn.init.dirac_(torch.empty(4, 2, 3), groups=2).tolist())
tn = nn.init.trunc_normal_(torch.empty(300), a=-1.0, b=1.0)
print(nn.init.dirac_(torch.empty(2, 3, 3, 2)).sum().item(), r(tn[:4]), round(tn.sum().item(), 4), tn.abs().max().item() <= 1,
      torch.rand(2).tolist())
err(lambda: nn.init.eye_(torch.empty(2, 2, 2)))
err(lambda: nn.init.dirac_(torch.empty(2, 2)))
err(lambda: nn.init.dirac_(torch.empty(3, 2, 3), groups=2))
err(lambda: nn.init.sparse_(torch.empty(3), 0.1))
