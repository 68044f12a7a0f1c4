import torch
x = torch.arange(12.).reshape(3, 4)
a = x[1:, ::2]
print(a)
print(a.shape, a.stride(), a.storage_offset())
b = x[:, 1::2]
print(b, b.stride(), b.storage_offset())
c = x[::2]
print(c, c.stride())
d = x[0:3:2, 1:4:2]
print(d, d.stride(), d.storage_offset())
e = torch.arange(10.)[2:9:3]
print(e, e.stride(), e.storage_offset())
f = x[1:100]
print(f.shape)
g = x[5:]
print(g, g.shape)
h = x[:, 3:1]
print(h.shape)
print(x[:].untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
