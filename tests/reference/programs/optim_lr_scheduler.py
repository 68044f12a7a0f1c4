# torch.optim.lr_scheduler as PyTorch 2.15 runs it: every scheduler stepped after the
# optimizer for 15-25 steps, its learning rates printed in full each step (they are Python
# floats computed by the same expressions, so they are the same doubles), the cycled
# momentums / betas, the final state_dict (keys in order, then the plain values), a
# save/load round trip, the deprecated step(epoch) path and 2.15's warnings (recorded, not
# printed to stderr), and the messages of invalid arguments.
import warnings

import torch
import torch.optim.lr_scheduler as lr_scheduler

X = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])


def make_opt(kind="sgd", lr=0.1, groups=False, **kw):
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    if groups:
        params = [{"params": [model.weight]}, {"params": [model.bias], "lr": lr * 0.5}]
    else:
        params = model.parameters()
    if kind == "sgd":
        opt = torch.optim.SGD(params, lr=lr, **kw)
    else:
        opt = torch.optim.Adam(params, lr=lr, **kw)
    return model, opt


def train_step(model, opt):
    opt.zero_grad()
    loss = (model(X) ** 2).sum()
    loss.backward()
    opt.step()


def plain(v):
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items() if not callable(x)}
    if isinstance(v, (list, tuple)):
        return type(v)(plain(x) for x in v)
    return v


def show_state(sd, indent="  "):
    print(indent + "keys", list(sd))
    for k in sorted(sd):
        v = sd[k]
        if k == "_schedulers":
            for i, sub in enumerate(v):
                print(indent + "_schedulers[%d]:" % i)
                show_state(sub, indent + "    ")
        elif callable(v) and not isinstance(v, dict):
            continue
        else:
            print(indent + k, "=", repr(plain(v)))


def run(title, make_sched, steps=20, kind="sgd", lr=0.1, groups=False, extra=(), **kw):
    print("==", title)
    model, opt = make_opt(kind, lr, groups, **kw)
    sched = make_sched(opt)
    print("init", sched.get_last_lr(), [g["lr"] for g in opt.param_groups])
    for i in range(steps):
        train_step(model, opt)
        sched.step()
        line = [i, sched.get_last_lr()]
        for key in extra:
            line.append([g[key] for g in opt.param_groups])
        print(*line)
    print("groups", [{k: v for k, v in g.items() if k in ("lr", "initial_lr", "max_lr", "min_lr",
                                                         "momentum", "betas", "max_momentum",
                                                         "base_momentum")}
                     for g in opt.param_groups])
    show_state(sched.state_dict())
    return model, opt, sched


class Decay:
    """A callable object: LambdaLR saves its __dict__ in state_dict()."""

    def __init__(self, base):
        self.base = base

    def __call__(self, epoch):
        return self.base ** epoch


# --- the chainable schedulers -------------------------------------------------------------
run("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lambda e: 0.95 ** e), steps=15)
run("LambdaLR two groups", lambda o: lr_scheduler.LambdaLR(
    o, [lambda e: 1.0 / (1 + e), Decay(0.9)]), steps=15, groups=True)
run("MultiplicativeLR", lambda o: lr_scheduler.MultiplicativeLR(
    o, lambda e: 0.9 if e % 3 else 1.05), steps=15)
run("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.5), groups=True)
run("StepLR default gamma", lambda o: lr_scheduler.StepLR(o, 3), steps=15)
run("MultiStepLR", lambda o: lr_scheduler.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3))
run("ConstantLR", lambda o: lr_scheduler.ConstantLR(o, factor=0.25, total_iters=6), steps=15)
run("ConstantLR defaults", lambda o: lr_scheduler.ConstantLR(o), steps=15, lr=0.07)
run("LinearLR", lambda o: lr_scheduler.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=8),
    steps=15, groups=True)
run("LinearLR defaults", lambda o: lr_scheduler.LinearLR(o), steps=15, lr=0.3)
run("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.87))
run("PolynomialLR", lambda o: lr_scheduler.PolynomialLR(o, total_iters=10, power=2.0), steps=15)
run("PolynomialLR defaults", lambda o: lr_scheduler.PolynomialLR(o), steps=15, lr=0.05)
run("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001),
    steps=25, groups=True)
run("CosineAnnealingLR eta_min 0", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=10), steps=22)
run("CosineAnnealingWarmRestarts T_mult=2",
    lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), steps=25)
