import torch
print(torch._C._dispatch_tls_local_include_set())
print(torch._C._dispatch_tls_local_exclude_set())
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch._C._dispatch_tls_local_include_set())
    print(torch._C._dispatch_tls_local_exclude_set())
    print(torch.is_grad_enabled())
with torch.inference_mode():
    print(torch._C._dispatch_tls_local_include_set())
    print(torch._C._dispatch_tls_local_exclude_set())
    print(torch.is_grad_enabled())
print(torch._C._dispatch_tls_local_include_set())
print(torch._C._dispatch_tls_local_exclude_set())
print(torch.is_grad_enabled())
# The C++ guards from Python: the exclude guards act when they are made (a guard object lives
# until it is deleted) or in a with statement; the include guard acts only in a with statement.
g = torch._C._AutoDispatchBelowAutograd()
print("below autograd:", torch._C._dispatch_tls_local_exclude_set())
del g
print("deleted:", torch._C._dispatch_tls_local_exclude_set())
with torch._C._AutoDispatchBelowAutograd():
    print("with:", torch._C._dispatch_tls_local_exclude_set())
print("after:", torch._C._dispatch_tls_local_exclude_set())
g = torch._C.ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(torch._C.DispatchKey.Python))
print("exclude Python:", torch._C._dispatch_tls_local_exclude_set())
del g
g = torch._C._IncludeDispatchKeyGuard(torch._C.DispatchKey.Python)
print("include guard made:", torch._C._dispatch_tls_local_include_set())
with g:
    print("include guard entered:", torch._C._dispatch_tls_local_include_set())
print(torch._C._dispatch_tls_local_include_set(), torch._C._dispatch_tls_local_exclude_set())
