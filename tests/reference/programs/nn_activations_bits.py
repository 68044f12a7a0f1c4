# gelu (both approximations), elu / selu, leaky_relu, hardtanh / relu6 and their backward operators,
# bit for bit (Note [Activations' bits] in backends/cpu/activation_kernels.cpp): contiguous runs
# whose lengths leave a tail, strided inputs, one element, float16 / bfloat16; float gelu without
# the approximation is oneDNN's kernel in PyTorch. float64 gelu without the approximation is in
# nn_activations (its erf is SLEEF's, whose build differs). Autograd nodes, in-place forms, errors.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
inputs = {
    "lin": torch.linspace(-6, 6, 203),
    "randn": torch.randn(157) * 3,
    "strided": (torch.randn(13, 11) * 4).t(),
    "one": torch.tensor([0.7]),
    "edge": torch.tensor([0.0, -0.0, 1e-20, -1e-20, 30.0, -30.0, 100.0, -100.0, float("inf"), float("-inf")]),
}
ops = aten = torch.ops.aten
for name, v in inputs.items():
    for dt in (torch.float32, torch.float64):
        a = v.to(dt)
        g = torch.linspace(-1.5, 2.5, a.numel(), dtype=dt).view(a.shape)
        if dt == torch.float32:
            print(name, dt, "gelu", F.gelu(a).tolist())
            print(name, dt, "gelu_backward", aten.gelu_backward(g, a).tolist())
        print(name, dt, "gelu tanh", F.gelu(a, approximate="tanh").tolist())
        print(name, dt, "gelu_backward tanh", aten.gelu_backward(g, a, approximate="tanh").tolist())
        print(name, dt, "elu", F.elu(a).tolist(), F.elu(a, 0.7).tolist())
        print(name, dt, "elu scaled", aten.elu(a, 0.7, 1.3, 0.6).tolist(), F.selu(a).tolist())
        print(name, dt, "elu_backward", aten.elu_backward(g, 1.0, 1.0, 1.0, False, a).tolist())
        print(name, dt, "elu_backward result", aten.elu_backward(g, 0.7, 1.3, 0.6, True, aten.elu(a, 0.7, 1.3, 0.6)).tolist())
        print(name, dt, "leaky_relu", F.leaky_relu(a).tolist(), F.leaky_relu(a, -0.37).tolist())
        print(name, dt, "leaky_relu_backward", aten.leaky_relu_backward(g, a, 0.2, False).tolist())
        print(name, dt, "hardtanh", F.hardtanh(a).tolist(), F.relu6(a).tolist(), F.hardtanh(a, -2.5, 0.5).tolist())
        print(name, dt, "hardtanh_backward", aten.hardtanh_backward(g, a, -1.0, 1.0).tolist())
for dt in (torch.bfloat16, torch.float16):
    a = inputs["randn"].to(dt)
    g = torch.linspace(-1.5, 2.5, a.numel()).to(dt)
    print(dt, "gelu", F.gelu(a).tolist(), F.gelu(a, approximate="tanh").tolist())
    print(dt, "gelu_backward", aten.gelu_backward(g, a).tolist(), aten.gelu_backward(g, a, approximate="tanh").tolist())
    print(dt, "elu", F.elu(a).tolist(), aten.elu_backward(g, 1.0, 1.0, 1.0, False, a).tolist())
    print(dt, "leaky_relu", F.leaky_relu(a).tolist(), F.hardtanh(a).tolist())

# nodes and in-place forms
x = torch.randn(6, requires_grad=True)
for f in (F.gelu, F.elu, F.selu, F.leaky_relu, F.hardtanh, F.relu6):
    y = f(x)
    y.backward(torch.ones(6))
    print(f.__name__, type(y.grad_fn).__name__, x.grad.tolist())
    x.grad = None
for f, kw in ((F.elu, {}), (F.leaky_relu, {}), (F.hardtanh, {}), (F.relu6, {}), (F.selu, {})):
    y = x * 2
    r = f(y, inplace=True, **kw)
    r.backward(torch.ones(6))
    print(f.__name__, "inplace", r is y, type(r.grad_fn).__name__, x.grad.tolist())
    x.grad = None
print(torch.selu(torch.tensor([-1.0, 1.0])).tolist(), torch._C._nn.gelu(torch.tensor([1.0]), approximate="tanh"))
out = torch.empty(3)
print(torch._C._nn.gelu(torch.tensor([-1.0, 0.0, 1.0]), out=out) is out, out.tolist())
for bad in (lambda: F.gelu(torch.ones(2), approximate="fast"),
            lambda: F.gelu(torch.ones(2, dtype=torch.long)),
            lambda: F.hardtanh(torch.ones(2, dtype=torch.bool)),
            lambda: F.elu(x * 1, alpha=-1.0, inplace=True).sum().backward(),
            lambda: F.leaky_relu(x * 1, -0.1, inplace=True).sum().backward()):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