run("CosineAnnealingWarmRestarts T_mult=1",
    lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=4), steps=15, groups=True)

# --- combinations -----------------------------------------------------------------------------
run("SequentialLR linear then exponential", lambda o: lr_scheduler.SequentialLR(
    o, [lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=5),
        lr_scheduler.ExponentialLR(o, gamma=0.9)], milestones=[5]))
run("SequentialLR three", lambda o: lr_scheduler.SequentialLR(
    o, [lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3),
        lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.01),
        lr_scheduler.StepLR(o, step_size=3, gamma=0.5)], milestones=[4, 10]), steps=22, groups=True)
run("ChainedScheduler", lambda o: lr_scheduler.ChainedScheduler(
    [lr_scheduler.ConstantLR(o, factor=0.1, total_iters=4),
     lr_scheduler.ExponentialLR(o, gamma=0.9)]))
run("ChainedScheduler with optimizer", lambda o: lr_scheduler.ChainedScheduler(
    [lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=6),
     lr_scheduler.MultiStepLR(o, milestones=[4, 9], gamma=0.5),
     lr_scheduler.CosineAnnealingLR(o, T_max=12)], optimizer=o), steps=15, groups=True)

# --- cyclic schedules, with momentum / beta1 cycling -------------------------------------------
run("CyclicLR triangular", lambda o: lr_scheduler.CyclicLR(
    o, base_lr=0.01, max_lr=0.1, step_size_up=4), steps=20, momentum=0.9, extra=("momentum",))
run("CyclicLR triangular2 groups", lambda o: lr_scheduler.CyclicLR(
    o, base_lr=[0.01, 0.02], max_lr=[0.1, 0.05], step_size_up=3, step_size_down=5,
    mode="triangular2", base_momentum=[0.7, 0.75], max_momentum=0.95),
    steps=24, groups=True, momentum=0.5, extra=("momentum",))
run("CyclicLR exp_range", lambda o: lr_scheduler.CyclicLR(
    o, base_lr=0.001, max_lr=0.006, step_size_up=2, mode="exp_range", gamma=0.9,
    cycle_momentum=False), steps=20)
run("CyclicLR custom scale_fn", lambda o: lr_scheduler.CyclicLR(
    o, 0.002, 0.02, step_size_up=3, scale_fn=lambda x: 1 / (1.0 + x), scale_mode="iterations"),
    steps=20, momentum=0.8, extra=("momentum",))
run("CyclicLR Adam betas", lambda o: lr_scheduler.CyclicLR(
    o, base_lr=0.001, max_lr=0.01, step_size_up=5), steps=20, kind="adam", extra=("betas",))
run("OneCycleLR SGD cos", lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=20),
    steps=20, momentum=0.9, extra=("momentum",))
run("OneCycleLR SGD linear three_phase", lambda o: lr_scheduler.OneCycleLR(
    o, max_lr=[0.4, 0.2], epochs=4, steps_per_epoch=5, pct_start=0.25, anneal_strategy="linear",
    three_phase=True, div_factor=10.0, final_div_factor=100.0),
    steps=20, groups=True, momentum=0.9, extra=("momentum",))
run("OneCycleLR Adam", lambda o: lr_scheduler.OneCycleLR(
    o, max_lr=0.01, total_steps=22, pct_start=0.4, base_momentum=0.8, max_momentum=0.9),
    steps=22, kind="adam", extra=("betas",))
run("OneCycleLR Adam three_phase no momentum", lambda o: lr_scheduler.OneCycleLR(
    o, max_lr=0.02, total_steps=16, three_phase=True, cycle_momentum=False),
    steps=16, kind="adam", extra=("betas",))

# --- ReduceLROnPlateau ----------------------------------------------------------------------------
METRICS = [1.0, 0.9, 0.95, 0.91, 0.899, 0.8999, 0.92, 0.7, 0.71, 0.72, 0.73, 0.74, 0.69995,
           0.75, 0.76, 0.6, 0.61, 0.62, 0.63, 0.64, 0.65, 0.66]


