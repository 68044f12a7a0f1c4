# The narrower dtypes: int32, int16, uint8 and float16 — promotion, wrap-around, rounding,
# conversions and what PyTorch's CPU kernels refuse for float16.
import torch

i = torch.tensor([1, 2, 3], dtype=torch.int32)
s = torch.tensor([-7, 300], dtype=torch.int16)
u = torch.tensor([0, 250], dtype=torch.uint8)
h = torch.tensor([0.1, 0.2, 1000.5], dtype=torch.float16)
for t in (i, s, u, h):
    print(t, t.dtype, t.element_size(), t.dtype.is_floating_point, t.dtype.is_signed)

print(i + 1, i + 1.5, i / 2, i // 2, i * i, i.sum(), i.prod(), i.cumsum(0), i.max())
print(u + 10, u - 1, u * 2)
print(s * torch.tensor([1, 2], dtype=torch.uint8), (s + i[:2]).dtype, (u + s).dtype, (u[:1] + i).dtype)
print(h * 3, h + h, h.sum(), h.mean(), h + torch.ones(3), (h + torch.ones(3)).dtype)
print(torch.tensor([65504.], dtype=torch.half) * 2, torch.tensor([2.5], dtype=torch.half).item())
print(torch.tensor([-1.7, 300.0, 2.9]).to(torch.uint8), torch.tensor([-1.7, 70000.0]).short())
x = torch.arange(6.)
print(x.int(), x.short(), x.byte(), x.half(), x.half().float(), x.int().double())
print(torch.arange(3, dtype=torch.int32), torch.zeros(2, 2, dtype=torch.int16), torch.ones(2, dtype=torch.uint8))
print(torch.full((2,), 7, dtype=torch.int32), torch.empty(0, dtype=torch.int16), torch.tensor(3, dtype=torch.uint8))
print(torch.tensor([1, 2], dtype=torch.int32) @ torch.tensor([3, 4], dtype=torch.int32))
print(x.index_select(0, torch.tensor([4, 1], dtype=torch.int32)))
print(torch.IntTensor([1, 2]), torch.ByteTensor(2).dtype, isinstance(i, torch.IntTensor), torch.int is torch.int32,
      torch.short, torch.half, torch.uint8)
for bad in ("h.exp()", "h.sigmoid()", "h @ h", "h.prod()", "torch.softmax(h, 0)", "h.clamp(0, 1)", "i.mean()",
            "x[i]", "torch.tensor([1, 2], dtype=torch.int32).requires_grad_()"):
    try:
        print(eval(bad))
    except RuntimeError as e:
        print(bad, "->", "RuntimeError:", e)
    except IndexError as e:
        print(bad, "->", "IndexError:", e)
print(torch.tensor([0.5, 2.0], dtype=torch.half).requires_grad_(), h.abs(), -h, h.sign(), h.reciprocal())
