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