def plateau(title, metrics=METRICS, groups=False, **kw):
    print("==", title)
    model, opt = make_opt(groups=groups)
    sched = lr_scheduler.ReduceLROnPlateau(opt, **kw)
    print("init", sched.get_last_lr())
    for i, m in enumerate(metrics):
        train_step(model, opt)
        sched.step(m)
        print(i, m, sched.get_last_lr(), sched.best, sched.num_bad_epochs, sched.cooldown_counter)
    show_state(sched.state_dict())
    return sched


plateau("ReduceLROnPlateau min rel", patience=2)
plateau("ReduceLROnPlateau min abs cooldown", patience=1, threshold=0.05, threshold_mode="abs",
        cooldown=2, factor=0.5)
plateau("ReduceLROnPlateau max rel", metrics=[-m for m in METRICS], mode="max", patience=1,
        factor=0.3, min_lr=0.004)
plateau("ReduceLROnPlateau max abs min_lr list", metrics=[1 - m for m in METRICS], mode="max",
        threshold_mode="abs", threshold=0.01, patience=0, factor=0.5, min_lr=[0.01, 0.02],
        groups=True)
plateau("ReduceLROnPlateau eps", metrics=[1.0] * 12, patience=0, factor=0.5, eps=0.004)
plateau("ReduceLROnPlateau tensor metric", metrics=[torch.tensor(v) for v in (3.0, 2.0, 2.5, 2.5, 2.5)],
        patience=1)

# --- state_dict round trips -----------------------------------------------------------------------
print("== round trips")
for name, make in [
    ("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5)),
    ("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, Decay(0.8))),
    ("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.01)),
    ("CyclicLR", lambda o: lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=3, mode="exp_range", gamma=0.95)),
    ("OneCycleLR", lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.3, total_steps=14)),
    ("SequentialLR", lambda o: lr_scheduler.SequentialLR(
        o, [lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
            lr_scheduler.ExponentialLR(o, gamma=0.8)], milestones=[3])),
    ("CosineAnnealingWarmRestarts", lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, 2, 2)),
]:
    m1, o1 = make_opt(momentum=0.9)
    s1 = make(o1)
    for _ in range(5):
        train_step(m1, o1)
        s1.step()
    sd = s1.state_dict()
    m2, o2 = make_opt(momentum=0.9)
    s2 = make(o2)
    o2.load_state_dict(o1.state_dict())
    s2.load_state_dict(sd)
    print(name, "saved keys", sorted(sd))
    for _ in range(6):
        train_step(m1, o1)
        s1.step()
        train_step(m2, o2)
        s2.step()
        print(name, s1.get_last_lr(), s2.get_last_lr(), s1.get_last_lr() == s2.get_last_lr())

