# scaled_dot_product_attention (no mask, boolean and float masks, causal, a given scale, dropout's
# shape, grouped-query heads) within float rounding of PyTorch 2.15, whose CPU
# picks its flash kernel where this project takes the math path; any over several dims;
# resize_; masked_scatter and its gradients; errors.
# reference tolerance: rtol=2e-5 atol=2e-6
import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
q = torch.randn(2, 3, 4, 8)
k = torch.randn(2, 3, 5, 8)
v = torch.randn(2, 3, 5, 6)
print("sdpa", F.scaled_dot_product_attention(q, k, v).flatten().tolist())
print("sdpa scale", F.scaled_dot_product_attention(q, k, v, scale=0.3).flatten().tolist())
bool_mask = torch.rand(4, 5) > 0.3
bool_mask[:, 0] = True
print("sdpa bool mask", F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask).flatten().tolist())
float_mask = torch.randn(4, 5)
print("sdpa float mask", F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask).flatten().tolist())
qs = torch.randn(2, 3, 5, 8)
print("sdpa causal", F.scaled_dot_product_attention(qs, k, v, is_causal=True).flatten().tolist())
print("sdpa 3d", F.scaled_dot_product_attention(q[0], k[0], v[0]).shape)
print("sdpa float64", F.scaled_dot_product_attention(q.double(), k.double(), v.double()).flatten().tolist()[:20])
print("sdpa gqa", F.scaled_dot_product_attention(torch.randn(1, 4, 3, 8), torch.randn(1, 2, 5, 8), torch.randn(1, 2, 5, 8), enable_gqa=True).shape)
attempt("sdpa causal and mask", lambda: F.scaled_dot_product_attention(qs, k, v, attn_mask=bool_mask, is_causal=True))
attempt("sdpa dtypes", lambda: F.scaled_dot_product_attention(q, k.double(), v))
gq = torch.randn(1, 2, 3, 4, requires_grad=True)
gk = torch.randn(1, 2, 3, 4, requires_grad=True)
gv = torch.randn(1, 2, 3, 4, requires_grad=True)
out = F.scaled_dot_product_attention(gq, gk, gv, is_causal=True)
(out * torch.arange(24.0).view(1, 2, 3, 4)).sum().backward()
print("sdpa grads", gq.grad.flatten().tolist(), gk.grad.flatten().tolist(), gv.grad.flatten().tolist())

b = torch.tensor([[[0, 1], [0, 0]], [[0, 0], [0, 0]]])
print("any dims", torch.any(b, dim=(1, 2)).tolist(), torch.any(b, dim=(0, 2), keepdim=True).tolist())
print("any dims uint8", torch.any(b.to(torch.uint8), dim=(0,)).dtype, b.any(dim=(0, 1)).tolist())
r = torch.arange(6.0)
r.resize_(2, 2)
print("resize_ shrink", r.tolist(), r.stride())
r.resize_(3)
print("resize_ flat", r.tolist())
e = torch.tensor([1.0, 2.0])
e.resize_(2, 3)
print("resize_ grow", e.shape, e.flatten()[:2].tolist())
attempt("resize_ grad", lambda: torch.ones(2, requires_grad=True).resize_(3))
m = torch.tensor([[True, False, True], [False, True, False]])
print("masked_scatter", torch.zeros(2, 3).masked_scatter(m, torch.arange(6.0)).tolist())
print("masked_scatter broadcast", torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.arange(6.0)).tolist())
z = torch.zeros(2, 3)
z.masked_scatter_(m, torch.tensor([7.0, 8.0, 9.0]))
print("masked_scatter_", z.tolist())
attempt("masked_scatter short", lambda: torch.zeros(2, 3).masked_scatter(m, torch.arange(2.0)))
gs = torch.randn(2, 3, requires_grad=True)
src = torch.randn(4, requires_grad=True)
ms = gs.masked_scatter(m, src)
(ms * torch.arange(6.0).view(2, 3)).sum().backward()
print("masked_scatter grads", ms.grad_fn.name(), gs.grad.tolist(), src.grad.tolist())
# last: dropout draws random numbers (2.15's flash kernel and the math path draw differently)
print("sdpa dropout shape", F.scaled_dot_product_attention(q, k, v, dropout_p=0.5).shape)
