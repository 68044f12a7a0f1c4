# cdist (p = 0, 1, 2, inf and others; float32 and float64; feature counts around the vector
# widths; batched and broadcast; the distance kernel bit for bit, and the matrix-product form for
# p = 2 with more than 25 rows or compute_mode "use_mm_for_euclid_dist" within rounding), pdist,
# their gradients and nodes, empty inputs and 2.15's errors.
# The matrix-product form ends in mm / bmm (MKL in PyTorch 2.15, OpenBLAS here).
# reference tolerance: rtol=1e-5 atol=1e-5
import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    for m in (1, 3, 7, 8, 9, 17, 64):
        a = torch.randn(4, m, dtype=dtype)
        b = torch.randn(5, m, dtype=dtype)
        for p in (0.0, 1.0, 2.0, float("inf"), 3.0, 0.5):
            d = torch.cdist(a, b, p=p)
            print("cdist", dtype, m, p, tuple(d.shape), d.flatten().tolist())
        x = torch.randn(6, m, dtype=dtype)
        for p in (0.0, 1.0, 2.0, float("inf"), 3.0, 0.5):
            print("pdist", dtype, m, p, F.pdist(x, p).tolist())
print("cdist nan", torch.cdist(torch.tensor([[float("nan"), 0.0, 7.0]]), torch.zeros(1, 3), p=float("inf")).tolist(),
      F.pdist(torch.tensor([[float("nan"), 0.0, 7.0], [0.0, 0.0, 0.0]]), p=float("inf")).tolist())
print("cdist zero rows", torch.cdist(torch.ones(2, 3), torch.ones(2, 3)).tolist())
bx = torch.randn(2, 1, 3, 4)
by = torch.randn(3, 5, 4)
d = torch.cdist(bx, by)
print("cdist broadcast", tuple(d.shape), d.stride(), d.flatten().tolist()[:10])
d = torch.cdist(torch.randn(3, 4), torch.randn(2, 5, 4), p=1)
print("cdist batch", tuple(d.shape), d.flatten().tolist()[:10])
big1, big2 = torch.randn(30, 8), torch.randn(40, 8)
print("cdist mm", torch.cdist(big1, big2).flatten().tolist()[:20])
print("cdist mm forced", torch.cdist(big1[:3], big2[:4], compute_mode="use_mm_for_euclid_dist").flatten().tolist())
print("cdist kernel forced", torch.cdist(big1, big2, compute_mode="donot_use_mm_for_euclid_dist").flatten().tolist()[:20])
print("cdist mm batched", torch.cdist(torch.randn(2, 30, 4), torch.randn(2, 3, 4)).flatten().tolist()[:12])
print("cdist empty", tuple(torch.cdist(torch.randn(0, 3), torch.randn(5, 3)).shape),
      tuple(torch.cdist(torch.randn(3, 3), torch.randn(0, 3)).shape),
      torch.cdist(torch.randn(2, 0), torch.randn(3, 0)).tolist())
print("pdist small", F.pdist(torch.randn(1, 3)).tolist(), F.pdist(torch.randn(3, 0)).tolist())
print("pdist transposed", F.pdist(torch.randn(3, 5).t()).tolist())

for p in (1.0, 2.0, float("inf"), 3.0, 1.5):
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
    d = torch.cdist(a, b, p=p)
    d.backward(torch.arange(1.0, 7.0, dtype=torch.float64).view(3, 2))
    print("cdist grad", p, type(d.grad_fn).__name__, a.grad.flatten().tolist(), b.grad.flatten().tolist())
    x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    y = torch.pdist(x, p)
    y.backward(torch.arange(1.0, 7.0, dtype=torch.float64))
    print("pdist grad", p, type(y.grad_fn).__name__, x.grad.flatten().tolist())
a = torch.randn(30, 4, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
d = torch.cdist(a, b)
print("cdist mm grad_fn", type(d.grad_fn).__name__, type(d.grad_fn.next_functions[0][0]).__name__)
d.sum().backward()
print("cdist mm grad", a.grad.flatten().tolist()[:8], b.grad.flatten().tolist())
a = torch.randn(2, 1, 3, 4, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
torch.cdist(a, b).sum().backward()
print("cdist broadcast grad", tuple(a.grad.shape), tuple(b.grad.shape), a.grad.flatten().tolist()[:6])
z = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
torch.cdist(z, z.detach()).sum().backward()
print("cdist zero grad", z.grad.tolist())

attempt("cdist 1-D", lambda: torch.cdist(torch.randn(3), torch.randn(2, 3)))
attempt("cdist 1-D x2", lambda: torch.cdist(torch.randn(2, 3), torch.randn(3)))
attempt("cdist columns", lambda: torch.cdist(torch.randn(2, 4), torch.randn(2, 3)))
attempt("cdist p", lambda: torch.cdist(torch.randn(2, 3), torch.randn(2, 3), p=-1))
attempt("cdist long", lambda: torch.cdist(torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3)))
attempt("cdist long x2", lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.long)))
attempt("cdist mixed", lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64)))
attempt("cdist half", lambda: torch.cdist(torch.ones(2, 3).half(), torch.ones(2, 3).half()))
attempt("cdist batch", lambda: torch.cdist(torch.randn(2, 3, 4), torch.randn(3, 3, 4)))
attempt("cdist mode", lambda: torch.cdist(torch.randn(2, 3), torch.randn(2, 3), compute_mode="foo"))
attempt("pdist 1-D", lambda: torch.pdist(torch.randn(3)))
attempt("pdist long", lambda: torch.pdist(torch.ones(3, 2, dtype=torch.long)))
attempt("pdist p", lambda: torch.pdist(torch.randn(3, 2), -1.0))
attempt("pdist half", lambda: torch.pdist(torch.randn(3, 2).half()))
