# Convolutions at stride 1 over 16 or more input channels, which this project computes tap by
# tap without im2col (Note [Stride-1 convolutions tap by tap] in backends/cpu/conv_taps.h):
# output channels and widths that are no multiple of the kernel's register block, padding,
# dilation, groups, one sample, 1-D and 3-D, float64, a strided input and no bias. Each result is
# also checked against the same convolution as unfold and a float64 matrix product.
# reference tolerance: rtol=5e-5 atol=5e-5
import warnings

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def show(name, y, x, w, b=None, padding=0, dilation=1, groups=1):
    print(name, list(y.shape), y.dtype, [round(v, 5) for v in y.flatten().tolist()[:12]])
    if y.dim() == 4:
        # the same convolution through unfold, in float64
        xd, wd = x.double(), w.double()
        cols = F.unfold(xd, w.shape[2:], dilation=dilation, padding=padding)  # (N, C*k, L)
        n, o = x.shape[0], w.shape[0]
        cg, og = x.shape[1] // groups, o // groups
        parts = [wd[g * og:(g + 1) * og].reshape(og, -1) @ cols[:, g * cg * w[0, 0].numel():(g + 1) * cg * w[0, 0].numel()]
                 for g in range(groups)]
        ref = torch.cat(parts, 1).reshape(n, o, y.shape[2], y.shape[3])
        if b is not None:
            ref = ref + b.double().reshape(1, -1, 1, 1)
        print("  matches unfold @ weight:", bool(((y.double() - ref).abs() <= 1e-4 * (1 + ref.abs())).all()))


x = torch.randn(2, 16, 9, 11)
w = torch.randn(13, 16, 3, 3)
b = torch.randn(13)
show("13 outputs, width 11", F.conv2d(x, w, b, padding=1), x, w, b, padding=1)

x = torch.randn(1, 24, 7, 40)
w = torch.randn(10, 24, 3, 5)
show("one sample, width 40, dilation", F.conv2d(x, w, padding=(2, 2), dilation=(2, 1)), x, w, padding=(2, 2),
     dilation=(2, 1))

x = torch.randn(2, 32, 8, 8)
w = torch.randn(20, 16, 3, 3)
b = torch.randn(20)
show("groups, wide padding", F.conv2d(x, w, b, padding=3, groups=2), x, w, b, padding=3, groups=2)

x = torch.randn(3, 16, 12, 12).transpose(2, 3)
w = torch.randn(8, 16, 5, 5)
show("strided input, 5x5", F.conv2d(x, w, padding=2), x, w, padding=2)

x = torch.randn(2, 16, 6, 7, dtype=torch.float64)
w = torch.randn(5, 16, 3, 3, dtype=torch.float64)
b = torch.randn(5, dtype=torch.float64)
show("float64", F.conv2d(x, w, b, padding=1), x, w, b, padding=1)

x = torch.randn(2, 20, 6, 6)
w = torch.randn(7, 20, 4, 2)
# padding="same" with an even kernel pads (1, 2) rows and (0, 1) columns: as padding 0 of the padded input
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    y = F.conv2d(x, w, padding="same")
show("same, even kernel", y, F.pad(x, (0, 1, 1, 2)), w)

y = F.conv1d(torch.randn(3, 16, 50), torch.randn(8, 16, 5), torch.randn(8), padding=2)
print("conv1d", list(y.shape), [round(v, 5) for v in y.flatten().tolist()[:12]], round(float(y.double().sum()), 3))
y = F.conv3d(torch.randn(2, 16, 4, 5, 6), torch.randn(6, 16, 3, 3, 3), padding=1)
print("conv3d", list(y.shape), [round(v, 5) for v in y.flatten().tolist()[:12]], round(float(y.double().sum()), 3))

# a ResNet stage's layer, with its gradients (the backward is im2col's)
x = torch.randn(4, 64, 16, 16, requires_grad=True)
conv = torch.nn.Conv2d(64, 64, 3, padding=1)
y = conv(x)
y.square().mean().backward()
print("resnet layer", list(y.shape), [round(v, 5) for v in y.flatten().tolist()[:8]])
print("grads x 1e4", [round(v * 1e4, 3) for v in x.grad.flatten().tolist()[:6]],
      [round(v * 1e4, 3) for v in conv.weight.grad.flatten().tolist()[:6]])
