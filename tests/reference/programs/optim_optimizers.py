# The optimizers beside SGD and Adam, as a program sees them in PyTorch 2.15: AdamW, RMSprop,
# Adagrad, Adadelta, Adamax, NAdam, RAdam and LBFGS (with and without the strong Wolfe line
# search). Each runs a few steps on nn.Linear(4, 3)'s parameters under several option sets
# and prints the parameters afterwards in full; on the CPU 2.15 runs each optimizer's
# single-tensor (for-loop) update, whose operations torch.optim reproduces one by one. Also:
# print(optimizer), the state keys and 'step' tensors, state_dict round trips, and the errors
# of invalid arguments.
#
# The linear map is written element-wise, (x.unsqueeze(1) * W).sum(-1) + b, instead of
# calling the module: F.linear is addmm, which 2.15 hands to MKL's sgemm, whose last bits
# OpenBLAS does not reproduce; products and PyTorch's summation order are exact.
#
# Two operators the optimizers call still round differently in 2.15, so the numbers are
# compared within a tolerance:
#   * sqrt (Adam's family, RMSprop, Adagrad, Adadelta, NAdam, RAdam, LBFGS's interpolation):
#     2.15 computes float sqrt with MKL's VML (vmsSqrt, VML_HA, through ATen's vml for every float
#     sqrt, contiguous or not, and for pow(x, 0.5)), which is not correctly rounded: about one
#     float32 element in six is one unit in the last place off the IEEE square root this
#     project computes. The parameters then differ by a few units in the last place.
#   * dot (LBFGS): 2.15's is MKL's cblas_sdot, this project's OpenBLAS's gemm; their sums run in
#     other orders, and L-BFGS's two-loop recursion and line search carry the difference on
#     (up to about 1e-5 relative after 10 to 15 iterations).
# With 2.15's sqrt replaced by the correctly rounded one and dot by (a * b).sum() on both
# sides, the output is identical bit for bit. The iteration counts, which near the minimum
# would turn on those last bits (ys > 1e-10, the tolerances), are kept away from it: a few
# iterations per step.
# reference tolerance: rtol=2e-5 atol=1e-7
import copy

import torch
import torch.nn as nn
from torch.optim.adamw import AdamW
from torch.optim.rmsprop import RMSprop
from torch.optim.adagrad import Adagrad
from torch.optim.adadelta import Adadelta
from torch.optim.adamax import Adamax
from torch.optim.nadam import NAdam
from torch.optim.radam import RAdam
from torch.optim.lbfgs import LBFGS

torch.manual_seed(0)
x = torch.randn(8, 4)
y = torch.randn(8, 3)
init = nn.Linear(4, 3)
w0 = init.weight.detach().clone()
b0 = init.bias.detach().clone()


def fresh_model():
    m = nn.Linear(4, 3)
    with torch.no_grad():
        m.weight.copy_(w0)
        m.bias.copy_(b0)
    return m


def loss_of(m):
    out = (x.unsqueeze(1) * m.weight).sum(-1) + m.bias
    return ((out - y) ** 2).mean()


def show_state(opt, m):
    st = opt.state[m.weight]
    print("  state keys:", sorted(st.keys()))
    for k in sorted(st.keys()):
        v = st[k]
        if torch.is_tensor(v) and v.dim() == 0:
            print("  ", k, v.dtype, v.item())


def run(name, make, steps=5, groups=False):
    m = fresh_model()
    if groups:
        opt = make([{"params": [m.weight]}, {"params": [m.bias], "lr": 0.05}])
    else:
        opt = make(m.parameters())
    print("==", name)
    print(opt)
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_of(m)
        loss.backward()
        opt.step()
    print("  weight", m.weight.tolist())
    print("  bias", m.bias.tolist())
    show_state(opt, m)
    return m, opt


