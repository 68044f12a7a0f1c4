# NumPy-style stacking, splitting and axis helpers and the small aliases of the tensor API, as
# PyTorch decomposes them (CompositeImplicitAutograd): hstack / vstack / row_stack / dstack /
# column_stack (and out=), atleast_1d/2d/3d (one tensor, several, a list), hsplit / vsplit /
# dsplit (sections and indices), swapaxes / swapdims, moveaxis (int and tuples),
# ravel, positive, fix, absolute, true_divide, diff (n, dim, prepend / append), take_along_dim,
# count_nonzero, nansum / nanmean, cartesian_prod, block_diag, trace, their gradients, the
# views they return and PyTorch's errors.
import torch


def show(name, t):
    if isinstance(t, (tuple, list)):
        print(name, type(t).__name__, len(t))
        for i, p in enumerate(t):
            show("  [%d]" % i, p)
        return
    print(name, list(t.shape), t.dtype, t.flatten().tolist()[:16])


def err(name, f):
    try:
        f()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__ + ":", str(e).split("\n")[0])


a = torch.arange(6.).reshape(2, 3)
b = torch.arange(6., 12.).reshape(2, 3)
v = torch.arange(3)
w = torch.arange(3, 6)
s = torch.tensor(7.)

show("hstack", torch.hstack((a, b)))
show("hstack 1-D", torch.hstack([v, w]))
show("vstack", torch.vstack((a, b)))
show("vstack 1-D", torch.vstack([v, w]))
show("row_stack", torch.row_stack((v, w)))
show("dstack", torch.dstack((a, b)))
show("dstack 1-D", torch.dstack((v, w)))
show("column_stack", torch.column_stack((v, a.t(), w)))
show("hstack promotes", torch.hstack((v, torch.tensor([0.5]))))
out = torch.empty(0)
torch.vstack((a, b), out=out)
show("vstack out", out)
out = torch.empty(0, dtype=torch.int64)
torch.hstack((v, w), out=out)
show("hstack out", out)
err("hstack empty", lambda: torch.hstack([]))
err("vstack empty", lambda: torch.vstack(()))
err("dstack empty", lambda: torch.dstack([]))
err("column_stack empty", lambda: torch.column_stack([]))
err("hstack mismatch", lambda: torch.hstack((a, torch.zeros(3, 3))))

show("atleast_1d scalar", torch.atleast_1d(s))
show("atleast_2d scalar", torch.atleast_2d(s))
show("atleast_3d scalar", torch.atleast_3d(s))
show("atleast_2d vector", torch.atleast_2d(v))
show("atleast_3d vector", torch.atleast_3d(v))
show("atleast_3d matrix", torch.atleast_3d(a))
show("atleast_3d 4-D", torch.atleast_3d(torch.zeros(1, 2, 3, 4)))
show("atleast_1d several", torch.atleast_1d(s, v))
show("atleast_2d list", torch.atleast_2d([s, a]))
print("atleast_2d is a view:", torch.atleast_2d(v)._base is v)

x = torch.arange(24.).reshape(2, 4, 3)
show("hsplit sections", torch.hsplit(x, 2))
show("hsplit indices", torch.hsplit(x, [1, 3]))
show("hsplit 1-D", torch.hsplit(torch.arange(6), 3))
show("vsplit", torch.vsplit(x, [1]))
show("dsplit", torch.dsplit(x, 3))
show("method hsplit", x.hsplit([2]))
show("tensor_split method", x.tensor_split(3, dim=2))
err("hsplit 0-D", lambda: torch.hsplit(s, 1))
err("hsplit not divisible", lambda: torch.hsplit(x, 3))
err("vsplit 1-D", lambda: torch.vsplit(v, 1))
err("vsplit not divisible", lambda: torch.vsplit(x, 3))
err("dsplit 2-D", lambda: torch.dsplit(a, 1))
err("dsplit not divisible", lambda: torch.dsplit(x, 2))
err("hsplit zero", lambda: torch.hsplit(x, 0))

show("swapaxes", torch.swapaxes(x, 0, 2))
show("swapdims", x.swapdims(1, -1))
show("moveaxis int", torch.moveaxis(x, 0, -1))
show("moveaxis tuples", torch.moveaxis(x, (0, 1), (2, 0)))
show("movedim tuples", x.movedim((0, 2), (1, 0)))
print("moveaxis strides", torch.moveaxis(x, (0, 1), (2, 0)).stride())
err("moveaxis repeated", lambda: torch.moveaxis(x, (0, 0), (1, 2)))
err("moveaxis lengths", lambda: torch.moveaxis(x, (0, 1), (2,)))
err("swapaxes range", lambda: torch.swapaxes(x, 0, 3))

