import torch
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
with torch.inference_mode():
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    with torch.inference_mode(False):
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        print(torch._C._dispatch_tls_local_exclude_set())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
try:
    with torch.no_grad():
        print(torch.is_grad_enabled())
        x = torch.ones(2).view(3)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.is_grad_enabled())
