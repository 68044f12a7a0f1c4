# group norm: its output, mean and rstd (2.15's arithmetic: layer norm's moments per group) and
# its gradients, whose order of sums is not 2.15's, so values are compared within rounding;
# nodes, meta shapes and errors.
# reference tolerance: rtol=1e-5 atol=1e-6
import torch
import torch.nn.functional as F

torch.manual_seed(0)
for shape, groups in (((2, 6, 5, 4), 3), ((4, 8, 9), 2), ((3, 4, 2, 2, 3), 4), ((2, 6, 3, 3), 1)):
    for dt in (torch.float32, torch.float64):
        x = (torch.randn(shape) * 2 + 1).to(dt)
        C = shape[1]
        w, b = torch.randn(C).to(dt), torch.randn(C).to(dt)
        N = shape[0]
        HxW = x.numel() // (N * C)
        for weight, bias in ((w, b), (None, None), (w, None)):
            y, mean, rstd = torch.native_group_norm(x, weight, bias, N, C, HxW, groups, 1e-5)
            print(list(shape), groups, dt, weight is not None, bias is not None, list(mean.shape),
                  [round(v, 6) for v in y.flatten().tolist()[:30]], [round(v, 6) for v in mean.flatten().tolist()],
                  [round(v, 6) for v in rstd.flatten().tolist()])
        xr, wr, br = x.clone().requires_grad_(), w.clone().requires_grad_(), b.clone().requires_grad_()
        out = F.group_norm(xr, groups, wr, br)
        out.backward(torch.linspace(-1, 1, out.numel(), dtype=dt).view(out.shape))
        print("  grads", type(out.grad_fn).__name__, [round(v, 6) for v in xr.grad.flatten().tolist()[:30]],
              [round(v, 6) for v in wr.grad.tolist()], [round(v, 6) for v in br.grad.tolist()])
m = torch.native_group_norm(torch.empty(2, 6, 4, 4, device="meta"), None, None, 2, 6, 16, 3, 1e-5)
print([(t.device.type, list(t.shape)) for t in m])
for bad in (lambda: F.group_norm(torch.randn(2, 6, 4), 4),
            lambda: F.group_norm(torch.randn(2, 6, 4), 3, torch.ones(5)),
            lambda: F.group_norm(torch.randn(2, 6, 4), 0),
            lambda: F.group_norm(torch.randn(6), 3),
            lambda: F.group_norm(torch.randn(1, 2, 1), 2)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
