# Integer arithmetic wraps modulo 2^bits, as PyTorch's kernels do: add, sub (with alpha),
# mul, neg, abs, sum, prod, cumsum and int32; float-to-integer conversion out of range.
import torch

m = torch.tensor([-2**63, 2**63 - 1, 3])
print(m + m, m - (-m), m * 4, -m, m.abs())
print(m.sum(), m.prod(), m.cumsum(0))
i32 = torch.tensor([2**31 - 1], dtype=torch.int32)
print(i32 * 2, i32 + 1, -torch.tensor([-2**31], dtype=torch.int32))
print(m.add(m, alpha=3), m.sub(m, alpha=2**40))
u = torch.tensor([3, 250], dtype=torch.uint8)
print(u - 5, u.sub(u, alpha=2), u * 3, u.sum(), u.prod())
print(torch.mm(torch.tensor([[2**62, 2**62]]), torch.tensor([[4], [4]])))
print(torch.tensor([1e30, -1e30, float("nan"), float("inf")]).long())
print(torch.tensor([7, -7]) // torch.tensor([-1, -1]), torch.tensor([7, -7]) % torch.tensor([-1, -1]))
print(torch.tensor([2**63 - 1, 2**62 + 1]), torch.tensor([2**62 + 1]).tolist(), torch.tensor([2**62 + 1]).item())
print(torch.tensor([True, 2]), torch.tensor([2**62 + 1]).float().long())
try:
    torch.tensor([2**64])
except (RuntimeError, ValueError) as e:
    print(type(e).__name__ + ":", e)
