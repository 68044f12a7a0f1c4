# An OpInfo-style sample suite for the reductions: for each operator, generated samples (0-dim,
# empty, contiguous, transposed, strided; float32, float64, int64, int32, bool) reduced over all
# dims, over dim 0, dim -1 with keepdim, and two dims where the operator takes a list; then the
# floating ones again with requires_grad for the gradient of (out * w).sum(). Each line is the
# operator, the sample and the result's dtype, shape and values (or the error), so a difference
# names the sample it is in. Values are compared within 3e-7 relative: PyTorch 2.15 sums some
# layouts in an order this project does not yet follow, so a few results differ in their last
# bits: var / std of float64 over a strided dim (2.15's two-pass form over one dim), prod and
# the norms of a transposed or strided float32 tensor over all dims, and prod's gradient (its
# division order). Every other value is PyTorch's bit for bit (one thread: its summation order).
# reference tolerance: rtol=3e-7 atol=0
import warnings

import torch

warnings.simplefilter("ignore")  # var / std of one element warn of their degrees of freedom
torch.manual_seed(0)


def fmt(t):
    if isinstance(t, (tuple, list)):
        return " | ".join(fmt(x) for x in t)
    if isinstance(t, torch.Tensor):
        return f"{t.dtype} {list(t.shape)} {t.flatten().tolist()}"
    return repr(t)


def run(label, f):
    try:
        print(label, fmt(f()))
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


def samples(dtype):
    if dtype.is_floating_point:
        base = torch.randn(3, 5).to(dtype)
    elif dtype == torch.bool:
        base = torch.randn(3, 5) > 0
    else:
        base = torch.randint(-5, 6, (3, 5)).to(dtype)
    return [("0-dim", base[0, 0].clone()), ("empty", base[:0]), ("contig", base), ("transposed", base.t()),
            ("strided", base[:, ::2])]


# name -> (call over all dims, call over one dim with keepdim, takes a list of dims)
OPS = {
    "sum": (lambda x: x.sum(), lambda x, d, k: x.sum(d, keepdim=k), True),
    "mean": (lambda x: x.mean(), lambda x, d, k: x.mean(d, keepdim=k), True),
    "prod": (lambda x: x.prod(), lambda x, d, k: x.prod(d, keepdim=k), False),
    "amax": (lambda x: x.amax(), lambda x, d, k: x.amax(d, keepdim=k), True),
    "amin": (lambda x: x.amin(), lambda x, d, k: x.amin(d, keepdim=k), True),
    "max": (lambda x: x.max(), lambda x, d, k: x.max(d, keepdim=k), False),
    "min": (lambda x: x.min(), lambda x, d, k: x.min(d, keepdim=k), False),
    "argmax": (lambda x: x.argmax(), lambda x, d, k: x.argmax(d, keepdim=k), False),
    "argmin": (lambda x: x.argmin(), lambda x, d, k: x.argmin(d, keepdim=k), False),
    "var": (lambda x: x.var(), lambda x, d, k: x.var(d, keepdim=k), True),
    "std": (lambda x: x.std(), lambda x, d, k: x.std(d, keepdim=k), True),
    "var_correction0": (lambda x: x.var(correction=0), lambda x, d, k: x.var(d, correction=0, keepdim=k), True),
    "norm": (lambda x: x.norm(), lambda x, d, k: x.norm(dim=d, keepdim=k), True),
    "norm1": (lambda x: x.norm(1), lambda x, d, k: x.norm(1, dim=d, keepdim=k), True),
    "logsumexp": (lambda x: torch.logsumexp(x, (0, 1) if x.dim() == 2 else ()), lambda x, d, k: torch.logsumexp(x, d, keepdim=k), True),
    "any": (lambda x: x.any(), lambda x, d, k: x.any(d, keepdim=k), False),
    "all": (lambda x: x.all(), lambda x, d, k: x.all(d, keepdim=k), False),
    "cumsum": (lambda x: x.cumsum(0), lambda x, d, k: x.cumsum(d), False),
    "softmax": (lambda x: x.softmax(0), lambda x, d, k: x.softmax(d), False),
    "log_softmax": (lambda x: x.log_softmax(0), lambda x, d, k: x.log_softmax(d), False),
}
DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.int16, torch.int8, torch.uint8]

for op, (full, along, takes_list) in OPS.items():
    for dt in DTYPES:
        for name, x in samples(dt):
            run(f"{op} {dt} {name} all", lambda: full(x))
            run(f"{op} {dt} {name} dim0", lambda: along(x, 0, False))
            if x.dim() > 0:
                run(f"{op} {dt} {name} dim-1 keepdim", lambda: along(x, -1, True))
            if takes_list and x.dim() == 2:
                run(f"{op} {dt} {name} dims(1, 0)", lambda: along(x, (1, 0), False))
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)

    def grad(call):
        x.grad = None
        out = call()
        if isinstance(out, tuple):
            out = out[0]
        if not out.dtype.is_floating_point:
            return "not differentiable"
        (out * torch.linspace(-1, 1, out.numel(), dtype=torch.float64).view(out.shape)).sum().backward()
        return x.grad
    run(f"{op} grad all", lambda: grad(lambda: full(x)))
    run(f"{op} grad dim1", lambda: grad(lambda: along(x, 1, False)))
