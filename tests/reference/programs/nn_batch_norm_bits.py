# batch norm bit for bit (Note [Batch norm's bits] in backends/cpu/batch_norm_kernels.cpp):
# training (the batch's statistics, the running statistics' update) and evaluation, NCHW inputs
# (each channel summed on its own) and (N, C) inputs (rows summed per thread), with and without
# weight and bias, float32 and float64; the gradients with a contiguous gradient and with the
# expanded one y.sum() gives; nodes, the chain of operators, errors.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
for shape in ((4, 3, 5, 5), (2, 16, 7, 7), (8, 3, 6, 6), (5, 7), (3, 64), (1, 3, 2, 2), (2, 3, 1, 1), (9, 21),
              (2, 4, 3), (3, 5, 2, 3, 2)):
    for dt in (torch.float32, torch.float64):
        C = shape[1]
        x = (torch.randn(shape) * 2 + 1.5).to(dt)
        w = torch.randn(C).to(dt)
        b = torch.randn(C).to(dt)
        rm = torch.randn(C).to(dt)
        rv = (torch.rand(C) + 0.5).to(dt)
        for weight, bias in ((w, b), (None, None)):
            rm1, rv1 = rm.clone(), rv.clone()
            y, sm, si = torch.native_batch_norm(x, weight, bias, rm1, rv1, True, 0.1, 1e-5)
            print(list(shape), dt, weight is not None, y.flatten().tolist()[:24], sm.tolist(), si.tolist(),
                  rm1.tolist(), rv1.tolist())
            ye, sme, sie = torch.native_batch_norm(x, weight, bias, rm, rv, False, 0.1, 1e-3)
            print("  eval", ye.flatten().tolist()[:24], list(sme.shape), list(sie.shape))
        xr = x.clone().requires_grad_()
        wr = w.clone().requires_grad_()
        br = b.clone().requires_grad_()
        out = F.batch_norm(xr, rm.clone(), rv.clone(), wr, br, training=True)
        out.backward(torch.linspace(-1, 1, out.numel(), dtype=dt).view(out.shape))
        print("  grads", type(out.grad_fn).__name__, xr.grad.flatten().tolist()[:24], wr.grad.tolist(), br.grad.tolist())
        xr.grad = wr.grad = br.grad = None
        F.batch_norm(xr, None, None, wr, br, training=True).sum().backward()
        print("  sum grads", xr.grad.flatten().tolist()[:24], wr.grad.tolist(), br.grad.tolist())
        xr.grad = wr.grad = None
        e = F.batch_norm(xr, rm, rv, wr, None, training=False)
        e.backward(torch.linspace(-1, 1, e.numel(), dtype=dt).view(e.shape))
        print("  eval grads", type(e.grad_fn).__name__, xr.grad.flatten().tolist()[:24], wr.grad.tolist())
rm, rv = torch.zeros(3), torch.ones(3)
F.batch_norm(torch.randn(4, 3, 2, 2), rm, rv, training=True, momentum=0.3)
print(rm.tolist(), rv.tolist())
print(torch.batch_norm(torch.ones(2, 3), None, None, None, None, True, 0.1, 1e-5, False).tolist())
m = torch.native_batch_norm(torch.empty(4, 3, 5, 5, device="meta"), None, None, None, None, True, 0.1, 1e-5)
print([(t.device.type, list(t.shape)) for t in m])
for bad in (lambda: F.batch_norm(torch.randn(2, 3), torch.zeros(4), torch.ones(3)),
            lambda: F.batch_norm(torch.randn(2, 3), torch.zeros(3), torch.ones(3), torch.ones(2)),
            lambda: F.batch_norm(torch.randn(1, 3), torch.zeros(3), torch.ones(3), training=True),
            lambda: F.batch_norm(torch.randn(2, 3), torch.zeros(3), torch.ones(3), training=True, eps=0.0),
            lambda: F.batch_norm(torch.randn(2, 3), None, None)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