show("ravel", torch.ravel(a.t()))
print("ravel is a view when contiguous:", torch.ravel(a)._base is a, a.ravel().data_ptr() == a.data_ptr())
show("positive", torch.positive(torch.tensor([-1.5, 2.0])))
err("positive bool", lambda: torch.positive(torch.tensor([True])))
f = torch.tensor([-2.7, -0.5, 0.5, 2.7, float("inf"), float("nan")])
show("fix", torch.fix(f))
show("fix method", f.fix())
g = f.clone()
torch.fix_(g)
show("fix_", g)
show("absolute", torch.absolute(torch.tensor([-3, 0, 4])))
show("absolute method", f.absolute())
show("true_divide", torch.true_divide(torch.tensor([1, 2, 3]), 2))
show("true_divide tensor", torch.true_divide(torch.tensor([1, 2, 3]), torch.tensor([2, 4, 8])))
h = torch.tensor([1.0, 2.0, 3.0])
h.true_divide_(4)
show("true_divide_", h)

z = torch.tensor([[1, 3, 6, 10], [2, 2, 5, 11]])
show("diff", torch.diff(z))
show("diff dim 0", torch.diff(z, dim=0))
show("diff n=2", z.diff(n=2))
show("diff n=5", torch.diff(z, n=5))
show("diff prepend append", torch.diff(z, prepend=torch.zeros(2, 1, dtype=torch.int64), append=torch.tensor([[20], [30]])))
show("diff bool", torch.diff(torch.tensor([True, False, False, True])))
show("diff float", torch.diff(torch.tensor([0.5, 1.25, 3.0, -1.0])))
err("diff 0-D", lambda: torch.diff(s))
err("diff n", lambda: torch.diff(z, n=-1))
err("diff prepend dims", lambda: torch.diff(z, prepend=torch.zeros(2)))

t = torch.tensor([[10., 30., 20.], [60., 40., 50.]])
idx = t.argsort(dim=1)
show("take_along_dim", torch.take_along_dim(t, idx, dim=1))
show("take_along_dim flat", torch.take_along_dim(t, torch.tensor([0, 5, 2])))
show("take_along_dim broadcast", torch.take_along_dim(t, torch.tensor([[0], [2]]), 1))
show("take_along_dim method", t.take_along_dim(t.argmax(dim=0, keepdim=True), dim=0))
err("take_along_dim dtype", lambda: torch.take_along_dim(t, idx.int(), 1))
err("take_along_dim dims", lambda: torch.take_along_dim(t, torch.tensor([0]), 1))

c = torch.tensor([[0, 1, 0], [2, 0, 3]])
show("count_nonzero", torch.count_nonzero(c))
show("count_nonzero dim", torch.count_nonzero(c, dim=1))
show("count_nonzero dims", c.count_nonzero(dim=(0, 1)))
show("count_nonzero float", torch.count_nonzero(torch.tensor([0.0, -0.0, float("nan"), 1e-30])))

n = torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), 6.0]])
show("nansum", torch.nansum(n))
show("nansum dim", torch.nansum(n, dim=1))
show("nansum keepdim", n.nansum(0, keepdim=True))
show("nansum int", torch.nansum(torch.tensor([1, 2, 3])))
show("nanmean", torch.nanmean(n))
show("nanmean dim", torch.nanmean(n, dim=0))
show("nanmean method", n.nanmean(1, keepdim=True))
err("nanmean int", lambda: torch.nanmean(torch.tensor([1, 2])))
big = torch.randn(1000)
big[::7] = float("nan")
print("nansum bits", torch.nansum(big).item() == torch.where(big.isnan(), 0, big).sum().item())

show("cartesian_prod", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
show("cartesian_prod one", torch.cartesian_prod(torch.tensor([1, 2, 3])))
show("cartesian_prod three", torch.cartesian_prod(torch.tensor([0, 1]), torch.tensor([2]), torch.tensor([3, 4])))
show("block_diag", torch.block_diag(torch.ones(2, 2), torch.tensor([[5.0, 6.0]]), torch.tensor(7.0), torch.tensor([8, 9])))
show("block_diag empty", torch.block_diag())
err("block_diag 3-D", lambda: torch.block_diag(torch.zeros(1, 1, 1)))
m = torch.arange(12.).reshape(3, 4)
show("trace", torch.trace(m))
show("trace int", torch.arange(9).reshape(3, 3).trace())
err("trace 1-D", lambda: torch.trace(v))

# gradients flow through the decompositions
p = torch.arange(6., requires_grad=True)
q = torch.arange(6., 12., requires_grad=True)
r = torch.vstack((p.reshape(2, 3), q.reshape(2, 3)))
(r * torch.arange(12.).reshape(4, 3)).sum().backward()
print("vstack grads", p.grad.tolist(), q.grad.tolist(), r.grad_fn.name())
p.grad = None
torch.diff(p * p, n=2).sum().backward()
print("diff grad", p.grad.tolist())
p.grad = None
torch.nanmean(torch.where(p > 2, p, float("nan"))).backward()
print("nanmean grad", p.grad.tolist())
p.grad = None
torch.block_diag(p.reshape(2, 3), q.reshape(3, 2)).pow(2).sum().backward()
print("block_diag grad", p.grad.tolist())
p.grad = None
torch.take_along_dim(p.reshape(2, 3), torch.tensor([[2, 0], [1, 1]]), 1).sum().backward()
print("take_along_dim grad", p.grad.tolist())
print("trace grad_fn", torch.trace(p.reshape(2, 3)).grad_fn.name())
