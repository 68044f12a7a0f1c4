# torch.nn.ModuleDict, ParameterList and ParameterDict: registration (parameters(), state_dict
# keys), the dict and list operations, printed forms, update orders (a plain dict's keys sorted
# for ParameterDict), and the errors.
import collections

import torch
from torch import nn

torch.manual_seed(0)


def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


md = nn.ModuleDict({"relu": nn.ReLU(), "lin": nn.Linear(2, 3)})
md["tanh"] = nn.Tanh()
md.update([("drop", nn.Dropout(0.1))])
print(md)
print(list(md), len(md), "lin" in md, [k for k, _ in md.named_parameters()], list(md.state_dict()))
print(type(md.pop("relu")).__name__, list(md.keys()))
attempt("update number", lambda: md.update(3))
attempt("update element", lambda: md.update([("a", nn.ReLU(), 1)]))

pl = nn.ParameterList([nn.Parameter(torch.randn(2, 3)), torch.zeros(4)])
pl.append(torch.ones(1, dtype=torch.float64))
pl += [torch.ones(2)]
print(pl)
print(len(pl), [tuple(p.shape) for p in pl], [type(p).__name__ for p in pl], list(pl.state_dict()))
print(pl[-1].tolist(), len(pl[1:3]), [n for n, _ in nn.Module.named_parameters(pl)])
attempt("index", lambda: pl[9])
attempt("extend tensor", lambda: pl.extend(torch.ones(2)))
attempt("call", lambda: pl(1))

pd = nn.ParameterDict({"b": torch.ones(2), "a": nn.Parameter(torch.zeros(1, 2))})
pd.update(collections.OrderedDict([("z", torch.ones(3)), ("c", torch.ones(1))]))
print(pd)
print(list(pd), list(pd.state_dict()), "a" in pd, pd.get("q"), tuple(pd["z"].shape))
print(type(pd.pop("b")).__name__, list(pd.keys()), len(pd))
print(list((pd | nn.ParameterDict({"y": torch.ones(1)})).keys()))
attempt("key", lambda: pd[1])
attempt("update pairs", lambda: pd.update([("k",)]))
