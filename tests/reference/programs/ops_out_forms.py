# out= forms: torch.abs / logical_and / logical_or / logical_not / mv / addmv with out=, which
# resize the out tensor (warning when it had elements), keep or take a layout, check its dtype
# and refuse autograd; addmv and addmv_ with beta / alpha, broadcasting, their checks and grads.
import warnings
import torch

warnings.simplefilter("always")
warnings.showwarning = lambda message, category, filename, lineno, file=None, line=None: print(
    category.__name__ + ":", str(message).split(" (Triggered internally")[0])


def attempt(label, f):
    try:
        r = f()
        print(label, r, tuple(r.shape), r.stride(), r.dtype)
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


a = torch.tensor([-1.5, 2.0, -3.0])
o = torch.empty(0)
r = torch.abs(a, out=o)
print("abs out=empty(0):", r, o, r is o)
attempt("abs out too small:", lambda: torch.abs(a, out=torch.empty(2)))
attempt("abs out of right shape keeps strides:", lambda: torch.abs(torch.ones(4, 3), out=torch.empty(3, 4).t()))
attempt("abs resized out takes the input's layout:", lambda: torch.abs(torch.ones(4, 3).t(), out=torch.empty(0)))
attempt("abs out int64:", lambda: torch.abs(a, out=torch.empty(3, dtype=torch.int64)))
attempt("abs out float64:", lambda: torch.abs(a, out=torch.empty(3, dtype=torch.float64)))
attempt("abs int out:", lambda: torch.abs(torch.tensor([-3, 2]), out=torch.empty(2, dtype=torch.int64)))
attempt("abs of bool:", lambda: torch.abs(torch.tensor([True])))
attempt("abs_ of bool:", lambda: torch.tensor([True]).abs_())
attempt("abs out expanded:", lambda: torch.abs(a, out=torch.empty(3)[None].expand(2, 3)))
x = torch.tensor([-1.0, 4.0])
print("abs_:", x.abs_(), x, torch.abs_(torch.tensor([-2])))

b = torch.tensor([True, False, True])
c = torch.tensor([1.0, 0.0, 0.0])
attempt("logical_and out float:", lambda: torch.logical_and(b, c, out=torch.empty(3)))
attempt("logical_or out int32:", lambda: torch.logical_or(b, c, out=torch.empty(3, dtype=torch.int32)))
attempt("logical_not out int64:", lambda: torch.logical_not(c, out=torch.empty(3, dtype=torch.int64)))
attempt("logical_and broadcast out:", lambda: torch.logical_and(torch.tensor([[1], [0]]), c, out=torch.empty(0)))
attempt("logical_or resized:", lambda: torch.logical_or(b, c, out=torch.empty(5, dtype=torch.bool)))
print("logical_not / logical_not_:", torch.logical_not(c), c.logical_not_(), c)

m = torch.arange(6.0).reshape(2, 3)
v = torch.tensor([1.0, 2.0, 3.0])
attempt("mv:", lambda: torch.mv(m, v))
attempt("mv of m.t():", lambda: torch.mv(m.t(), torch.ones(2)))
attempt("mv out=empty(5):", lambda: torch.mv(m, v, out=torch.empty(5)))
attempt("mv out strided:", lambda: torch.mv(m, v, out=torch.empty(4)[::2]))
attempt("mv out int64:", lambda: torch.mv(m, v, out=torch.empty(2, dtype=torch.int64)))
attempt("mv matrix @ matrix:", lambda: torch.mv(m, m))
attempt("mv vector @ vector:", lambda: torch.mv(v, v))
attempt("mv size mismatch:", lambda: torch.mv(m, torch.ones(2)))
attempt("mv dtypes:", lambda: torch.mv(m.double(), v))
attempt("mv int:", lambda: torch.mv(m.int(), v.int()))
attempt("mv bool:", lambda: torch.mv(m.bool(), v.bool()))
attempt("mv empty rows:", lambda: torch.mv(torch.ones(0, 3), v))
attempt("mv empty k:", lambda: torch.mv(torch.ones(2, 0), torch.ones(0)))