configs = [
    ("AdamW default", lambda p: AdamW(p)),
    ("AdamW wd amsgrad", lambda p: AdamW(p, lr=0.02, betas=(0.8, 0.99), weight_decay=0.1, amsgrad=True)),
    ("AdamW maximize groups", lambda p: AdamW(p, lr=0.01, maximize=True), 5, True),
    ("RMSprop default", lambda p: RMSprop(p)),
    ("RMSprop momentum wd", lambda p: RMSprop(p, lr=0.005, momentum=0.9, weight_decay=0.05)),
    ("RMSprop centered", lambda p: RMSprop(p, lr=0.01, alpha=0.9, centered=True)),
    ("RMSprop centered momentum maximize", lambda p: RMSprop(p, lr=0.003, momentum=0.5, centered=True, maximize=True)),
    ("RMSprop groups", lambda p: RMSprop(p, lr=0.01, eps=1e-6), 5, True),
    ("Adagrad default", lambda p: Adagrad(p)),
    ("Adagrad lr_decay wd init", lambda p: Adagrad(p, lr=0.1, lr_decay=0.1, weight_decay=0.05, initial_accumulator_value=0.1)),
    ("Adagrad maximize groups", lambda p: Adagrad(p, lr=0.02, maximize=True, eps=1e-8), 5, True),
    ("Adadelta default", lambda p: Adadelta(p)),
    ("Adadelta rho wd", lambda p: Adadelta(p, lr=0.5, rho=0.5, eps=1e-4, weight_decay=0.1)),
    ("Adadelta maximize", lambda p: Adadelta(p, maximize=True)),
    ("Adamax default", lambda p: Adamax(p)),
    ("Adamax wd betas", lambda p: Adamax(p, lr=0.05, betas=(0.5, 0.9), weight_decay=0.1)),
    ("Adamax maximize groups", lambda p: Adamax(p, lr=0.01, maximize=True), 5, True),
    ("NAdam default", lambda p: NAdam(p)),
    ("NAdam wd", lambda p: NAdam(p, lr=0.01, weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam decoupled maximize", lambda p: NAdam(p, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    ("RAdam default", lambda p: RAdam(p), 8),
    ("RAdam wd betas", lambda p: RAdam(p, lr=0.01, betas=(0.8, 0.9), weight_decay=0.1), 8),
    ("RAdam decoupled maximize groups", lambda p: RAdam(p, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True), 8, True),
]
for c in configs:
    run(*c)

# LBFGS: the closure API, one group only
print(LBFGS(fresh_model().parameters()))
for name, kwargs in [("LBFGS max_iter 2", dict(max_iter=2)),
                     ("LBFGS small history", dict(lr=0.5, max_iter=3, history_size=2)),
                     ("LBFGS strong_wolfe", dict(max_iter=2, max_eval=10, history_size=3, line_search_fn="strong_wolfe")),
                     ("LBFGS strong_wolfe history 3", dict(max_iter=3, history_size=3, line_search_fn="strong_wolfe")),
                     ("LBFGS maximize", dict(max_iter=2, maximize=True))]:
    m = fresh_model()
    opt = LBFGS(m.parameters(), **kwargs)
    print("==", name)
    print(opt)
    evals = []

    def closure():
        opt.zero_grad()
        loss = loss_of(m)
        loss.backward()
        evals.append(loss.item())
        return loss

    for _ in range(5):
        ret = opt.step(closure)
        print("  step returned", type(ret).__name__, ret.item())
    print("  evaluations", len(evals))
    print("  weight", m.weight.tolist())
    print("  bias", m.bias.tolist())
    st = opt.state[m.weight]
    print("  state keys:", sorted(st.keys()))
    print("  func_evals", st["func_evals"], "n_iter", st["n_iter"], "history", len(st["old_dirs"]))
    print("  bias state", len(opt.state[m.bias]))

# state_dict round trips: an optimizer loaded from another's state continues as it does (the
# dict is deep-copied first: 2.15's load_state_dict keeps the very tensors of the dict it
# loads, so two live optimizers would otherwise share their state)
for name, make in [("AdamW", lambda p: AdamW(p, lr=0.01, amsgrad=True)),
                   ("RMSprop", lambda p: RMSprop(p, momentum=0.9, centered=True)),
                   ("Adagrad", lambda p: Adagrad(p, lr_decay=0.01)),
                   ("Adadelta", lambda p: Adadelta(p)),
                   ("Adamax", lambda p: Adamax(p)),
                   ("NAdam", lambda p: NAdam(p)),
                   ("RAdam", lambda p: RAdam(p))]:
    m1 = fresh_model()
    o1 = make(m1.parameters())
    print("==", name, "state_dict")
    print("  before any step:", {k: sorted(v) for k, v in o1.state_dict()["state"].items()})
    for _ in range(2):
        o1.zero_grad()
        loss_of(m1).backward()
        o1.step()
    sd = o1.state_dict()
    print("  param_groups", sd["param_groups"])
    print("  state", {k: sorted(v) for k, v in sd["state"].items()})
    m2 = fresh_model()
    with torch.no_grad():
        m2.weight.copy_(m1.weight)
        m2.bias.copy_(m1.bias)
    o2 = make(m2.parameters())
    o2.load_state_dict(copy.deepcopy(sd))
    for o, m in ((o1, m1), (o2, m2)):
        o.zero_grad()
        loss_of(m).backward()
        o.step()
    print("  same after load:", torch.equal(m1.weight, m2.weight), torch.equal(m1.bias, m2.bias))
    print("  step", o2.state[m2.weight]["step"])

# AdamW is Adam with decoupled weight decay
m = fresh_model()
opt = AdamW(m.parameters())
print(isinstance(opt, torch.optim.Adam), opt.defaults["weight_decay"], opt.defaults["decoupled_weight_decay"])

# invalid arguments
p = [nn.Parameter(torch.zeros(2))]
bad = [
    lambda: AdamW(p, lr=-1.0),
    lambda: AdamW(p, betas=(1.0, 0.999)),
    lambda: AdamW(p, betas=(0.9, -0.1)),
    lambda: AdamW(p, eps=-1e-8),
    lambda: AdamW(p, weight_decay=-0.1),
    lambda: RMSprop(p, lr=-0.01),
    lambda: RMSprop(p, eps=-1.0),
    lambda: RMSprop(p, momentum=-0.9),
    lambda: RMSprop(p, weight_decay=-1),
    lambda: RMSprop(p, alpha=-0.5),
    lambda: Adagrad(p, lr=-0.1),
    lambda: Adagrad(p, lr_decay=-0.1),
    lambda: Adagrad(p, weight_decay=-0.1),
    lambda: Adagrad(p, initial_accumulator_value=-1.0),
    lambda: Adagrad(p, eps=-1e-10),
    lambda: Adadelta(p, lr=-1.0),
    lambda: Adadelta(p, rho=1.5),
    lambda: Adadelta(p, rho=-0.1),
    lambda: Adadelta(p, eps=-1e-6),
    lambda: Adadelta(p, weight_decay=-0.5),
    lambda: Adamax(p, lr=-0.002),
    lambda: Adamax(p, eps=-1.0),
    lambda: Adamax(p, betas=(0.9, 1.0)),
    lambda: Adamax(p, betas=(-0.1, 0.9)),
    lambda: Adamax(p, weight_decay=-1e-3),
    lambda: NAdam(p, lr=-1.0),
    lambda: NAdam(p, betas=(1.5, 0.9)),
    lambda: NAdam(p, weight_decay=-0.1),
    lambda: NAdam(p, momentum_decay=-4e-3),
    lambda: NAdam(p, eps=-1.0),
    lambda: RAdam(p, lr=-1e-3),
    lambda: RAdam(p, betas=(0.9, 1.0)),
    lambda: RAdam(p, eps=-1.0),
    lambda: RAdam(p, weight_decay=-1.0),
    lambda: LBFGS(p, lr=-1.0),
    lambda: LBFGS([{"params": [nn.Parameter(torch.zeros(1))]}, {"params": [nn.Parameter(torch.zeros(1))]}]),
    lambda: RMSprop([]),
    lambda: Adagrad(torch.zeros(2)),
]
for f in bad:
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)

# LBFGS line search other than strong_wolfe
m = fresh_model()
opt = LBFGS(m.parameters(), line_search_fn="backtracking")


def closure():
    opt.zero_grad()
    loss = loss_of(m)
    loss.backward()
    return loss


try:
    opt.step(closure)
except Exception as e:
    print(type(e).__name__, e)
