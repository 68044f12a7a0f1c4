# max / min / argmax / argmin (all, and along a dim with indices: the first position of the extreme
# value or of the first NaN) and var / std (over everything: the mean in the dtype, then squares
# in double per thread), at one thread and then two.
import torch
torch.manual_seed(0)
x = torch.randn(1000, 37)
print(x.max(), x.min(), x.max(1)[1][:10], x.min(0), x.argmax(), x.argmin(1)[:5])
x[3, 7] = float('nan'); x[500, 2] = float('nan')
print(x.max(), x.min(), x.max(1)[0][:5], x.max(1)[1][:5], x.argmax(), x.max(0)[1][:8])
z = torch.tensor([0.0, -0.0, 1.0, 1.0, -3.0, -3.0]*5)
print(z.max(0), z.min(0), z.argmin(), z.argmax())
i = torch.randint(-100, 100, (5000,))
print(i.max(), i.min(), i.argmax(), i.max(0))
b = torch.rand(100) > 0.5
print(b.max(), b.min(), b.int().argmax())
try:
    b.argmin()
except NotImplementedError as e:
    print(e)
for t in [torch.randn(100000), torch.randn(100000).double(), torch.randn(300, 400)]:
    print(t.var().item(), t.std().item(), t.var(0)[:3] if t.dim() > 1 else t.var(0), t.var(correction=0).item(), t.std(-1)[:2] if t.dim() > 1 else t.std(0))
print(torch.randn(70000).half().var(), torch.randn(10, 10).bfloat16().std(1))
print(torch.randn(1000).t().max(), torch.randn(40, 50).t().max(1)[1][:5], torch.randn(8,9).t().var())
torch.set_num_threads(2)
y = torch.randn(1000000)
print(y.var().item(), y.max().item(), y.argmax().item(), y.view(1000, 1000).max(1)[1][:5])
try:
    torch.tensor(1.5)[:1]
except IndexError as e:
    print("IndexError:", e)
