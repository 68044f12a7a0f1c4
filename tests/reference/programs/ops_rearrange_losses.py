# tril / triu, clamp_min / clamp_max, roll, rot90, fliplr / flipud, repeat_interleave, outer,
# diag / diag_embed, meshgrid, tile, broadcast_to, tensor_split; the losses binary_cross_entropy
# (with logits, weights, pos_weight), l1, smooth_l1, huber, kl_div; normalize, cosine_similarity,
# logsigmoid; their values, gradients and nodes, and errors.
import warnings

import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
m = torch.randn(2, 4, 5)
for d in (-2, 0, 1, 3):
    print("tril", d, torch.tril(m, d).flatten().tolist())
    print("triu", d, torch.triu(m, d).flatten().tolist())
print("tril ones", torch.tril(torch.ones(4, 4)).tolist())
t = m.clone()
t.tril_(1)
print("tril_", t.flatten().tolist())
print("triu transposed", torch.triu(m.transpose(1, 2)).flatten().tolist())
print("tril int", torch.tril(torch.arange(9).view(3, 3)).tolist())
attempt("tril 1d", lambda: torch.tril(torch.ones(3)))
g = torch.randn(3, 3, requires_grad=True)
y = torch.tril(g)
print("tril node", y.grad_fn.name())
(y * torch.arange(9.0).view(3, 3)).sum().backward()
print("tril grad", g.grad.tolist())

x = torch.randn(4, 3)
print("clamp_min", torch.clamp_min(x, 0.1).tolist(), x.clamp_max(-0.2).tolist())
xc = x.clone()
xc.clamp_min_(0.0)
print("clamp_min_", xc.tolist())
gx = torch.randn(5, requires_grad=True)
gx.clamp_min(0.0).sum().backward()
print("clamp_min grad", gx.grad.tolist(), gx.clamp_min(0.0).grad_fn.name())

r = torch.arange(12).view(3, 4)
print("roll", torch.roll(r, 1).tolist(), torch.roll(r, -1, 0).tolist(), torch.roll(r, (1, 2), (0, 1)).tolist())
print("roll method", r.roll(5, 1).tolist())
attempt("roll mismatch", lambda: torch.roll(r, (1, 2), (0,)))
gr = torch.randn(3, 4, requires_grad=True)
yr = torch.roll(gr, (1, -2), (0, 1))
(yr * torch.arange(12.0).view(3, 4)).sum().backward()
print("roll grad", yr.grad_fn.name(), gr.grad.tolist())
for k in (-1, 0, 1, 2, 3, 5):
    print("rot90", k, torch.rot90(r, k).tolist())
print("rot90 dims", torch.rot90(torch.arange(8).view(2, 2, 2), 1, [1, 2]).tolist())
attempt("rot90 dims", lambda: torch.rot90(r, 1, [0]))
attempt("rot90 same", lambda: torch.rot90(r, 1, [0, 0]))
print("fliplr", torch.fliplr(r).tolist(), "flipud", torch.flipud(r).tolist())
attempt("fliplr 1d", lambda: torch.fliplr(torch.ones(3)))

print("repeat_interleave", torch.repeat_interleave(torch.tensor([1, 2, 3]), 2).tolist())
print("repeat_interleave dim", torch.repeat_interleave(r, 2, dim=0).tolist())
print("repeat_interleave tensor", torch.repeat_interleave(r, torch.tensor([1, 0, 2]), dim=0).tolist())
print("repeat_interleave counts", torch.repeat_interleave(torch.tensor([2, 0, 3])).tolist())
print("repeat_interleave method", r.repeat_interleave(3, 1).shape)
attempt("repeat_interleave neg", lambda: torch.repeat_interleave(torch.tensor([1, -1])))
attempt("repeat_interleave size", lambda: torch.repeat_interleave(r, torch.tensor([1, 2]), dim=0))
gi = torch.randn(2, 3, requires_grad=True)
yi = torch.repeat_interleave(gi, 2, dim=1)
(yi * torch.arange(12.0).view(2, 6)).sum().backward()
print("repeat_interleave grad", yi.grad_fn.name(), gi.grad.tolist())

a = torch.arange(1.0, 4.0)
b = torch.arange(1.0, 3.0)
print("outer", torch.outer(a, b).tolist(), a.outer(b).shape)
attempt("outer 2d", lambda: torch.outer(r, b))
print("diag", torch.diag(a).tolist(), torch.diag(a, 1).tolist(), torch.diag(r).tolist(), torch.diag(r, -1).tolist())
print("diag_embed", torch.diag_embed(torch.arange(6.0).view(2, 3)).tolist())
print("diag_embed offset", torch.diag_embed(a, -1, 0, 1).tolist())
gd = torch.randn(3, requires_grad=True)
yd = torch.diag(gd)
(yd * torch.arange(9.0).view(3, 3)).sum().backward()
print("diag grad", yd.grad_fn.name(), gd.grad.tolist())
xs, ys = torch.meshgrid(a, b, indexing="ij")
print("meshgrid ij", xs.tolist(), ys.tolist())
xs, ys = torch.meshgrid(a, b, indexing="xy")
print("meshgrid xy", xs.tolist(), ys.tolist(), xs.stride())
print("tile", torch.tile(torch.tensor([1, 2]), (2, 2)).tolist(), r.tile((2,)).shape)
print("broadcast_to", torch.broadcast_to(a, (2, 3)).tolist(), torch.broadcast_to(a, (2, 3)).stride())
print("tensor_split", [p.tolist() for p in torch.tensor_split(torch.arange(7), 3)])
print("tensor_split indices", [p.tolist() for p in torch.tensor_split(torch.arange(7), [1, 5])])
print("tensor_split dim", [p.shape for p in r.tensor_split(3, dim=1)])

