# embedding (with padding_idx and scale_grad_by_freq, its backward's order of sums) and the
# dropout family, whose random draws are PyTorch's own: dropout, dropout1d / 2d / 3d, alpha
# dropout, native_dropout and its mask; nodes, in-place forms, evaluation mode, errors.
import warnings

import torch
import torch.nn.functional as F

torch.manual_seed(0)
w = torch.randn(10, 4, requires_grad=True)
idx = torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])
e = F.embedding(idx, w)
print(e.tolist(), type(e.grad_fn).__name__)
e.backward(torch.linspace(-1, 1, e.numel()).view(e.shape))
print(w.grad.tolist())
w.grad = None
F.embedding(idx, w, padding_idx=2).sum().backward()
print(w.grad.tolist())
w.grad = None
F.embedding(idx, w, padding_idx=-1, scale_grad_by_freq=True).pow(2).sum().backward()
print(w.grad.tolist())
print(F.embedding(torch.tensor([0, 3], dtype=torch.int32), w).tolist())
print(torch.embedding(w, torch.tensor(3)).shape, torch.embedding(w, torch.tensor([[[1]]])).shape)
wn = torch.randn(5, 3) * 4
F.embedding(torch.tensor([1, 3]), wn, max_norm=1.0)
print([round(v, 5) for v in wn.norm(dim=1).tolist()])
for bad in (lambda: F.embedding(torch.tensor([0.5]), w),
            lambda: F.embedding(torch.tensor([0]), torch.randn(3)),
            lambda: F.embedding(torch.tensor([0]), w, padding_idx=12)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)

torch.manual_seed(1)
x = torch.randn(4, 6)
print(F.dropout(x, 0.3).tolist())
print(F.dropout(x, 0.3, training=False).tolist(), F.dropout(x, 0.0).tolist() == x.tolist())
print(F.dropout(x, 1.0).tolist())
y = x.clone()
print(F.dropout(y, 0.5, inplace=True) is y, y.tolist())
print(F.dropout2d(torch.ones(2, 3, 2, 2), 0.5).tolist())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(F.dropout2d(torch.ones(2, 3, 4), 0.5).tolist())
    print(F.dropout3d(torch.ones(3, 2, 2, 2), 0.5).tolist())
print([str(c.message)[:60] for c in caught])
print(F.dropout1d(torch.ones(3, 5), 0.4).tolist())
print(F.alpha_dropout(x, 0.2, True).tolist())
print(F.feature_alpha_dropout(torch.ones(2, 3, 2), 0.5, True).tolist())
out, mask = torch.native_dropout(x, 0.25, True)
print(out.tolist(), mask.dtype, mask.tolist())
print(torch.native_dropout(x, 0.25, False)[1].all().item())
print(torch.ops.aten.native_dropout_backward(torch.ones(2, 3), torch.tensor([[True, False, True]] * 2), 4.0).tolist())
xr = torch.randn(8, requires_grad=True)
d = F.dropout(xr, 0.5)
d.sum().backward()
print(type(d.grad_fn).__name__, xr.grad.tolist())
for bad in (lambda: F.dropout(x, 1.5), lambda: F.dropout1d(torch.ones(2, 2, 2, 2))):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
