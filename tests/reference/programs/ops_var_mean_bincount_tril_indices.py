# var_mean / std_mean (all dims, some dims, correction, unbiased, keepdim, float64, their
# gradients), bincount (minlength, float and double weights, empty input, errors) and
# tril_indices / triu_indices (offsets, wide and tall shapes, dtype=, errors).
import warnings

import torch


def show(name, t):
    if isinstance(t, tuple):
        print(name, "tuple", len(t))
        for p in t:
            show("  ", p)
        return
    print(name, list(t.shape), t.dtype, t.flatten().tolist()[:12])


def err(name, f):
    try:
        f()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__ + ":", str(e).split("\n")[0])


torch.manual_seed(0)
x = torch.randn(4, 6)
show("var_mean", torch.var_mean(x))
show("var_mean dim", torch.var_mean(x, 1))
show("var_mean dim keepdim", torch.var_mean(x, dim=0, keepdim=True))
show("var_mean unbiased=False", torch.var_mean(x, 1, unbiased=False))
show("var_mean correction=0", torch.var_mean(x, dim=(0, 1), correction=0))
show("std_mean", torch.std_mean(x))
show("std_mean dims", torch.std_mean(x, [0]))
# (2.15 takes the mean in one Welford pass, this project as a sum over n: float64 means can
# differ in the last bit, so they are compared to 15 digits)
s64, m64 = torch.std_mean(x.double(), 1)
show("std_mean float64", s64)
print("  mean", [float("%.15g" % v) for v in m64.tolist()])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    show("var_mean one element", torch.var_mean(torch.tensor([3.0])))
print("warned:", [str(c.message).split(" (Triggered internally")[0] for c in caught])
r = torch.var_mean(x, 1)
print("named", type(r).__name__, r[0].shape)
p = x.clone().requires_grad_()
v, m = torch.var_mean(p, 1)
(v.sum() + 2 * m.sum()).backward()
print("grad", [round(g, 5) for g in p.grad.flatten().tolist()[:8]])
err("var_mean int", lambda: torch.var_mean(torch.tensor([1, 2, 3])))

b = torch.tensor([0, 1, 1, 3, 2, 1, 7])
show("bincount", torch.bincount(b))
show("bincount minlength", torch.bincount(b, minlength=10))
show("bincount weights", torch.bincount(b, weights=torch.linspace(0, 1, 7)))
show("bincount double weights", b.bincount(torch.arange(7, dtype=torch.float64)))
show("bincount int weights", torch.bincount(b, torch.arange(7)))
show("bincount empty", torch.bincount(torch.tensor([], dtype=torch.int64)))
show("bincount empty minlength", torch.bincount(torch.tensor([], dtype=torch.int64), minlength=3))
show("bincount uint8", torch.bincount(torch.tensor([1, 1, 4], dtype=torch.uint8)))
err("bincount negative", lambda: torch.bincount(torch.tensor([1, -1])))
err("bincount 2-D", lambda: torch.bincount(torch.tensor([[1]])))
err("bincount float", lambda: torch.bincount(torch.tensor([1.0])))
err("bincount weights size", lambda: torch.bincount(b, torch.ones(3)))
err("bincount minlength", lambda: torch.bincount(b, minlength=-1))

show("tril_indices", torch.tril_indices(3, 3))
show("tril_indices offset", torch.tril_indices(4, 3, 1))
show("tril_indices negative offset", torch.tril_indices(4, 3, -1))
show("tril_indices wide", torch.tril_indices(2, 5, 2))
show("triu_indices", torch.triu_indices(3, 3))
show("triu_indices offset", torch.triu_indices(4, 5, 2))
show("triu_indices negative offset", torch.triu_indices(4, 3, -2))
show("triu_indices int32", torch.triu_indices(3, 4, dtype=torch.int32))
show("tril_indices empty", torch.tril_indices(0, 3))
show("triu_indices far", torch.triu_indices(3, 3, 5))
err("tril_indices negative row", lambda: torch.tril_indices(-1, 3))
err("triu_indices float dtype", lambda: torch.triu_indices(3, 3, dtype=torch.float32))
t = torch.arange(16.).reshape(4, 4)
i = torch.triu_indices(4, 4, 1)
show("gather upper triangle", t[i[0], i[1]])
