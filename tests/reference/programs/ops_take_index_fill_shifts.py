# take, index_fill (a number or a 0-dim tensor value) and the bit shifts (<<, >>,
# bitwise_left_shift / bitwise_right_shift): values, layouts, gradients and 2.15's errors;
# shifts by negative counts or by the width or more, with vectors and their tails.
import torch


def r(label, f):
    try:
        v = f()
        print(label, v.dtype, tuple(v.shape), v.stride(), v.flatten().tolist())
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.arange(12.).view(3, 4)
r("index_fill negative", lambda: x.index_fill(1, torch.tensor([0, 2, -1]), -1.5))
r("index_fill out of range", lambda: x.index_fill(0, torch.tensor([5]), 0))
r("index_fill float index", lambda: x.index_fill(0, torch.tensor([0.0]), 0))
r("index_fill 2-D index", lambda: x.index_fill(0, torch.tensor([[0]]), 0))
r("index_fill bad dim", lambda: x.index_fill(2, torch.tensor([0]), 0))
r("index_fill 1-D value", lambda: x.index_fill(0, torch.tensor([0]), torch.tensor([1.0, 2])))
r("index_fill tensor value", lambda: x.index_fill(0, torch.tensor([0]), torch.tensor(7)))
r("index_fill transposed", lambda: x.t().index_fill(0, torch.tensor([1]), 9))
r("index_fill 0-dim", lambda: torch.tensor(3.).index_fill(0, torch.tensor([0]), 9))
r("index_fill 0-dim out of range", lambda: torch.tensor(3.).index_fill(0, torch.tensor([1]), 9))
r("index_fill int with float", lambda: torch.arange(4).index_fill(0, torch.tensor([1]), 2.7))
r("index_fill int32 index", lambda: torch.arange(4).index_fill(0, torch.tensor([1], dtype=torch.int32), 2))
r("index_fill_", lambda: x.clone().index_fill_(0, torch.tensor([1]), 4))
r("take", lambda: x.take(torch.tensor([[0, 11], [-1, -12]])))
r("take past the end", lambda: x.take(torch.tensor([12])))
r("take before the start", lambda: x.take(torch.tensor([-13])))
r("take float index", lambda: x.take(torch.tensor([1.0])))
r("take transposed", lambda: x.t().take(torch.tensor([1, 2])))
r("take empty from empty", lambda: torch.zeros(0).take(torch.tensor([], dtype=torch.long)))
r("take from empty", lambda: torch.zeros(0).take(torch.tensor([0])))
r("take int32 index", lambda: x.take(torch.tensor([1], dtype=torch.int32)))
r("torch.take", lambda: torch.take(torch.arange(6).view(2, 3), torch.tensor([5, 0])))
a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
v = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
y = a.index_fill(1, torch.tensor([0, 2, 0]), v)
print(type(y.grad_fn).__name__)
(y * torch.arange(12.0, dtype=torch.float64).view(3, 4)).sum().backward()
print(a.grad.tolist(), v.grad.item())
a.grad = None
y = a.take(torch.tensor([0, 0, 5]))
print(type(y.grad_fn).__name__)
(y * torch.tensor([1., 2., 3.], dtype=torch.float64)).sum().backward()
print(a.grad.tolist())
y = a.index_fill(1, torch.tensor([1]), 3.0)
print(type(y.grad_fn).__name__, [type(n).__name__ for n, _ in y.grad_fn.next_functions])

s = torch.tensor([0, 1, 7, 8, -1, 100], dtype=torch.int64)
for dt in [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool, torch.float32]:
    t = torch.tensor([-3, 5, 100, -128, 1, 7]).to(dt)
    r(f"{dt} << 1", lambda: t << 1)
    r(f"{dt} >> 1", lambda: t >> 1)
    r(f"{dt} << counts", lambda: t << (s.to(dt) if dt != torch.bool else s))
    r(f"{dt} >> counts", lambda: t >> s)
    r(f"3 << {dt}", lambda: 3 << t)
    r(f"{dt} bitwise_left_shift", lambda: torch.bitwise_left_shift(t, 2))
    r(f"{dt} bitwise_right_shift of a number", lambda: torch.bitwise_right_shift(5, t))
    r(f"{dt} bitwise_right_shift_", lambda: t.clone().bitwise_right_shift_(1))
    r(f"{dt} <<=", lambda: t.clone().__ilshift__(1))
    big = torch.tensor([200, -3, 7, 1] * 17).to(dt)
    counts = torch.tensor([100, 100, 7, -1] * 17).to(dt)
    r(f"{dt} vector >> out of range", lambda: big >> counts)
    r(f"{dt} vector << out of range", lambda: big << counts)
r("float << 1.5", lambda: torch.tensor([1, 2]) << 1.5)
r("int8 << 1000", lambda: torch.tensor([1, 2], dtype=torch.int8) << 1000)
