# F.unfold / F.fold (im2col / col2im: kernel, dilation, padding, stride, batched or not,
# overlapping blocks summed in PyTorch's order, dtypes), scatter_reduce (every reduction, with
# and without include_self, NaN, integer mean), their gradients and nodes; errors.
import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
x = torch.randn(2, 3, 5, 6)
for args in [dict(kernel_size=2), dict(kernel_size=(2, 3), stride=2), dict(kernel_size=3, padding=1),
             dict(kernel_size=(3, 2), dilation=(2, 1), padding=(1, 0), stride=(1, 2))]:
    u = F.unfold(x, **args)
    print("unfold", args, tuple(u.shape), u.stride(), u.sum().item(), u[1, -1].tolist())
    f = F.fold(u, (5, 6), **args)
    print("fold", args, tuple(f.shape), f.stride(), f[0, 1].tolist())
print("unfold unbatched", F.unfold(x[0], 2).tolist()[4])
print("unfold transposed", F.unfold(x.transpose(2, 3), 2)[0, 3].tolist())
print("unfold bool", F.unfold(x > 0, 2)[0, 0].tolist())
print("unfold float64", F.unfold(x.double(), 3, padding=1)[1, 7].tolist())
print("unfold half", F.unfold(x.half(), 2)[0, 2].tolist())
print("fold unbatched", F.fold(torch.randn(12, 20), (5, 6), 2)[2].tolist())
print("fold half", F.fold(torch.randn(1, 12, 20).half(), (5, 6), 2)[0, 1].tolist())
print("fold empty batch", tuple(F.fold(torch.randn(0, 12, 20), (5, 6), 2).shape))
print("unfold empty batch", tuple(F.unfold(torch.randn(0, 3, 4, 4), 2).shape))

xg = torch.randn(1, 2, 4, 4, dtype=torch.float64, requires_grad=True)
u = F.unfold(xg, 2, padding=1, stride=2)
print("unfold grad_fn", type(u.grad_fn).__name__)
u.backward(torch.arange(float(u.numel()), dtype=torch.float64).view(u.shape))
print("unfold grad", xg.grad.flatten().tolist())
cg = torch.randn(1, 8, 25, dtype=torch.float64, requires_grad=True)
f = F.fold(cg, (4, 4), 2, padding=1, stride=1)
print("fold grad_fn", type(f.grad_fn).__name__)
f.backward(torch.arange(float(f.numel()), dtype=torch.float64).view(f.shape))
print("fold grad", cg.grad.flatten().tolist())

