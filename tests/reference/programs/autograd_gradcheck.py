# torch.autograd.gradcheck / gradgradcheck: float64 functions that pass (slow and fast mode), a
# custom Function with a wrong backward (GradcheckError, raise_exception=False), the float32
# warning, the input errors, the reentrancy, grad_output and undefined-grad checks, and the
# random grad_outputs gradgradcheck draws from the default generator.
import warnings
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.gradcheck import GradcheckError

torch.manual_seed(0)
d = dict(dtype=torch.float64, requires_grad=True)
x, w = torch.randn(3, 4, **d), torch.randn(4, 2, **d)
img, k, b = torch.randn(1, 2, 5, 5, **d), torch.randn(3, 2, 3, 3, **d), torch.randn(3, **d)


def fn(backward):
    return type("Fn", (torch.autograd.Function,), {
        "forward": staticmethod(lambda ctx, a: (ctx.save_for_backward(a), a ** 3)[1]),
        "backward": staticmethod(lambda ctx, g: backward(ctx.saved_tensors[0], g))})


Cube = fn(lambda a, g: 3 * a * a * g)
Bad = fn(lambda a, g: 2 * a * g)
print("elementwise", gradcheck(lambda a: a.sin() * a.exp() + a.tanh() / (1 + a * a), (x,)))
print("matmul", gradcheck(torch.matmul, (x, w)), gradcheck(lambda a, n: a * n, (x, 3)))
print("softmax", gradcheck(lambda a: torch.softmax(a, 1), x), gradcheck(F.log_softmax, (x, 0)))
print("conv2d", gradcheck(lambda i, k, b: F.conv2d(i, k, b, padding=1), (img, k, b)))
print("adaptive_max_pool2d", gradcheck(lambda i: F.adaptive_max_pool2d(i, 2, return_indices=True), img))
print("Function", gradcheck(Cube.apply, x), gradcheck(Cube.apply, x, fast_mode=True))
print("two outputs", gradcheck(lambda a, b: (a @ b, a.detach() + 1, (a * a).sum()), [x, w]))
print("no differentiable output", gradcheck(lambda a: (a > 0).double(), x))
try:
    gradcheck(Bad.apply, x)
except GradcheckError as e:
    print(type(e).__name__, type(e).__module__, isinstance(e, RuntimeError), str(e).splitlines()[0])
print("raise_exception=False", gradcheck(Bad.apply, x, raise_exception=False),
      gradcheck(Bad.apply, x, raise_exception=False, fast_mode=True))
checks = [("nondeterministic", lambda a, g: 3 * a * a * g * (1 + torch.rand(a.shape, dtype=a.dtype) * 1e-9)),
          ("not multiplied", lambda a, g: 3 * a * a * g + g.eq(0).all().double())]
for name, backward in checks:
    try:
        gradcheck(fn(backward).apply, x)
    except GradcheckError as e:
        print(name, str(e).splitlines()[0])
Undef = type("Undef", (torch.autograd.Function,), {
    "forward": staticmethod(lambda ctx, a: (ctx.set_materialize_grads(False), a * 2)[1]),
    "backward": staticmethod(lambda ctx, g: 2 * g if g is not None else torch.ones(3, 4, dtype=torch.float64))})
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        gradcheck(Undef.apply, x)
    except GradcheckError as e:
        print("undefined grad", e)
print([str(warning.message)[:60] for warning in caught], gradcheck(Undef.apply, x, check_undefined_grad=False))
print("nondet_tol", gradcheck(fn(checks[0][1]).apply, x, nondet_tol=1e-6))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("float32", gradcheck(lambda a: a * 2, torch.randn(3, requires_grad=True), eps=1e-2, atol=1e-2))
for warning in caught:
    print(warning.category.__name__, str(warning.message))
for inputs in [torch.randn(3, dtype=torch.float64), (torch.ones(1, **d).expand(3),)]:
    try:
        gradcheck(torch.sin, inputs)
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
print("gradgradcheck", gradgradcheck(lambda a: a.sin() * a.exp(), x), gradgradcheck(torch.matmul, (x, w)))
print("gradgradcheck softmax", gradgradcheck(lambda a: torch.softmax(a, 1), x))
print("gradgradcheck conv2d", gradgradcheck(lambda i, k: F.conv2d(i, k), (img, k)))
print("gradgradcheck pool", gradgradcheck(lambda i: F.adaptive_max_pool2d(i, 2), img))
print("gradgradcheck two outputs", gradgradcheck(lambda a: (a.exp(), a.tanh() @ w), x,
                                                 gen_non_contig_grad_outputs=True))
print("gradgradcheck grad_outputs", gradgradcheck(Cube.apply, x, torch.randn(3, 4, **d)),
      gradgradcheck(Cube.apply, x, fast_mode=True))
print("after", torch.rand(3).tolist(), x._version)
