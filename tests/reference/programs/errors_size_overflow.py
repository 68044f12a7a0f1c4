# Sizes, strides and byte counts that do not fit in int64, and allocations that cannot succeed,
# raise PyTorch's errors (never a crash or an out-of-bounds write); integer powers with huge
# exponents wrap as PyTorch's do, at once.
import torch

for code in ["torch.zeros(1 << 40)", "torch.zeros(1 << 32, 1 << 32)", "torch.ones(3).expand(1 << 62, 3).sum()",
             "torch.ones(3).as_strided((2, 2, 2), (2**62 + 100, 2**62 + 2**61, 2**62 + 2**61 - 100))",
             "torch.ones(3).as_strided((4,), (1,))", "torch.empty(2**62, 4)", "torch.ones(2).view(-1, 2**62)",
             "torch.arange(0, 2**62)", "torch.ones(3).as_strided((2,), (2**63 - 1,))"]:
    try:
        r = eval(code)
        print(code, "->", r.shape)
    except RuntimeError as e:
        print(code, "-> RuntimeError:", e)
print(torch.tensor([3]) ** (2**62), torch.tensor([7], dtype=torch.uint8) ** 200)
print(torch.tensor([3, -2, 0, 1, -1], dtype=torch.int32) ** torch.tensor([5, 63, 0, 2**31 - 1, 2**31 - 1], dtype=torch.int32))
print(torch.tensor([2, 1, -1, 5]) ** torch.tensor([-1, -3, -3, 0]))
