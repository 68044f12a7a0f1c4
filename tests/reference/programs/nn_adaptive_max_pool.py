# Adaptive max pooling (1-D, 2-D, 3-D): windows of adaptive average pooling, the first largest
# value (the last NaN), the indices, gradients (to each window's maximum, accumulated where windows
# overlap), double backward, the modules' printed forms, Meta shapes and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 7, 9, requires_grad=True)
for size in ((3, 4), (7, 9), (1, 1), (5, None), 4, (9, 12)):
    out, idx = F.adaptive_max_pool2d(x, size, return_indices=True)
    out.backward(torch.arange(out.numel(), dtype=torch.float32).view(out.shape))
    print(size, tuple(out.shape), out.flatten()[:6].tolist(), idx.flatten()[:8].tolist(), x.grad.sum().item(),
          x.grad.flatten()[:10].tolist(), type(out.grad_fn).__name__)
    x.grad = None
print(F.adaptive_max_pool2d(x[0], (2, 3)).shape, F.adaptive_max_pool2d(x.transpose(2, 3), (4, 2)).flatten()[:5].tolist())
t = torch.tensor([[[1.0, float("nan"), 3.0, float("nan"), 2.0, 5.0]]])
print(F.adaptive_max_pool1d(t, 3, return_indices=True))
print(F.adaptive_max_pool1d(torch.tensor([[[2.0, 2.0, 1.0, 2.0]]]), 2, return_indices=True))
ints = torch.tensor([[[[3, 1], [4, 1]]]])
print(F.adaptive_max_pool2d(ints.double(), 1, return_indices=True))
y = torch.randn(2, 4, 11, requires_grad=True)
o1, i1 = F.adaptive_max_pool1d(y, 4, return_indices=True)
o1.sum().backward()
print(tuple(o1.shape), i1[0, 0].tolist(), y.grad[0, 0].tolist(), type(o1.grad_fn).__name__)
z = torch.randn(1, 2, 5, 6, 7, requires_grad=True)
o3, i3 = F.adaptive_max_pool3d(z, (2, 3, 4), return_indices=True)
o3.backward(torch.ones_like(o3))
print(tuple(o3.shape), i3.flatten()[:6].tolist(), z.grad.sum().item(), type(o3.grad_fn).__name__)
print(F.adaptive_max_pool3d(z[0], 2).shape)

# double backward: the gradient of the gradient picks the maxima again
w = torch.randn(1, 2, 6, 6, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(F.adaptive_max_pool2d(w, 4).pow(2).sum(), w, create_graph=True)
gg, = torch.autograd.grad(g.sum(), w)
print(type(g.grad_fn).__name__, round(g.sum().item(), 10), round(gg.sum().item(), 10))

for m in (nn.AdaptiveMaxPool1d(3), nn.AdaptiveMaxPool2d((5, 7)), nn.AdaptiveMaxPool2d(4, return_indices=True),
          nn.AdaptiveMaxPool3d((None, 2, 3))):
    print(m)
print([t.shape for t in nn.AdaptiveMaxPool2d(4, return_indices=True)(torch.randn(1, 2, 8, 8))])
print(nn.AdaptiveMaxPool3d((None, 2, 3))(torch.randn(1, 3, 4, 5, 6)).shape)
m = torch.empty(2, 3, 10, 10, device="meta")
print([t.shape for t in F.adaptive_max_pool2d(m, 3, return_indices=True)], F.adaptive_max_pool1d(m[0], 4).shape)

for bad in (lambda: F.adaptive_max_pool2d(torch.randn(3, 4), 2),
            lambda: F.adaptive_max_pool2d(torch.randn(1, 3, 0, 4), 2),
            lambda: F.adaptive_max_pool2d(torch.randn(1, 3, 4, 4), (2, 2, 2)),
            lambda: F.adaptive_max_pool2d(torch.tensor([[[[1, 2]]]]), 1),
            lambda: F.adaptive_max_pool1d(torch.randn(4), 2),
            lambda: F.adaptive_max_pool1d(torch.randn(1, 2, 4), (2, 2)),
            lambda: F.adaptive_max_pool3d(torch.randn(2, 3, 4), 2),
            lambda: F.adaptive_max_pool2d(torch.randn(1, 2, 4, 4), (-1, 2))):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
