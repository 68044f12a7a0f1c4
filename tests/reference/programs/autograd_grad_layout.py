# The gradient layout contract: a first .grad has its parameter's strides when the parameter is
# dense and non-overlapping, and is contiguous otherwise; clone and *_like follow the input's
# stride order for inputs that are not dense.
import torch
w = torch.ones(3, 4).t().requires_grad_()
(w * 2).sum().backward()
print(w.grad.stride(), w.grad.is_contiguous(), w.grad)
p = torch.empty(4, 6)[:, ::2].fill_(1).requires_grad_()
(p * 1).sum().backward()
print(p.grad.stride())
q = torch.ones(2, 3, 4).permute(2, 0, 1).requires_grad_()
q.exp().sum().backward()
print(q.grad.stride())
e = torch.ones(3, 1).expand(3, 4).requires_grad_()
(e * 3).sum().backward()
print(e.grad.stride(), e.grad)
w.grad = None
w2 = w * 1
w2.sum().backward()
print(w.grad.stride())
base = torch.arange(48.).view(4, 12)
cases = {
    "sliced": base[:, ::2],
    "transposed": base.t(),
    "sliced_t": base[:, ::3].t(),
    "expanded": torch.ones(3, 1).expand(3, 4),
    "permuted_sliced": torch.arange(120.).view(2, 3, 20)[:, :, ::4].permute(2, 0, 1),
    "narrow_col": base[:, 2:5],
}
for name, t in cases.items():
    print(name, t.stride(), t.clone().stride(), torch.empty_like(t).stride(), torch.zeros_like(t).stride(),
          torch.ones_like(t).stride(), torch.rand_like(t).stride(), t.clone(memory_format=torch.contiguous_format).stride(),
          (t * 2).stride(), t.exp().stride(), t.to(torch.float64).stride())
