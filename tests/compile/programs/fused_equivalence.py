# Compiled results equal eager ones for every fused pattern, with the inductor backend (C++
# kernels) and the eager one: same shapes, values within float32 rounding, gradients equal.
import torch

torch.manual_seed(0)
a, b = torch.randn(4, 5), torch.randn(4, 5)
row, col = torch.randn(5), torch.randn(4, 1)
s = torch.randn(4, 5).t()  # not contiguous
patterns = {
    "add_mul": (lambda x, y: (x + y) * 2.0, (a, b)),
    "chain_of_four": (lambda x: ((x * 2.0 + 1.0).relu() * 3.0), (a,)),
    "unary_functions": (lambda x: x.sin().cos().exp().tanh().sigmoid().abs(), (a,)),
    "sqrt_log_pow": (lambda x: (x.abs() + 1.0).sqrt().log() ** 2, (a,)),
    "sub_div_neg": (lambda x, y: -(x - y) / (y.abs() + 1.0), (a, b)),
    "broadcast_row": (lambda x, r: x * r + r, (a, row)),
    "broadcast_col": (lambda x, c: (x - c).relu(), (a, col)),
    "transposed_input": (lambda x: x * 2.0 + 1.0, (s,)),
    "sum_after_pointwise": (lambda x, y: ((x + y) * 2.0).relu().sin().sum(), (a, b)),
    "mean_after_pointwise": (lambda x: (x * x).mean(), (a,)),
    "intermediate_used_twice": (lambda x: (lambda t: (t.sin(), t.cos() + t))(x * 3.0), (a,)),
    "matmul_between": (lambda x, y: ((x * y) + 1.0).tanh() @ y.t() + 1.0, (a, b)),
    "scalar_tensor_operand": (lambda x, y: x * y.sum(), (a, b)),
}
for backend in ("inductor", "eager"):
    torch._dynamo.reset()
    for name, (fn, args) in patterns.items():
        got = torch.compile(fn, backend=backend)(*args)
        want = fn(*args)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        same = all(g.shape == w.shape and torch.allclose(g, w, rtol=1e-4, atol=1e-5) for g, w in zip(got, want))
        print(backend, name, "ok" if same else "MISMATCH {} {}".format(got, want))

# Inductor's C++ is compiled with -ffp-contract=off: a fused chain of multiplies and adds rounds
# after every operation, as eager does (no FMA), so on 16M floats it equals eager bit for bit.
n = 16 * 1024 * 1024
big = (torch.randn(n), torch.randn(n), torch.randn(n))
chain = lambda x, y, z: ((x * 2 + y) * z - x).relu()
torch._dynamo.reset()
print("inductor 16M chain equal:", torch.equal(torch.compile(chain)(*big), chain(*big)))
del big

# Gradients: inputs that require grad (AOTAutograd's forward and backward graphs).
w = torch.randn(4, 5, requires_grad=True)
for backend in ("inductor", "eager"):
    fn = lambda x: ((x * 2.0).sin() + x).sum()
    fn(w).backward()
    g_eager = w.grad.clone()
    w.grad = None
    torch.compile(fn, backend=backend)(w).backward()
    print(backend, "gradient", "ok" if torch.allclose(w.grad, g_eager) else "MISMATCH")
    w.grad = None
