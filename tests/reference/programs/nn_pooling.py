# Max, average and adaptive average pooling over 1, 2 and 3 dims, bit for bit: strides, padding,
# dilation, ceil_mode, count_include_pad, divisor_override, windows that cover the input unevenly,
# unbatched inputs, NaN, integer inputs; indices; gradients and their nodes; meta shapes; errors.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 9, 7)
print("max_pool2d", F.max_pool2d(x, 2).flatten().tolist())
print("max_pool2d stride pad ceil", F.max_pool2d(x, 3, 2, 1, ceil_mode=True).flatten().tolist())
print("max_pool2d dilation", F.max_pool2d(x, (2, 3), (1, 2), (1, 1), dilation=(2, 1)).flatten().tolist())
out, idx = F.max_pool2d(x, 3, 2, return_indices=True)
print("max_pool2d indices", out.shape, idx.flatten().tolist())
print("max_pool2d unbatched", F.max_pool2d(x[0], 2).shape)
print("max_pool2d strided", F.max_pool2d(x.transpose(2, 3), 2).flatten().tolist()[:30])
print("max_pool2d nan", F.max_pool2d(torch.tensor([[[1.0, float("nan"), 3.0, 2.0]]]), (1, 2)).tolist())
print("max_pool2d long", F.max_pool2d(torch.arange(16).view(1, 1, 4, 4), 2).tolist())
print("max_pool2d float64", F.max_pool2d(x.double(), 2, 1).flatten().tolist()[:20])
print("max_pool1d", F.max_pool1d(torch.randn(2, 3, 11), 3, 2, 1).flatten().tolist())
o1, i1 = F.max_pool1d(torch.randn(3, 8), 2, return_indices=True)
print("max_pool1d unbatched", o1.tolist(), i1.tolist())
o3, i3 = F.max_pool3d(torch.randn(1, 2, 4, 5, 6), 2, return_indices=True)
print("max_pool3d", o3.flatten().tolist(), i3.flatten().tolist())
print("avg_pool2d", F.avg_pool2d(x, 2).flatten().tolist())
print("avg_pool2d pad", F.avg_pool2d(x, 3, 2, 1).flatten().tolist())
print("avg_pool2d no pad count", F.avg_pool2d(x, 3, 2, 1, count_include_pad=False).flatten().tolist())
print("avg_pool2d ceil", F.avg_pool2d(x, 3, 2, 1, ceil_mode=True).flatten().tolist())
print("avg_pool2d divisor", F.avg_pool2d(x, 2, divisor_override=3).flatten().tolist())
print("avg_pool2d float64", F.avg_pool2d(x.double(), (2, 3)).flatten().tolist()[:20])
print("avg_pool2d half", F.avg_pool2d(x.half(), 2).flatten().tolist()[:20])
print("avg_pool1d", F.avg_pool1d(torch.randn(2, 3, 10), 3, 2, 1).flatten().tolist())
print("avg_pool3d", F.avg_pool3d(torch.randn(1, 2, 4, 5, 6), (2, 2, 3), padding=(1, 0, 1)).flatten().tolist())
print("adaptive_avg_pool2d", F.adaptive_avg_pool2d(x, (4, 3)).flatten().tolist())
print("adaptive_avg_pool2d 1", F.adaptive_avg_pool2d(x, 1).flatten().tolist())
print("adaptive_avg_pool2d None", F.adaptive_avg_pool2d(x, (None, 5)).shape)
print("adaptive_avg_pool2d bigger", F.adaptive_avg_pool2d(x[0], (11, 9)).flatten().tolist()[:30])
print("adaptive_avg_pool1d", F.adaptive_avg_pool1d(torch.randn(2, 3, 10), 4).flatten().tolist())
print("adaptive_avg_pool3d", F.adaptive_avg_pool3d(torch.randn(1, 2, 5, 4, 7), (2, 3, 3)).flatten().tolist())

for name, f in (("max_pool2d", lambda t: F.max_pool2d(t, 3, 2, 1)),
                ("avg_pool2d", lambda t: F.avg_pool2d(t, 3, 2, 1)),
                ("avg_pool2d exclude", lambda t: F.avg_pool2d(t, 3, 2, 1, count_include_pad=False)),
                ("adaptive_avg_pool2d", lambda t: F.adaptive_avg_pool2d(t, (4, 3))),
                ("adaptive_avg_pool2d 1", lambda t: F.adaptive_avg_pool2d(t, 1)),
                ("max_pool1d", lambda t: F.max_pool1d(t.flatten(2), 4)),
                ("max_pool3d", lambda t: F.max_pool3d(t.unsqueeze(0), 2)),
                ("avg_pool3d", lambda t: F.avg_pool3d(t.unsqueeze(0), 2)),
                ("adaptive_avg_pool3d", lambda t: F.adaptive_avg_pool3d(t.unsqueeze(0), (2, 3, 2)))):
    xr = x.clone().requires_grad_()
    y = f(xr)
    y.backward(torch.linspace(-1, 1, y.numel()).view(y.shape))
    print(name, type(y.grad_fn).__name__, xr.grad.flatten().tolist()[:40])

m = F.max_pool2d(torch.empty(4, 3, 32, 32, device="meta"), 3, 2, 1, return_indices=True)
print("meta", [(t.device.type, t.dtype, list(t.shape)) for t in m])
print("meta avg", list(F.avg_pool2d(torch.empty(4, 3, 32, 32, device="meta"), 2).shape),
      list(F.adaptive_avg_pool2d(torch.empty(4, 3, 32, 32, device="meta"), (5, 7)).shape))
for bad in (lambda: F.max_pool2d(x, 2, padding=2),
            lambda: F.max_pool2d(x, 0),
            lambda: F.max_pool2d(torch.randn(2, 2), 2),
            lambda: F.max_pool2d(x, 10),
            lambda: F.max_pool2d(x, (2, 2, 2)),
            lambda: F.avg_pool2d(x, 2, divisor_override=0),
            lambda: F.avg_pool2d(x, 3, padding=2),
            lambda: F.adaptive_avg_pool2d(torch.randn(2, 2), 3),
            lambda: F.avg_pool1d(torch.randn(2, 3, 4), (2, 2))):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
