# Inputs that require grad: AOTAutograd writes the captured graph in aten operators, traces the
# backward graph from the project's derivative formulas and splits the two (primals_N in,
# user outputs then saved values out; saved values and tangents_N in, one gradient per input
# out). Gradients equal eager's, with aot_eager and with inductor (both graphs compiled).
import torch

torch._logging.set_logs(aot_graphs=True)


def fn(x, w, b):
    return ((x * w + b).exp() * 2.0).sum()


torch.manual_seed(0)
x = torch.randn(3, 4)
w = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, requires_grad=True)
for backend in ("aot_eager", "inductor"):
    torch._dynamo.reset()
    out = torch.compile(fn, backend=backend)(x, w, b)
    out.backward()
    got = (w.grad.clone(), b.grad.clone())
    w.grad = b.grad = None
    ref = fn(x, w, b)
    ref.backward()
    print(backend, "value", torch.allclose(out, ref), "grad w", torch.allclose(got[0], w.grad),
          "grad b", torch.allclose(got[1], b.grad), "x.grad", x.grad)
    w.grad = b.grad = None
    torch._logging.set_logs(aot_graphs=False)

# More patterns: every derivative formula AOTAutograd uses here, against eager's gradients.
patterns = {
    "sin_cos_exp": lambda a: (a.sin() * a.cos()).exp().sum(),
    "tanh_sigmoid": lambda a: (a.tanh() + a.sigmoid()).mean(),
    "div_sub_neg": lambda a: (-(a - 1.0) / (a * a + 1.0)).sum(),
    "sqrt_log_pow": lambda a: ((a * a + 1.0).sqrt().log() ** 2).sum(),
    "mm_t": lambda a: (a @ a.t()).relu().sum(),
}
for name, f in patterns.items():
    for backend in ("aot_eager", "inductor"):
        torch._dynamo.reset()
        a = torch.randn(3, 3, requires_grad=True)
        torch.compile(f, backend=backend)(a).backward()
        g = a.grad.clone()
        a.grad = None
        f(a).backward()
        print(name, backend, "ok" if torch.allclose(g, a.grad, rtol=1e-4, atol=1e-5) else "MISMATCH")
