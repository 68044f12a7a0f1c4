# Convolutions: conv1d / conv2d / conv3d and the transposed forms, with stride, padding (numbers,
# "same", "valid"), dilation and groups, unbatched inputs, their gradients, their autograd nodes and
# PyTorch's errors. PyTorch 2.15 convolves float tensors with oneDNN and this project with im2col
# and OpenBLAS (Note [Convolution's summation order] in backends/cpu/conv_kernels.cpp): the sums
# round differently, so values are compared within float rounding.
# reference tolerance: rtol=2e-5 atol=2e-5
import warnings

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def show(name, t):
    print(name, list(t.shape), [round(v, 6) for v in t.flatten().tolist()[:24]])


x = torch.randn(2, 3, 9, 8)
w = torch.randn(4, 3, 3, 3)
b = torch.randn(4)
show("conv2d", F.conv2d(x, w, b))
show("conv2d stride padding", F.conv2d(x, w, b, stride=2, padding=1))
show("conv2d stride tuple", F.conv2d(x, w, None, stride=(2, 1), padding=(0, 2)))
show("conv2d dilation", F.conv2d(x, w, b, dilation=2, padding=2))
show("conv2d groups", F.conv2d(torch.randn(2, 4, 6, 6), torch.randn(6, 2, 3, 3), torch.randn(6), groups=2))
show("conv2d depthwise", F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(3, 1, 3, 3), groups=3, padding=1))
show("conv2d 1x1", F.conv2d(x, torch.randn(5, 3, 1, 1)))
show("conv2d same", F.conv2d(x, w, b, padding="same"))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    show("conv2d same even kernel", F.conv2d(x, torch.randn(2, 3, 2, 4), padding="same"))
print("warned:", [str(c.message).split(" (Triggered internally")[0] for c in caught])
show("conv2d valid", F.conv2d(x, w, padding="valid"))
show("conv2d unbatched", F.conv2d(x[0], w, b))
show("conv2d float64", F.conv2d(x.double(), w.double(), b.double(), padding=1))
show("conv2d strided input", F.conv2d(x.transpose(2, 3), w, b))
show("conv1d", F.conv1d(torch.randn(2, 4, 10), torch.randn(6, 2, 3), torch.randn(6), groups=2, stride=2))
show("conv1d dilation padding", F.conv1d(torch.randn(1, 2, 12), torch.randn(3, 2, 4), dilation=3, padding=4))
show("conv1d unbatched", F.conv1d(torch.randn(2, 7), torch.randn(3, 2, 2)))
show("conv3d", F.conv3d(torch.randn(1, 2, 4, 5, 6), torch.randn(3, 2, 2, 3, 2), torch.randn(3), padding=1))
show("conv3d dilation", F.conv3d(torch.randn(1, 2, 5, 5, 5), torch.randn(2, 2, 2, 2, 2), dilation=2))
show("conv_transpose2d", F.conv_transpose2d(x, torch.randn(3, 2, 3, 3), torch.randn(2), stride=2, padding=1,
                                            output_padding=1))
show("conv_transpose2d groups", F.conv_transpose2d(torch.randn(1, 4, 3, 3), torch.randn(4, 1, 2, 2), groups=2))
show("conv_transpose2d dilation", F.conv_transpose2d(torch.randn(1, 2, 3, 4), torch.randn(2, 3, 2, 2), dilation=2))
show("conv_transpose1d", F.conv_transpose1d(torch.randn(2, 3, 5), torch.randn(3, 2, 3), stride=3))
show("conv_transpose3d", F.conv_transpose3d(torch.randn(1, 2, 2, 3, 2), torch.randn(2, 2, 2, 2, 2), stride=2))
show("torch.conv2d", torch.conv2d(x, w, b, 1, 1, 1, 1))
show("torch.convolution", torch.convolution(x, w, b, [1, 1], [0, 0], [1, 1], False, [0, 0], 1))

