import torch
x = torch.arange(12).reshape(3, 4)
print(x)
print(x.dtype, x.shape, x.stride())
t = x.t()
print(t)
print(t.dtype, t.is_contiguous())
print(x[1:, 1:3])
print(x[2, 3], x[2, 3].dtype)
x[0, 0] = 42
print(x[0])
b = torch.tensor([[True, False], [False, True]])
print(b.t(), b.dtype, b.stride())
print(b[0])
