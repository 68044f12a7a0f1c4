# Deep inputs: nested lists up to PyTorch's 128 dimensions, tensors of hundreds of dimensions
# printed, and what happens past those bounds.
import torch


def nested(depth):
    x = 1.5
    for _ in range(depth):
        x = [x]
    return x


print(torch.tensor(nested(128)).dim())
for d in (129, 1000):
    try:
        torch.tensor(nested(d))
    except ValueError as e:
        print(d, "ValueError:", e)
t = torch.zeros([1] * 300)
print(t.dim(), len(str(t)), str(t)[:12], t.sum().item())
print(torch.ones([1] * 70, dtype=torch.int64).squeeze())
try:
    str(torch.zeros([1] * 5000))
except RecursionError:
    print("RecursionError printing 5000 dimensions")