im2col = torch._C._nn.im2col
col2im = torch._C._nn.col2im
attempt("im2col kernel 0", lambda: im2col(x, [0, 2], [1, 1], [0, 0], [1, 1]))
attempt("im2col dilation 0", lambda: im2col(x, [2, 2], [0, 1], [0, 0], [1, 1]))
attempt("im2col padding -1", lambda: im2col(x, [2, 2], [1, 1], [-1, 0], [1, 1]))
attempt("im2col stride 0", lambda: im2col(x, [2, 2], [1, 1], [0, 0], [0, 1]))
attempt("im2col too big", lambda: im2col(x, [7, 2], [1, 1], [0, 0], [1, 1]))
attempt("im2col 2-D", lambda: im2col(torch.randn(3, 4), [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("im2col 5-D", lambda: im2col(torch.randn(2, 3, 4, 5, 6), [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("im2col empty", lambda: im2col(torch.randn(2, 0, 4, 4), [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("im2col three", lambda: im2col(x, [2, 2, 2], [1, 1], [0, 0], [1, 1]))
attempt("im2col long", lambda: im2col(torch.ones(1, 1, 3, 3, dtype=torch.long), [2, 2], [1, 1], [0, 0], [1, 1]))
c = torch.randn(2, 12, 20)
attempt("col2im blocks", lambda: col2im(c, [5, 6], [2, 3], [1, 1], [0, 0], [1, 1]))
attempt("col2im 1-D", lambda: col2im(torch.randn(12), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("col2im empty", lambda: col2im(torch.randn(2, 0, 20), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("col2im divisible", lambda: col2im(torch.randn(2, 13, 20), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("col2im small", lambda: col2im(c, [1, 1], [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("col2im output_size", lambda: col2im(c, [5, 6, 7], [2, 2], [1, 1], [0, 0], [1, 1]))
attempt("col2im stride 0", lambda: col2im(c, [5, 6], [2, 2], [1, 1], [0, 0], [1, 0]))
attempt("col2im long", lambda: col2im(torch.ones(1, 4, 4, dtype=torch.long), [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]))

s = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
i = torch.tensor([0, 1, 0, 1, 2, 1])
src = torch.tensor([1.0, 2.0, float("nan"), 4.0, 5.0, 6.0])
src2 = torch.tensor([1.5, -2.0, 3.0, 0.25, 5.0, 6.0])
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        print("scatter_reduce", red, inc, s.scatter_reduce(0, i, src, red, include_self=inc).tolist(),
              s.scatter_reduce(0, i, src2, red, include_self=inc).tolist())
si = torch.tensor([1, -7, 3, 4, 5])
srci = torch.tensor([1, 2, 3, 4, -5, 6])
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        print("scatter_reduce int", red, inc, si.scatter_reduce(0, i, srci, red, include_self=inc).tolist())
m = torch.randn(4, 6)
idx = torch.randint(0, 4, (3, 6))
vals = torch.randn(3, 6)
print("scatter_reduce 2-D", m.scatter_reduce(0, idx, vals, "sum").tolist())
print("scatter_reduce dim1", m.scatter_reduce(1, torch.randint(0, 6, (4, 3)), torch.randn(4, 3), "amax", include_self=False).tolist())
y = torch.zeros(3, 4)
print("scatter_reduce_", y.scatter_reduce_(1, torch.tensor([[0, 0], [1, 3]]), torch.ones(2, 2), "sum").tolist(), y.tolist())
print("scatter_reduce max alias", s.scatter_reduce(0, i, src2, "max").tolist(), s.scatter_reduce(0, i, src2, "min").tolist())
print("scatter_reduce bool", torch.tensor([True, False]).scatter_reduce(0, torch.tensor([0, 1]), torch.tensor([True, True]), "sum").tolist())
print("scatter_reduce float64", s.double().scatter_reduce(0, i, src2.double(), "mean").tolist())
print("scatter_reduce half", s.half().scatter_reduce(0, i, src2.half(), "prod").tolist())
print("scatter_reduce empty index", s.scatter_reduce(0, torch.tensor([], dtype=torch.long), torch.tensor([]), "mean").tolist())
attempt("scatter_reduce bad reduce", lambda: s.scatter_reduce(0, i, src, "foo"))
attempt("scatter_reduce dtype", lambda: s.scatter_reduce(0, i, srci, "sum"))
attempt("scatter_reduce index", lambda: s.scatter_reduce(0, torch.tensor([0, 9]), src, "sum"))
attempt("scatter_reduce index dtype", lambda: s.scatter_reduce(0, i.float(), src, "sum"))
attempt("scatter_reduce dim", lambda: s.scatter_reduce(1, i, src, "sum"))
attempt("scatter_reduce sizes", lambda: s.scatter_reduce(0, i, src[:2], "sum"))
attempt("scatter_reduce bool mean", lambda: torch.tensor([True]).scatter_reduce(0, torch.tensor([0]), torch.tensor([True]), "mean"))
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        a = torch.tensor([1.0, 2.0, 0.0, 4.0, 5.0], dtype=torch.float64, requires_grad=True)
        b = torch.tensor([1.0, 2.0, 3.0, 0.0, 5.0, 2.0], dtype=torch.float64, requires_grad=True)
        r = a.scatter_reduce(0, i, b, red, include_self=inc)
        r.backward(torch.arange(1.0, 6.0, dtype=torch.float64))
        print("scatter_reduce grad", red, inc, type(r.grad_fn).__name__, a.grad.tolist(), b.grad.tolist())
