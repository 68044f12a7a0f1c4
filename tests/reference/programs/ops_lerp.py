# torch.lerp as PyTorch computes it: one fused multiply-add per element, in the form the weight picks
# (Note [lerp's two forms and its fused multiply-add]); dtype checks, broadcasting, in place, gradients.
import torch
torch.manual_seed(0)
for n in (7, 37, 1000):
    a = torch.randn(n); b = torch.randn(n)
    for w in (0.1, 0.7, -0.3, 1.0):
        r = torch.lerp(a, b, w)
        print(n, w, r.sum().item(), r[-3:].tolist())
print(torch.lerp(torch.ones(2,dtype=torch.half), torch.zeros(2,dtype=torch.half), 0.3))
print(torch.lerp(torch.ones(2,3,dtype=torch.bfloat16), torch.zeros(3,dtype=torch.bfloat16), 0.3))
x = torch.randn(4, 3); y = torch.randn(3); w = torch.rand(4, 1)
print(torch.lerp(x, y, w).tolist())
print(x.clone().lerp_(y, 0.25).tolist(), x.lerp(y, torch.tensor(0.5, dtype=torch.float64)).tolist())
for f in [lambda: torch.lerp(torch.tensor([1,2]), torch.tensor([3,4]), 0.5), lambda: torch.lerp(torch.tensor([1.,2]), torch.tensor([3,4.],dtype=torch.float64), 0.5), lambda: torch.tensor([1,2]).lerp_(torch.tensor([3.,4]), 0.5), lambda: torch.ones(3).lerp_(torch.ones(2, 3), 0.5), lambda: torch.lerp(torch.ones(3), torch.ones(3), torch.ones(2, dtype=torch.float64))]:
    try: print(f())
    except Exception as e: print(type(e).__name__ + ":", e)
x = torch.tensor([1., 2.], requires_grad=True); y = torch.tensor([3., 5.], requires_grad=True)
z = torch.lerp(x, y, 0.3); print(z.grad_fn.name()); z.sum().backward(); print(x.grad, y.grad)
w = torch.tensor([0.2, 0.7], requires_grad=True); z = torch.lerp(x, y, w); print(z.grad_fn.name()); z.sum().backward(); print(w.grad, x.grad)
x = torch.zeros(2, 3, requires_grad=True); y = torch.ones(3, requires_grad=True)
torch.lerp(x, y, 0.25).sum().backward(); print(x.grad, y.grad)
print(torch.lerp(torch.zeros(2, device="meta"), torch.ones(3, 2, device="meta"), 0.5).shape)