# --- resuming with last_epoch -------------------------------------------------------------------
print("== resume")
for name, make in [
    ("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5, last_epoch=4)),
    ("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.5, last_epoch=2)),
    ("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=8, last_epoch=3)),
    ("CyclicLR", lambda o: lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=3, last_epoch=4)),
    ("OneCycleLR", lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.3, total_steps=14, last_epoch=5)),
]:
    model, opt = make_opt(momentum=0.9)
    for g in opt.param_groups:
        g["initial_lr"] = 0.2
        g["max_lr"] = 0.3
        g["min_lr"] = 0.0001
        g["max_momentum"] = 0.95
        g["base_momentum"] = 0.85
    s = make(opt)
    out = [s.get_last_lr()]
    for _ in range(6):
        train_step(model, opt)
        s.step()
        out.append(s.get_last_lr())
    print(name, s.last_epoch, out)

# --- the deprecated step(epoch) and interleaved warm restarts ------------------------------------
print("== step(epoch)")
for name, make in [
    ("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5)),
    ("MultiStepLR", lambda o: lr_scheduler.MultiStepLR(o, [2, 5, 5], gamma=0.5)),
    ("ConstantLR", lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=4)),
    ("LinearLR", lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=6)),
    ("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.7)),
    ("PolynomialLR", lambda o: lr_scheduler.PolynomialLR(o, total_iters=6, power=1.5)),
    ("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=7, eta_min=0.002)),
    ("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lambda e: 1.0 / (e + 1))),
]:
    model, opt = make_opt()
    s = make(opt)
    out = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for ep in (1, 2, 4, 3, 7, 9, 0, 6):
            train_step(model, opt)
            s.step(ep)
            out.append(s.get_last_lr()[0])
    print(name, out, len(caught), sorted({str(w.message)[:60] for w in caught}))

model, opt = make_opt()
s = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=3, eta_min=0.001)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for ep in range(12):
        for j in range(4):
            train_step(model, opt)
            s.step(ep + j / 4)
            print("warm restarts", ep + j / 4, s.T_i, s.T_cur, s.get_last_lr())
    for ep in (0, 2, 7.5, 8, 25, 26.0, 80):
        s.step(ep)
        print("warm restarts jump", ep, s.T_i, s.T_cur, s.last_epoch, s.get_last_lr())
print("warm restarts warnings", len(caught))
show_state(s.state_dict())

# --- 2.15's warnings, recorded --------------------------------------------------------------------
print("== warnings")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model, opt = make_opt()
    s = lr_scheduler.StepLR(opt, 2)
    s.step()  # before any optimizer.step()
    s.step()
    print("get_lr outside step", s.get_lr())
    model, opt = make_opt()
    s = lr_scheduler.ExponentialLR(opt, 0.5)
    opt.step = type(opt).step.__get__(opt)  # replaces the scheduler's wrapper
    train_step(model, opt)
    s.step()
    p = lr_scheduler.ReduceLROnPlateau(opt)
    p.step(1.0, epoch=3)
    print("plateau epoch", p.last_epoch)
for w in caught:
    print(w.category.__name__, str(w.message))

print("== misc")
model, opt = make_opt()
s = lr_scheduler.StepLR(opt, 2)
print(isinstance(s, lr_scheduler.LRScheduler), issubclass(lr_scheduler._LRScheduler, lr_scheduler.LRScheduler),
      lr_scheduler._LRScheduler.__name__, hasattr(opt.step, "_wrapped_by_lr_sched"),
      getattr(opt, "_opt_called", None))
train_step(model, opt)
print(getattr(opt, "_opt_called", None), opt.param_groups[0]["initial_lr"])
s2 = lr_scheduler.ExponentialLR(opt, 0.5)
print("second scheduler keeps initial_lr", opt.param_groups[0]["initial_lr"], s2.base_lrs, s2.get_last_lr())
print(sorted(lr_scheduler.__all__))

# --- a Tensor lr: filled in place, get_last_lr() returns copies ---------------------------------
print("== tensor lr")
for name, make in [
    ("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, 0.9)),
    ("StepLR", lambda o: lr_scheduler.StepLR(o, 2, 0.3)),
    ("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, 5, 0.001)),
    ("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lambda e: 0.5 ** e)),
    ("MultiplicativeLR", lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.75)),
    ("ReduceLROnPlateau", lambda o: lr_scheduler.ReduceLROnPlateau(o, patience=0)),
]:
    model, opt = make_opt(lr=torch.tensor(0.1))
    s = make(opt)
    lr_obj = opt.param_groups[0]["lr"]
    out = []
    for i in range(6):
        train_step(model, opt)
        if isinstance(s, lr_scheduler.ReduceLROnPlateau):
            s.step(1.0)
        else:
            s.step()
        last = s.get_last_lr()
        out.append((type(last[0]).__name__, str(last[0].dtype), last[0].item(), last[0] is lr_obj))
    print(name, out, opt.param_groups[0]["lr"] is lr_obj, lr_obj.item(),
          [(k, v.item()) for k, v in opt.param_groups[0].items() if k == "initial_lr"])

# --- invalid arguments -------------------------------------------------------------------------
print("== errors")


def err(title, fn):
    try:
        fn()
        print(title, "no error")
    except Exception as e:
        print(title, type(e).__name__, e)


_, opt = make_opt(momentum=0.9)
_, other = make_opt(lr=0.3)
_, two = make_opt(groups=True)
err("not an optimizer", lambda: lr_scheduler.StepLR("sgd", 3))
err("ConstantLR factor", lambda: lr_scheduler.ConstantLR(opt, factor=1.5))
err("ConstantLR negative factor", lambda: lr_scheduler.ConstantLR(opt, factor=-0.1))
err("LinearLR start_factor", lambda: lr_scheduler.LinearLR(opt, start_factor=0))
err("LinearLR end_factor", lambda: lr_scheduler.LinearLR(opt, end_factor=1.5))
err("LambdaLR count", lambda: lr_scheduler.LambdaLR(two, [lambda e: 1.0]))
err("MultiplicativeLR not callable", lambda: lr_scheduler.MultiplicativeLR(opt, 0.9))
err("MultiplicativeLR count", lambda: lr_scheduler.MultiplicativeLR(two, (lambda e: 1.0,) * 3))
err("resume without initial_lr", lambda: lr_scheduler.StepLR(other, 3, last_epoch=5))
err("ReduceLROnPlateau factor", lambda: lr_scheduler.ReduceLROnPlateau(opt, factor=1.0))
err("ReduceLROnPlateau mode", lambda: lr_scheduler.ReduceLROnPlateau(opt, mode="avg"))
err("ReduceLROnPlateau threshold_mode", lambda: lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="pct"))
err("ReduceLROnPlateau min_lr", lambda: lr_scheduler.ReduceLROnPlateau(two, min_lr=[0.1]))
err("ReduceLROnPlateau optimizer", lambda: lr_scheduler.ReduceLROnPlateau(None))
err("CyclicLR mode", lambda: lr_scheduler.CyclicLR(opt, 0.01, 0.1, mode="square"))
err("CyclicLR base_lr", lambda: lr_scheduler.CyclicLR(two, [0.01, 0.02, 0.03], 0.1))
err("CyclicLR max_momentum", lambda: lr_scheduler.CyclicLR(two, 0.01, 0.1, max_momentum=(0.9,)))
err("OneCycleLR total_steps", lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=0))
err("OneCycleLR float total_steps", lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=10.0))
err("OneCycleLR nothing", lambda: lr_scheduler.OneCycleLR(opt, 0.1, epochs=3))
err("OneCycleLR epochs", lambda: lr_scheduler.OneCycleLR(opt, 0.1, epochs=0, steps_per_epoch=3))
err("OneCycleLR steps_per_epoch", lambda: lr_scheduler.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=-1))
err("OneCycleLR pct_start", lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=10, pct_start=1.5))
err("OneCycleLR int pct_start", lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=10, pct_start=1))
err("OneCycleLR anneal", lambda: lr_scheduler.OneCycleLR(opt, 0.1, total_steps=10, anneal_strategy="exp"))
err("OneCycleLR max_lr", lambda: lr_scheduler.OneCycleLR(two, [0.1], total_steps=10))
err("WarmRestarts T_0", lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0))
err("WarmRestarts float T_0", lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2.0))
err("WarmRestarts T_mult", lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0))
err("WarmRestarts float T_mult", lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, T_mult=1.5))
err("WarmRestarts eta_min", lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, eta_min="0"))
err("WarmRestarts negative epoch",
    lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, 2).step(-1))
