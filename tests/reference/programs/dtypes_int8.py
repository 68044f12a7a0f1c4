# torch.int8: promotion with every other dtype, printing, conversions (a float goes through
# int64, so out-of-range values wrap), wrapping arithmetic, integer reductions, sorting, random
# integers, NumPy, the legacy names, and torch.iinfo / torch.finfo.
import numpy as np
import torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64]


def run(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


for a in DTYPES:
    print(a, [str(torch.promote_types(a, b)).split(".")[1] for b in DTYPES])
print(torch.result_type(torch.tensor([1], dtype=torch.int8), 1000), torch.result_type(torch.tensor([1], dtype=torch.int8), 2.5))

x = torch.tensor([-128, -1, 0, 1, 127], dtype=torch.int8)
print(x, x.dtype, x.element_size(), x.type(), x.dtype.is_signed, x.dtype.itemsize)
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int8))
print(torch.zeros(2, dtype=torch.int8), torch.ones(2, 3, dtype=torch.int8).stride(), torch.arange(5, dtype=torch.int8))
print(torch.full((2,), 7, dtype=torch.int8), torch.empty(0, dtype=torch.int8))
print(torch.tensor([300.0, -1.5, 127.9, -200.0, 1e10]).to(torch.int8))
print(torch.tensor([200, 255, 0], dtype=torch.uint8).to(torch.int8), x.to(torch.uint8), x.to(torch.float32), x.to(torch.bool))
print(x.char() is x, torch.tensor([1.7, -2.2]).char(), torch.CharTensor([1, 2]), torch.CharTensor)
print(x + x, x - 1, x * 2, x * 1000, -x, x.abs(), x // 3, x % 3, x / 2, x.neg())
print(x + torch.tensor([1, 2, 3, 4, 5], dtype=torch.uint8), x + torch.tensor(2.5), x * True)
print(x & 0x0F, x | 1, x ^ -1, ~x, x << 1, x >> 1, x.bitwise_left_shift(3))
print(x > 0, x == -128, x.eq(torch.tensor(127, dtype=torch.int8)), torch.where(x > 0, x, torch.tensor(5, dtype=torch.int8)))
print(x.sum(), x.sum(dtype=torch.int8), x.prod(), x.cumsum(0), x.max(), x.min(), x.argmax(), x.amax(), x.float().mean())
run("mean", lambda: x.mean())
print(x.sort(descending=True), x.topk(2), x.flip(0), x.unique(), torch.cat([x, x.to(torch.uint8)]).dtype)
print(x.clamp(-5, 5), x.clamp(min=torch.tensor(0, dtype=torch.int8)), x.sign(), x.square(), x.pow(2), x.float().pow(2))
print(x.view(torch.uint8), x.view(-1, 1).expand(5, 2).contiguous().view(torch.int16))
run("index", lambda: x[torch.tensor([0, 1], dtype=torch.int8)])
run("mm", lambda: torch.ones(2, 2, dtype=torch.int8) @ torch.ones(2, 2, dtype=torch.int8))
run("sqrt", lambda: x.sqrt())
run("grad", lambda: torch.ones(2, dtype=torch.int8).requires_grad_())
torch.manual_seed(0)
print(torch.randint(-100, 100, (8,), dtype=torch.int8), torch.randint(10, (4,), dtype=torch.int8))
print(torch.empty(6, dtype=torch.int8).random_(), torch.empty(6, dtype=torch.int8).random_(-5, 5))
run("randint range", lambda: torch.randint(0, 300, (2,), dtype=torch.int8))
print(torch.randperm(6, dtype=torch.int8))
a = x.numpy()
print(a, a.dtype, torch.from_numpy(np.array([-3, 4], dtype=np.int8)), torch.tensor(np.int8(-7)).dtype)
print(torch.iinfo(torch.int8), torch.iinfo(torch.int8).bits, torch.iinfo(torch.uint8).max, torch.iinfo(torch.int64))
print(torch.finfo(torch.float32), torch.finfo().eps, torch.finfo(torch.bfloat16).max, torch.finfo(torch.float16).tiny)
print(torch.finfo(torch.float64).resolution, torch.finfo(torch.float32) == torch.finfo(torch.float32), torch.iinfo)
run("iinfo bool", lambda: torch.iinfo(torch.bool))
run("iinfo float", lambda: torch.iinfo(torch.float32))
run("finfo int", lambda: torch.finfo(torch.int8))
for dt in [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.float16]:
    for lo, hi in [(0, 300), (-5, 5), (-200, 5), (0, 2**40)]:
        run(f"random_ {dt} {lo} {hi}", lambda: torch.empty(2, dtype=dt).random_(lo, hi).dtype)

# Tensor.view(dtype): the same bytes as another dtype
s16 = torch.arange(24, dtype=torch.int16).view(4, 6)
for label, f in [("same size", lambda: s16.view(torch.uint8).view(torch.int8)), ("wider", lambda: s16.view(torch.int32)),
                 ("float", lambda: s16.view(torch.float32)), ("narrower", lambda: s16.view(torch.uint8)),
                 ("transposed", lambda: s16.t().view(torch.int32)), ("transposed narrower", lambda: s16.t().view(torch.uint8)),
                 ("odd", lambda: s16[:, :3].view(torch.int32)), ("offset", lambda: s16[:, 1:3].view(torch.int32)),
                 ("0-dim", lambda: s16[0, 0].view(torch.int32)), ("0-dim same size", lambda: s16[0, 0].view(torch.float16)),
                 ("step", lambda: s16[:, ::2].view(torch.int8)), ("bool", lambda: s16.view(torch.bool)),
                 ("stride", lambda: s16[:, :4].view(torch.int64)), ("inner step", lambda: s16.view(4, 3, 2)[:, ::2, :].view(torch.int32)),
                 ("keyword", lambda: s16.view(dtype=torch.int32)), ("meta", lambda: s16.to("meta").view(torch.int32))]:
    run(f"view {label}", lambda: (lambda r: (r.dtype, tuple(r.shape), r.stride(), r.storage_offset(),
                                             r.flatten().tolist()[:6] if r.device.type == "cpu" else None))(f()))
g = torch.randn(2, 4, requires_grad=True)
print([(v.dtype, v.requires_grad, v.grad_fn) for v in (g.view(torch.float32), g.view(torch.int32))])
v = s16.view(torch.uint8)
v[0, 0] = 255
print(s16[0, 0], s16._version)
