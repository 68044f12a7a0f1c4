# torch.use_deterministic_algorithms, set/get_deterministic_debug_mode and the flags they set: the
# levels, warn_only, the argument errors, and torch.backends.cudnn's deterministic / benchmark flags.
import torch
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_deterministic_debug_mode())
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_deterministic_debug_mode())
torch.use_deterministic_algorithms(True, warn_only=True)
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_deterministic_debug_mode())
torch.use_deterministic_algorithms(False)
torch.set_deterministic_debug_mode("warn")
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode(2)
print(torch.get_deterministic_debug_mode())
for bad in (lambda: torch.use_deterministic_algorithms("yes"), lambda: torch.set_deterministic_debug_mode("loud"), lambda: torch.set_deterministic_debug_mode(3), lambda: torch.set_deterministic_debug_mode(1.5), lambda: torch.use_deterministic_algorithms(True, warn_only=1)):
    try:
        bad(); print("no error")
    except Exception as e:
        print(type(e).__name__, e)
torch.set_deterministic_debug_mode(0)
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
torch.backends.cudnn.deterministic = True
print(torch.backends.cudnn.deterministic)
