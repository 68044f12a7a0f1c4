# layer norm, bit for bit (Note [Layer norm's bits] in backends/cpu/layer_norm_impl.h): the mean
# and rstd it returns, the output with weight and bias, either or neither, and the gradients of
# the input, weight and bias, for rows whose lengths leave a tail of a vector and for long rows
# (the cascade of Welford partial moments); float32 and float64; autograd's node; errors.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
for shape, normalized in (((4, 7), (7,)), ((3, 64), (64,)), ((2, 1000), (1000,)), ((5, 33), (33,)),
                          ((2, 3, 40), (40,)), ((2, 3, 4, 5), (4, 5)), ((3, 1), (1,)), ((2, 2049), (2049,))):
    for dt in (torch.float32, torch.float64):
        x = (torch.randn(shape) * 2 + 3).to(dt)
        w = torch.randn(normalized).to(dt)
        b = torch.randn(normalized).to(dt)
        for weight, bias in ((w, b), (w, None), (None, b), (None, None)):
            y, mean, rstd = torch.native_layer_norm(x, normalized, weight, bias, 1e-5)
            print(list(shape), dt, weight is not None, bias is not None, list(mean.shape),
                  y.flatten().tolist()[:40], mean.flatten().tolist()[:8], rstd.flatten().tolist()[:8])
        xr = x.clone().requires_grad_()
        wr = w.clone().requires_grad_()
        br = b.clone().requires_grad_()
        out = F.layer_norm(xr, normalized, wr, br, eps=1e-6)
        out.backward(torch.linspace(-1, 1, out.numel(), dtype=dt).view(out.shape))
        print("  grads", type(out.grad_fn).__name__, xr.grad.flatten().tolist()[:40], wr.grad.flatten().tolist()[:20],
              br.grad.flatten().tolist()[:20])
        xr.grad = None
        F.layer_norm(xr, normalized).sum().backward()
        print("  no affine", xr.grad.flatten().tolist()[:20])
print(F.layer_norm(torch.arange(6.).view(2, 3), [3]))
for bad in (lambda: F.layer_norm(torch.randn(2, 3), [4]),
            lambda: F.layer_norm(torch.randn(2, 3), [3], torch.ones(4)),
            lambda: F.layer_norm(torch.randn(2, 3), [3], None, torch.ones(2)),
            lambda: F.layer_norm(torch.randn(2, 3), [])):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
m = torch.native_layer_norm(torch.empty(2, 5, 8, device="meta"), [8], None, None, 1e-5)
print([(t.device.type, list(t.shape)) for t in m])
