# silu, mish, softplus, hardsigmoid, hardswish, celu, hardshrink / softshrink, threshold, prelu and
# glu with their backward operators, bit for bit (Note [Activations' bits] in
# backends/cpu/activation_kernels.cpp): contiguous runs whose lengths leave a tail (the vector
# lambda on whole chunks, the scalar one on the rest), strided inputs, one element, NaN, +-0,
# +-inf and the branch edges (+-3, the shrinks' lambda, softplus's threshold), float16 / bfloat16;
# silu_backward and mish_backward with 2.15's fused multiply-adds; pixel_shuffle / unshuffle.
import torch
aten = torch.ops.aten
torch.manual_seed(0)
inputs = {
    "lin": torch.linspace(-7, 7, 203),
    "randn": torch.randn(157) * 3,
    "strided": (torch.randn(13, 11) * 4).t(),
    "one": torch.tensor([0.7]),
    "edge": torch.tensor([0.0, -0.0, 1e-20, -1e-20, 3.0, -3.0, 0.5, -0.5, 20.0, 30.0, -30.0, 100.0, -100.0, float("inf"), float("-inf"), float("nan")] * 2),
}
for name, v in inputs.items():
    for dt in (torch.float32, torch.float64):
        a = v.to(dt)
        g = torch.linspace(-1.5, 2.5, a.numel(), dtype=dt).view(a.shape)
        print(name, dt, "silu", aten.silu(a).tolist())
        print(name, dt, "silu_backward", aten.silu_backward(g, a).tolist())
        print(name, dt, "mish", aten.mish(a).tolist())
        print(name, dt, "mish_backward", aten.mish_backward(g, a).tolist())
        print(name, dt, "softplus", aten.softplus(a).tolist(), aten.softplus(a, 2.0, 5.0).tolist())
        print(name, dt, "softplus_backward", aten.softplus_backward(g, a, 1.0, 20.0).tolist(), aten.softplus_backward(g, a, 0.5, 3.0).tolist())
        print(name, dt, "hardsigmoid", aten.hardsigmoid(a).tolist(), aten.hardsigmoid_backward(g, a).tolist())
        print(name, dt, "hardswish", aten.hardswish(a).tolist(), aten.hardswish_backward(g, a).tolist())
        print(name, dt, "celu", aten.celu(a).tolist(), aten.celu(a, 0.3).tolist())
        print(name, dt, "shrink", aten.hardshrink(a).tolist(), aten.softshrink(a, 1.5).tolist(), aten.hardshrink_backward(g, a, 0.5).tolist(), aten.softshrink_backward(g, a, 1.5).tolist())
        print(name, dt, "threshold", aten.threshold(a, 0.5, -2.0).tolist(), aten.threshold_backward(g, a, 0.5).tolist())
        w = torch.tensor([0.25], dtype=dt)
        print(name, dt, "prelu", aten.prelu(a, w).tolist(), [t.tolist() for t in aten._prelu_kernel_backward(g, a, w)])
        if a.dim() == 1 and a.numel() % 2 == 0:
            print(name, dt, "glu", aten.glu(a).tolist(), aten.glu_backward(g[: a.numel() // 2], a, 0).tolist())
        if a.dim() == 2:
            print(name, dt, "glu2", aten.glu(a[:10], 0).tolist(), aten.glu_backward(g[:5], a[:10], 0).tolist())
for dt in (torch.bfloat16, torch.float16):
    a = inputs["randn"].to(dt)
    g = torch.linspace(-1.5, 2.5, a.numel()).to(dt)
    for op in ("silu", "mish", "softplus", "hardsigmoid", "hardswish", "hardshrink", "softshrink"):
        try:
            print(dt, op, getattr(aten, op)(a).tolist())
        except Exception as e:
            print(dt, op, type(e).__name__, e)
    for op in ("silu_backward", "mish_backward", "hardsigmoid_backward", "hardswish_backward"):
        try:
            print(dt, op, getattr(aten, op)(g, a).tolist())
        except Exception as e:
            print(dt, op, type(e).__name__, e)
    try:
        print(dt, "softplus_backward", aten.softplus_backward(g, a, 1.0, 20.0).tolist())
    except Exception as e:
        print(dt, "softplus_backward", type(e).__name__, e)
x = torch.arange(2 * 8 * 3 * 2, dtype=torch.float32).view(2, 8, 3, 2)
print(aten.pixel_shuffle(x, 2).shape, aten.pixel_shuffle(x, 2).flatten().tolist())
print(aten.pixel_unshuffle(x, 1).equal(x), aten.pixel_unshuffle(aten.pixel_shuffle(x, 2), 2).equal(x))
print(aten.pixel_shuffle(x.transpose(2, 3), 2).flatten().tolist())
print(aten.pixel_unshuffle(torch.arange(36.).view(1, 6, 6), 3).flatten().tolist())
