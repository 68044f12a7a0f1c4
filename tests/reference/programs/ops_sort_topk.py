# sort (stable or not, descending, any dim, NaN, ties, integers, bool), argsort, msort, topk
# (largest or smallest, sorted, both of its algorithms: partial sort when k * 64 <= n, else
# nth_element), kthvalue (keepdim); their gradients and nodes; errors.
import torch


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
x = torch.randn(4, 9)
v, i = torch.sort(x)
print("sort", v.tolist(), i.tolist())
v, i = torch.sort(x, dim=0, descending=True)
print("sort dim0 desc", v.tolist(), i.tolist())
ties = torch.tensor([3, 1, 2, 3, 1, 2, 3, 1, 2, 0, 3, 3, 1, 1, 2, 2, 0, 0, 3, 1, 2, 1, 3, 0] * 3)
print("sort ties", torch.sort(ties).indices.tolist())
print("sort ties desc", torch.sort(ties, descending=True).indices.tolist())
print("sort ties stable", torch.sort(ties, stable=True).indices.tolist())
print("sort ties stable desc", torch.sort(ties, stable=True, descending=True).indices.tolist())
nan = torch.tensor([1.0, float("nan"), -1.0, float("inf"), float("nan"), -float("inf"), 0.0])
print("sort nan", torch.sort(nan).values.tolist(), torch.sort(nan).indices.tolist())
print("sort nan desc", torch.sort(nan, descending=True).values.tolist(), torch.sort(nan, descending=True).indices.tolist())
print("sort bool", torch.sort(torch.tensor([True, False, True, False])).indices.tolist())
print("sort transposed", torch.sort(x.t(), dim=1).values.stride(), torch.sort(x.t(), dim=1).indices.flatten().tolist())
print("sort 0-dim", torch.sort(torch.tensor(2.0)).values.item(), torch.sort(torch.tensor(2.0)).indices.item())
print("sort empty", torch.sort(torch.randn(0, 3)).values.shape)
print("argsort", torch.argsort(x, dim=1, descending=True).tolist())
print("argsort stable", torch.argsort(ties, stable=True).tolist())
print("msort", torch.msort(x).tolist())
print("sort half", torch.sort(x.half()).values.tolist()[0])
print("sort float64", torch.sort(x.double(), descending=True).indices.tolist())

big = torch.randn(3, 200)
for k in (1, 3, 4, 50, 200):
    for largest in (True, False):
        tv, ti = torch.topk(big, k, largest=largest)
        print("topk", k, largest, tv.flatten().tolist()[:30], ti.flatten().tolist()[:30])
tv, ti = torch.topk(big, 60, sorted=False)
print("topk unsorted", sorted(ti[0].tolist()) == sorted(torch.topk(big, 60).indices[0].tolist()))
print("topk ties", torch.topk(ties, 10).indices.tolist(), torch.topk(ties, 1).indices.tolist())
print("topk ties small", torch.topk(ties, 5, largest=False).indices.tolist())
print("topk nan", torch.topk(nan, 3).values.tolist(), torch.topk(nan, 3, largest=False).values.tolist())
print("topk dim0", torch.topk(x, 2, dim=0).indices.tolist())
print("topk int", torch.topk(torch.tensor([5, 1, 9, 3]), 2).values.tolist())
print("topk k0", torch.topk(x, 0).values.shape)
print("topk method", x.topk(2)[1].tolist())
print("kthvalue", torch.kthvalue(x, 3).values.tolist(), torch.kthvalue(x, 3).indices.tolist())
print("kthvalue keepdim", torch.kthvalue(x, 2, 0, True).values.shape, torch.kthvalue(x, 2, 0, True).indices.tolist())
print("kthvalue ties", torch.kthvalue(ties.float(), 20).values.item(), torch.kthvalue(ties.float(), 20).indices.item())
print("kthvalue ties many", [torch.kthvalue(ties.float(), k).indices.item() for k in range(1, 72, 7)])
print("kthvalue nan", torch.kthvalue(nan, 7).values.item(), torch.kthvalue(nan, 5).values.item())
attempt("topk k", lambda: torch.topk(x, 10))
attempt("topk neg", lambda: torch.topk(x, -1))
attempt("kthvalue k", lambda: torch.kthvalue(x, 10))
attempt("kthvalue 0", lambda: torch.kthvalue(x, 0))
attempt("sort dim", lambda: torch.sort(x, dim=5))
g = torch.randn(3, 5, requires_grad=True)
sv, si = torch.sort(g, dim=1)
print("sort node", sv.grad_fn.name(), si.requires_grad)
(sv * torch.arange(15.0).view(3, 5)).sum().backward()
print("sort grad", g.grad.tolist())
g.grad = None
tv, ti = torch.topk(g, 2)
print("topk node", tv.grad_fn.name())
(tv * torch.tensor([1.0, 2.0])).sum().backward()
print("topk grad", g.grad.tolist())
g.grad = None
kv, ki = torch.kthvalue(g, 2)
print("kthvalue node", kv.grad_fn.name())
kv.sum().backward()
print("kthvalue grad", g.grad.tolist())
