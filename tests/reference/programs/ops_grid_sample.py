# F.grid_sample on 4-D input (bilinear, nearest, bicubic; zeros, border, reflection padding;
# align_corners; grid points outside, on the edges, NaN and infinite; a transposed grid), its
# gradients for the input and the grid, F.affine_grid and its gradient, and 2.15's errors.
# affine_grid ends in a bmm (MKL in PyTorch 2.15, OpenBLAS here): compared within rounding.
# reference tolerance: rtol=1e-6 atol=1e-6
import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
special = torch.tensor([1.0, -1.0, 0.0, 0.5, -0.5, 2.0, -3.0, 1.0000001, 7.3])
for dtype in (torch.float32, torch.float64):
    x = torch.randn(2, 3, 5, 7, dtype=dtype)
    grid = torch.rand(2, 4, 6, 2, dtype=dtype) * 2.4 - 1.2
    grid.view(-1)[::5] = special.to(dtype).repeat(20)[: grid.view(-1)[::5].numel()]
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            for ac in (False, True):
                y = F.grid_sample(x, grid, mode=mode, padding_mode=pad, align_corners=ac)
                print("sample", dtype, mode, pad, ac, tuple(y.shape), y.flatten().tolist())
    gt = torch.rand(2, 6, 4, 2, dtype=dtype).transpose(1, 2) * 2 - 1
    print("sample transposed grid", dtype, F.grid_sample(x, gt, mode="bicubic", align_corners=False).flatten().tolist())
    print("sample transposed reflection", dtype,
          F.grid_sample(x, gt, mode="bicubic", padding_mode="reflection", align_corners=True).flatten().tolist())
nan_grid = torch.tensor([[[[float("nan"), 0.0], [float("inf"), 0.5], [0.2, -float("inf")]]]])
for pad in ("zeros", "border", "reflection"):
    print("sample nonfinite", pad, F.grid_sample(torch.randn(1, 1, 3, 3), nan_grid, padding_mode=pad,
                                                 align_corners=False).flatten().tolist())

for dtype in (torch.float32, torch.float64):
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            for ac in (False, True):
                x = torch.randn(1, 2, 4, 5, dtype=dtype, requires_grad=True)
                grid = (torch.rand(1, 3, 4, 2, dtype=dtype) * 2.4 - 1.2).requires_grad_()
                y = F.grid_sample(x, grid, mode=mode, padding_mode=pad, align_corners=ac)
                y.backward(torch.linspace(-1, 1, y.numel(), dtype=dtype).view(y.shape))
                print("grad", dtype, mode, pad, ac, type(y.grad_fn).__name__, x.grad.flatten().tolist(),
                      grid.grad.flatten().tolist())
    xo = torch.randn(1, 2, 4, 5, dtype=dtype)
    grid = (torch.rand(1, 3, 4, 2, dtype=dtype) * 2 - 1).requires_grad_()
    F.grid_sample(xo, grid, mode="bicubic", align_corners=True).sum().backward()
    print("grad grid only", dtype, grid.grad.flatten().tolist())

theta = torch.tensor([[[0.8, -0.3, 0.1], [0.25, 1.1, -0.2]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
for ac in (False, True):
    g = F.affine_grid(theta, [2, 3, 4, 5], align_corners=ac)
    print("affine_grid", ac, tuple(g.shape), g.stride(), g.flatten().tolist())
print("affine_grid unit", F.affine_grid(theta, [2, 3, 1, 4], align_corners=False).flatten().tolist())
tg = theta.double().clone().requires_grad_()
g = F.affine_grid(tg, [2, 3, 4, 5], align_corners=False)
print("affine_grid node", type(g.grad_fn).__name__)
g.backward(torch.linspace(-1, 1, g.numel(), dtype=torch.float64).view(g.shape))
print("affine_grid grad", tg.grad.flatten().tolist())
x = torch.randn(2, 3, 5, 7)
out = F.grid_sample(x, F.affine_grid(theta, [2, 3, 5, 7], align_corners=False), align_corners=False)
print("spatial transformer", out.flatten().tolist()[:20])

g4 = torch.rand(2, 4, 6, 2) * 2 - 1
attempt("mode", lambda: F.grid_sample(x, g4, mode="linear", align_corners=False))
attempt("padding", lambda: F.grid_sample(x, g4, padding_mode="wrap", align_corners=False))
attempt("batch", lambda: F.grid_sample(x, g4[:1], align_corners=False))
attempt("last dim", lambda: F.grid_sample(x, torch.rand(2, 4, 6, 3), align_corners=False))
attempt("dims", lambda: F.grid_sample(x, torch.rand(2, 1, 4, 6, 2), align_corners=False))
attempt("empty", lambda: F.grid_sample(torch.randn(2, 3, 0, 7), g4, align_corners=False))
attempt("long", lambda: F.grid_sample(x.long(), g4, align_corners=False))
attempt("dtypes", lambda: F.grid_sample(x, g4.double(), align_corners=False))
attempt("theta dtype", lambda: F.affine_grid(theta.long(), [2, 3, 4, 5], align_corners=False))
attempt("theta shape", lambda: F.affine_grid(torch.randn(2, 3, 3), [2, 3, 4, 5], align_corners=False))
attempt("affine size", lambda: F.affine_grid(theta, [2, 4, 5], align_corners=False))
attempt("affine zero", lambda: F.affine_grid(theta, [2, 3, 0, 5], align_corners=False))