p = torch.rand(4, 3)
q = torch.rand(4, 3)
w = torch.rand(3)
for red in ("mean", "sum", "none"):
    print("bce", red, F.binary_cross_entropy(p, q, reduction=red).tolist())
    print("bce weight", red, F.binary_cross_entropy(p, q, w, reduction=red).tolist())
    print("bce logits", red, F.binary_cross_entropy_with_logits(x, q, reduction=red).tolist())
    print("bce logits pos", red, F.binary_cross_entropy_with_logits(x, q, w, pos_weight=torch.tensor([2.0, 1.0, 0.5, 3.0]).view(4, 1).expand(4, 3).contiguous(), reduction=red).tolist())
    print("l1", red, F.l1_loss(p, q, reduction=red).tolist())
    print("smooth_l1", red, F.smooth_l1_loss(x, q, reduction=red, beta=0.5).tolist())
    print("huber", red, F.huber_loss(x, q, reduction=red, delta=0.7).tolist())
print("bce edge", F.binary_cross_entropy(torch.tensor([0.0, 1.0, 0.5]), torch.tensor([1.0, 0.0, 0.5]), reduction="none").tolist())
print("bce float64", F.binary_cross_entropy(p.double(), q.double()).item())
print("smooth_l1 beta0", F.smooth_l1_loss(x, q, beta=0.0).item())
print("logsigmoid", F.logsigmoid(torch.linspace(-30, 30, 25)).tolist())
print("logsigmoid float64", F.logsigmoid(torch.linspace(-30, 30, 13, dtype=torch.float64)).tolist())
lp = F.log_softmax(torch.randn(3, 5), 1)
tp = F.softmax(torch.randn(3, 5), 1)
print("kl_div batchmean", F.kl_div(lp, tp, reduction="batchmean").item())
print("kl_div sum log_target", F.kl_div(lp, tp.log(), reduction="sum", log_target=True).item())
print("kl_div none", F.kl_div(lp, torch.tensor([0.0, 0.5, 0.5, 0.0, 0.0]).expand(3, 5), reduction="none").tolist())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("kl_div mean", F.kl_div(lp, tp).item(), len(caught))
    print("l1 broadcast", F.l1_loss(p, q[0]).item(), str(caught[-1].message)[:40])
attempt("bce size", lambda: F.binary_cross_entropy(p, q[0]))
attempt("bce range", lambda: F.binary_cross_entropy(p + 1, q))
attempt("bce logits size", lambda: F.binary_cross_entropy_with_logits(x, q[0]))
v1 = torch.randn(4, 6)
v2 = torch.randn(4, 6)
print("cosine", F.cosine_similarity(v1, v2).tolist(), F.cosine_similarity(v1, v2[0:1], dim=1).tolist())
print("cosine dim0", torch.cosine_similarity(v1, v2, dim=0).tolist())
print("cosine zero", F.cosine_similarity(torch.zeros(2, 3), torch.ones(2, 3)).tolist())
print("normalize", F.normalize(v1).tolist(), F.normalize(v1, p=1, dim=0).tolist())
print("normalize zero", F.normalize(torch.zeros(2, 3)).tolist())
for name, f in (("bce", lambda a, b: F.binary_cross_entropy(torch.sigmoid(a), b)),
                ("bce logits", lambda a, b: F.binary_cross_entropy_with_logits(a, b, pos_weight=torch.tensor(2.0))),
                ("l1", F.l1_loss), ("smooth_l1", F.smooth_l1_loss), ("huber", lambda a, b: F.huber_loss(a, b, delta=0.5)),
                ("kl_div", lambda a, b: F.kl_div(F.log_softmax(a, 1), F.softmax(b, 1), reduction="batchmean")),
                ("cosine", lambda a, b: F.cosine_similarity(a, b).sum()),
                ("normalize", lambda a, b: (F.normalize(a) * b).sum())):
    ga = torch.randn(3, 4, requires_grad=True)
    gb = torch.rand(3, 4, requires_grad=True)
    loss = f(ga, gb)
    loss.backward()
    if name == "kl_div":  # through log_softmax's and softmax's backward, which round differently here
        print("grad", name, loss.grad_fn.name(), loss.item(), [f"{v:.6f}" for v in ga.grad.flatten().tolist()],
              [f"{v:.6f}" for v in gb.grad.flatten().tolist()])
        continue
    print("grad", name, loss.grad_fn.name(), loss.item(), ga.grad.tolist(), gb.grad.tolist())