attempt("addmv:", lambda: torch.addmv(torch.ones(2), m, v))
attempt("addmv broadcast, beta, alpha:", lambda: torch.addmv(torch.ones(1), m, v, beta=2, alpha=0.5))
attempt("addmv 0-dim self:", lambda: torch.addmv(torch.ones(()), m, v))
attempt("addmv beta=0 ignores nan:", lambda: torch.addmv(torch.tensor([float("nan"), 1.0]), m, v, beta=0))
attempt("addmv float64 self:", lambda: torch.addmv(torch.ones(2).double(), m, v))
attempt("addmv int beta=2:", lambda: torch.addmv(torch.ones(2, dtype=torch.int32), m.int(), v.int(), beta=2))
attempt("addmv self size:", lambda: torch.addmv(torch.ones(3), m, v))
attempt("addmv 2-D self:", lambda: torch.addmv(torch.ones(2, 1), m, v))
attempt("addmv 0-dim self, size mismatch:", lambda: torch.addmv(torch.ones(()), m, torch.ones(4)))
attempt("addmv out:", lambda: torch.addmv(torch.ones(2), m, v, out=torch.empty(0)))
attempt("addmv out int64:", lambda: torch.addmv(torch.ones(2), m, v, out=torch.empty(2, dtype=torch.int64)))
attempt("addmv_:", lambda: torch.ones(2).addmv_(m, v, alpha=2))
attempt("addmv_ strided self:", lambda: torch.ones(4)[::2].addmv_(m, v))
attempt("torch.addmv_:", lambda: torch.addmv_(torch.ones(2), m, v, beta=0))
attempt("addmv_ self size:", lambda: torch.ones(1).addmv_(m, v))
attempt("addmv_ self dtype:", lambda: torch.ones(2).int().addmv_(m, v))
attempt("addmv_ double operands:", lambda: torch.ones(2).addmv_(m.double(), v.double()))

req = torch.ones(3, requires_grad=True)
attempt("abs out= with an input requiring grad:", lambda: torch.abs(req, out=torch.empty(3)))
attempt("abs out= into a tensor requiring grad:", lambda: torch.abs(torch.ones(3), out=req))
attempt("add out= into a tensor requiring grad:", lambda: torch.add(torch.ones(3), 1, out=req))
attempt("mv out= with an input requiring grad:", lambda: torch.mv(m.clone().requires_grad_(), v, out=torch.empty(2)))
with torch.no_grad():
    attempt("abs out= under no_grad:", lambda: torch.abs(req, out=torch.empty(3)))

s = torch.ones(2, requires_grad=True)
mm = m.clone().requires_grad_()
vv = v.clone().requires_grad_()
y = torch.addmv(s, mm, vv, beta=3, alpha=2)
print("addmv:", y)
y.sum().backward()
print("grads:", s.grad, mm.grad, vv.grad)
print("graph:", type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions])
z = torch.mv(mm, vv)
print("mv graph:", type(z.grad_fn).__name__, [type(f).__name__ for f, _ in z.grad_fn.next_functions])
w = s.clone()
w.addmv_(mm, vv)
print("addmv_ graph:", type(w.grad_fn).__name__)
s1 = torch.ones(1, requires_grad=True)
torch.addmv(s1, mm, vv, beta=0.5).sum().backward()
print("broadcast self grad:", s1.grad)

meta = torch.empty(2, 3, device="meta")
attempt("abs on meta, out on meta:", lambda: torch.abs(meta, out=torch.empty(0, device="meta")))
attempt("mv on meta:", lambda: torch.mv(meta, torch.empty(3, device="meta")))
attempt("addmv on meta:", lambda: torch.addmv(torch.empty(2, device="meta"), meta, torch.empty(3, device="meta")))
attempt("logical_not on meta:", lambda: torch.logical_not(meta))
attempt("logical_not_ on meta:", lambda: meta.logical_not_())
attempt("copy_ into meta:", lambda: meta.copy_(torch.ones(3)))
attempt("copy_ into meta, bad shape:", lambda: meta.copy_(torch.ones(4)))
attempt("copy_ out of meta:", lambda: torch.ones(2, 3).copy_(meta))

with torch.inference_mode():
    inf = torch.ones(3)
attempt("abs of an inference tensor, out= a normal one:", lambda: torch.abs(inf, out=torch.empty(3)))
attempt("abs out= an inference tensor:", lambda: torch.abs(torch.ones(3), out=inf))
