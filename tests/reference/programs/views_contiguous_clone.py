import torch
x = torch.arange(12.).reshape(3, 4)
c = x.contiguous()
print(c.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
t = x.t()
tc = t.contiguous()
print(tc.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print(tc.stride(), tc.is_contiguous())
print(tc)
k = x.clone()
print(k.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print(k.stride())
tk = t.clone()
print(tk.stride(), tk.is_contiguous())
print(tk)
sl = x[:, ::2]
slc = sl.clone()
print(slc.stride(), slc.storage_offset())
sub = x[1:]
print(sub.is_contiguous(), sub.storage_offset())
subc = sub.contiguous()
print(subc.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(), subc.storage_offset())
k[0, 0] = 99.
print(x[0, 0], k[0, 0])