# gradients
for name, f, args in (
        ("conv2d", F.conv2d, dict(stride=2, padding=1)),
        ("conv2d dilated", F.conv2d, dict(dilation=2)),
        ("conv2d groups", F.conv2d, dict(groups=3)),
        ("conv1d", F.conv1d, dict(padding=1)),
        ("conv_transpose2d", F.conv_transpose2d, dict(stride=2)),
        ("conv3d", F.conv3d, dict())):
    torch.manual_seed(1)
    if name == "conv2d groups":
        xi, wi = torch.randn(2, 3, 6, 5), torch.randn(6, 1, 3, 2)
    elif name == "conv1d":
        xi, wi = torch.randn(2, 3, 9), torch.randn(4, 3, 3)
    elif name == "conv_transpose2d":
        xi, wi = torch.randn(2, 3, 4, 4), torch.randn(3, 2, 3, 3)
    elif name == "conv3d":
        xi, wi = torch.randn(1, 2, 4, 4, 3), torch.randn(3, 2, 2, 2, 2)
    else:
        xi, wi = torch.randn(2, 3, 7, 6), torch.randn(4, 3, 3, 3)
    bi = torch.randn(wi.shape[1] if "transpose" in name else wi.shape[0])
    xi.requires_grad_()
    wi.requires_grad_()
    bi.requires_grad_()
    y = f(xi, wi, bi, **args)
    y.backward(torch.linspace(-1, 1, y.numel()).view(y.shape))
    print(name, type(y.grad_fn).__name__)
    show("  grad input", xi.grad)
    show("  grad weight", wi.grad)
    show("  grad bias", bi.grad)

# only the input requires grad; no bias
xi = torch.randn(1, 2, 5, 5, requires_grad=True)
y = F.conv2d(xi, torch.randn(3, 2, 2, 2))
y.sum().backward()
show("input only", xi.grad)

# meta tensors: shapes without data
m = F.conv2d(torch.empty(8, 3, 32, 32, device="meta"), torch.empty(16, 3, 5, 5, device="meta"), stride=2, padding=2)
print("meta", m.device, list(m.shape))
print("meta transpose", list(F.conv_transpose2d(torch.empty(1, 4, 7, 7, device="meta"),
                                                torch.empty(4, 2, 3, 3, device="meta"), stride=2).shape))

# F.pad with a constant
print(F.pad(torch.arange(6.).view(2, 3), (1, 2)))
print(F.pad(torch.arange(6.).view(2, 3), (1, 1, 2, 0), value=-1.0))
print(F.pad(torch.arange(12.).view(3, 4), (-1, 1, 0, -1)))
print(torch.constant_pad_nd(torch.ones(2, 2), [1, 1], 7))
p = torch.ones(2, 2, requires_grad=True)
F.pad(p, (1, 2, 0, 1), value=3.0).sum().backward()
print(p.grad, type(F.pad(p, (1, 1)).grad_fn).__name__)

# errors
cases = [
    lambda: F.conv2d(torch.randn(1, 4, 5, 5), torch.randn(2, 3, 3, 3)),
    lambda: F.conv2d(torch.randn(1, 3, 2, 2), torch.randn(2, 3, 3, 3)),
    lambda: F.conv2d(torch.randn(3, 5), torch.randn(2, 3, 3, 3)),
    lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3, 3), torch.randn(3)),
    lambda: F.conv2d(torch.randn(1, 4, 5, 5), torch.randn(3, 2, 3, 3), groups=2),
    lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3, 3), padding=-1),
    lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3, 3), stride=0),
    lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3, 3), padding="same", stride=2),
    lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3, 3), padding="full"),
    lambda: F.conv1d(torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3)),
    lambda: F.conv_transpose2d(torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3, 3)),
    lambda: F.pad(torch.ones(2), (1, 1, 1)),
    lambda: F.pad(torch.ones(2), (-2, -1)),
]
for c in cases:
    try:
        c()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
