# Advanced indexing: integer tensors and lists, boolean masks, mixed with slices and integers,
# and assignment through them (aten::index and aten::index_put_).
import torch

x = torch.arange(12.).reshape(3, 4)
print(x[torch.tensor([2, 0])])
print(x[[0, 2]])
print(x[:, [1, 3]])
print(x[1, [0, 0, 3]])
print(x[torch.tensor([0, 2]), torch.tensor([1, 3])])
print(x[x > 5])
print(x[torch.tensor([True, False, True])])
print(x[..., torch.tensor([0])])
print(x[None, [1]].shape, x[[1], None].shape, x[1:, [0, 2]])
idx = torch.tensor([[0, 1], [2, 2]])
print(x[idx].shape, x[idx, 0])

y = x.clone()
y[y > 5] = 0
print(y)
y[[0, 1], [0, 1]] = torch.tensor([-1., -2.])
print(y)
y[:, torch.tensor([3])] = 9.5
print(y)
m = torch.zeros(5)
m[torch.tensor([1, 3])] += 1
print(m)

w = torch.tensor([1., 2., 3.], requires_grad=True)
z = w[[0, 2, 2]]
print(z, type(z.grad_fn).__name__)
z.sum().backward()
print(w.grad)
print(x[x.sum(1) > 10], (x > 100).any(), x[torch.zeros(3, dtype=torch.bool)])
for bad in ("x[torch.tensor([5])]", "x[torch.tensor([True, False])]"):
    try:
        print(eval(bad))
    except (IndexError, RuntimeError) as e:
        print(bad, "->", type(e).__name__ + ":", e)
# A 0-dim value is converted to the target's dtype; a number is too.
v = torch.zeros(4)
v[torch.tensor([True, False, True, False])] = torch.tensor(7)
iy = torch.zeros(3, dtype=torch.int32)
iy[[0, 2]] = 5.7
print(v, iy)
try:
    v[[1]] = torch.tensor([2.], dtype=torch.float64)
except RuntimeError as e:
    print("RuntimeError:", e)
