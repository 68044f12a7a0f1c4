import torch
def bad():
    with torch.no_grad():
        print("inside", torch.is_grad_enabled())
        return torch.ones(2, 3).view(4)
try:
    bad()
except RuntimeError as e:
    print("RuntimeError:", e)
print("after", torch.is_grad_enabled())
try:
    with torch.inference_mode():
        torch.ones(2) + torch.ones(3)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
print(torch._C._dispatch_tls_local_include_set())
print(torch._C._dispatch_tls_local_exclude_set())
