# PyTorch 2 deprecates TypedStorage: t.storage() warns once per process (UserWarning, at the
# caller's line); t.untyped_storage() is the storage of bytes and does not warn.
import warnings
import torch

a = torch.arange(6.).reshape(2, 3)
u = a.untyped_storage()
print(type(u).__name__, u.nbytes(), u.size(), u.element_size(), u.device)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    s = a.storage()
print(type(s).__name__, s.size(), s.element_size(), s.dtype, s.device)
for w in caught:
    print(w.category.__name__ + ":", w.message)
print(a.t().untyped_storage().data_ptr() == u.data_ptr(), a.clone().untyped_storage().data_ptr() == u.data_ptr())
print(s.data_ptr() == u.data_ptr(), a[1].untyped_storage().nbytes())
