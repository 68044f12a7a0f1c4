import torch
x = torch.tensor([1., -2., 3.])
before = x
x += 1
print(x)
print(before.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
x -= 0.5
print(x)
x *= torch.tensor([1., 0., -1.])
print(x)
x /= 2
print(x)
print(before)
i = torch.tensor([1, 2])
i += 3
i *= 2
print(i, i.dtype)
f = torch.tensor([1., 2.])
f += torch.tensor([1, 1])
print(f, f.dtype)
b = torch.tensor([True, False])
b += torch.tensor([True, True])
print(b)