err("SequentialLR empty", lambda: lr_scheduler.SequentialLR(opt, [], []))
err("SequentialLR milestones", lambda: lr_scheduler.SequentialLR(
    opt, [lr_scheduler.StepLR(opt, 2), lr_scheduler.ExponentialLR(opt, 0.9)], milestones=[2, 4]))
err("SequentialLR plateau", lambda: lr_scheduler.SequentialLR(
    opt, [lr_scheduler.StepLR(opt, 2), lr_scheduler.ReduceLROnPlateau(opt)], milestones=[2]))
err("SequentialLR no optimizer", lambda: lr_scheduler.SequentialLR(opt, [object()], []))
err("SequentialLR other optimizer", lambda: lr_scheduler.SequentialLR(
    opt, [lr_scheduler.StepLR(opt, 2), lr_scheduler.StepLR(other, 2)], milestones=[3]))
err("ChainedScheduler empty", lambda: lr_scheduler.ChainedScheduler([]))
err("ChainedScheduler plateau", lambda: lr_scheduler.ChainedScheduler(
    [lr_scheduler.ReduceLROnPlateau(opt)]))
err("ChainedScheduler other optimizer", lambda: lr_scheduler.ChainedScheduler(
    [lr_scheduler.StepLR(other, 2), lr_scheduler.StepLR(opt, 2)]))
err("base get_lr", lambda: lr_scheduler.LRScheduler(opt))

model, opt = make_opt(momentum=0.9)
s = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=5)
for i in range(7):
    train_step(model, opt)
    try:
        s.step()
        print("OneCycleLR step", i, s.get_last_lr())
    except ValueError as e:
        print("OneCycleLR step", i, type(e).__name__, e)
