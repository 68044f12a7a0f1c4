# Double backward through convolution, layer norm and group norm: gradients taken with
# create_graph=True, the nodes the first backward leaves (ConvolutionBackwardBackward0,
# NativeLayerNormBackwardBackward0, and group norm's differentiable backward), and second-order
# gradients with respect to the input, the weight, the bias and the first gradient's seed.
# Within float64 rounding: PyTorch 2.15 computes convolutions with MKL-DNN and this project with
# OpenBLAS, and both sum the norms' rows in their own orders.
# reference tolerance: rtol=1e-9 atol=1e-12
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def names(fn, depth=0, out=None, seen=None):
    """The node names of a graph, depth first, each node once."""
    out = [] if out is None else out
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return out
    seen.add(fn)
    out.append(type(fn).__name__)
    for nxt, _ in fn.next_functions:
        names(nxt, depth + 1, out, seen)
    return out


def second_order(label, f, x, params):
    y = f(x)
    v = torch.randn(y.shape, dtype=torch.float64, requires_grad=True)
    leaves = [x] + params
    gs = torch.autograd.grad(y, leaves, v, create_graph=True)
    print(label, "grad nodes", [type(g.grad_fn).__name__ for g in gs])
    print(label, "graph", sorted(set(names(gs[0].grad_fn))))
    loss = sum((g * torch.linspace(-1, 1, g.numel(), dtype=torch.float64).view(g.shape)).sum() for g in gs)
    seconds = torch.autograd.grad(loss, leaves + [v], allow_unused=True)
    for name, s in zip(["input"] + [f"param{i}" for i in range(len(params))] + ["seed"], seconds):
        print(label, "d2", name, None if s is None else s.flatten().tolist())


def t(*shape):
    return torch.randn(*shape, dtype=torch.float64, requires_grad=True)


w1, b1 = t(4, 2, 3), t(4)
second_order("conv1d", lambda x: F.conv1d(x, w1, b1, stride=2, padding=1), t(2, 2, 7), [w1, b1])
w2 = t(4, 1, 3, 3)
second_order("conv2d groups", lambda x: F.conv2d(x, w2, None, padding=1, dilation=1, groups=2), t(1, 2, 5, 5), [w2])
w3 = t(2, 2, 2, 2)
second_order("conv2d stride dilation", lambda x: F.conv2d(x, w3, stride=2, dilation=2), t(1, 2, 7, 6), [w3])
w4, b4 = t(3, 2, 3, 3), t(2)
second_order("conv_transpose2d", lambda x: F.conv_transpose2d(x, w4, b4, stride=2, padding=1, output_padding=1),
             t(1, 3, 3, 3), [w4, b4])
w5 = t(2, 2, 2, 2, 2)
second_order("conv3d", lambda x: F.conv3d(x, w5), t(1, 2, 3, 3, 3), [w5])

g6, b6 = t(5), t(5)
second_order("layer_norm", lambda x: F.layer_norm(x, [5], g6, b6), t(3, 5), [g6, b6])
second_order("layer_norm no affine", lambda x: F.layer_norm(x, [2, 3]), t(2, 2, 3), [])
g7 = t(3, 4)
second_order("layer_norm weight only", lambda x: F.layer_norm(x, [3, 4], g7), t(2, 3, 4), [g7])

g8, b8 = t(6), t(6)
second_order("group_norm", lambda x: F.group_norm(x, 3, g8, b8), t(2, 6, 4), [g8, b8])
second_order("group_norm no affine", lambda x: F.group_norm(x, 2), t(2, 4, 2, 2), [])

x = t(2, 6, 3)
out, mean, rstd = torch.native_group_norm(x, g8, b8, 2, 6, 3, 3, 1e-5)
print("native_group_norm outputs", [type(o.grad_fn).__name__ for o in (out, mean, rstd)])
(gx,) = torch.autograd.grad((mean * torch.arange(6.0, dtype=torch.float64).view(2, 3)).sum() + rstd.sum(), x)
print("mean and rstd gradient", gx.flatten().tolist())
