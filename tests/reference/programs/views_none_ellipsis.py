import torch
x = torch.arange(12.).reshape(3, 4)
a = x[None]
print(a.shape, a.stride())
b = x[:, None]
print(b.shape, b.stride())
c = x[..., 1]
print(c, c.shape, c.stride(), c.storage_offset())
d = x[..., None]
print(d.shape, d.stride())
e = x[None, ..., None]
print(e.shape, e.stride())
f = x[...]
print(f.shape, f.stride())
print(f.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
y = torch.arange(24.).reshape(2, 3, 4)
g = y[..., 0, :]
print(g)
print(g.shape, g.stride())
h = y[1, ..., 2]
print(h, h.storage_offset())
i = y[:, None, 1, None, ::2]
print(i.shape, i.stride(), i.storage_offset())
s = torch.tensor(5.)
print(s[None].shape, s[...].shape, s[None, None].stride())
