"""torch.autocast: a region in which chosen operators run in a lower precision.

Entering the region switches the device's Autocast dispatch key on for this thread (it stops
being excluded) and sets the lower-precision dtype; leaving it restores both and, when the
outermost region ends, drops the cached casts of weights. Which operators cast, and to what,
is decided per operator by the kernels under the Autocast key (core/ops/autocast.yaml).
PyTorch 2.15's rules: CPU autocast runs in bfloat16 or float16 (another dtype warns and leaves
autocast off); CUDA autocast without a usable CUDA device warns and stays off; a device type
without autocast is refused.
"""
import functools
import importlib.util
import warnings

import torch

__all__ = ["autocast", "is_autocast_available"]


def is_autocast_available(device_type):
    """Whether autocast is available for `device_type` ("cpu", "cuda", ...)."""
    return torch._C._is_autocast_available(device_type)


def _amp_definitely_not_available():
    # torch.cuda.amp.common.amp_definitely_not_available
    return not (torch.cuda.is_available() or importlib.util.find_spec("torch_xla"))


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = torch.get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        device_supported_dtypes = [torch.bfloat16, torch.float16]
        self._cache_enabled = torch.is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        device_name = self.device.upper()
        if enabled:
            if self.device == "cuda":
                if _amp_definitely_not_available():
                    warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                    enabled = False
                elif self.fast_dtype == torch.bfloat16 and not torch.cuda.is_bf16_supported():
                    raise RuntimeError(
                        "Current CUDA Device does not support bfloat16. Please switch dtype to float16.")
            elif self.fast_dtype not in device_supported_dtypes:
                error_message = (
                    f"In {device_name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                    f"{device_name} Autocast only supports dtypes of "
                    + ", ".join(map(str, device_supported_dtypes)) + " currently.")
                warnings.warn(error_message, stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = torch.is_autocast_cache_enabled()
        self.prev = torch.is_autocast_enabled(self.device)
        self.prev_fastdtype = torch.get_autocast_dtype(self.device)
        torch.set_autocast_enabled(self.device, self._enabled)
        torch.set_autocast_dtype(self.device, self.fast_dtype)
        torch.autocast_increment_nesting()
        torch.set_autocast_cache_enabled(self._cache_enabled)
        return None

    def __exit__(self, exc_type, exc_val, exc_tb):
        if torch.autocast_decrement_nesting() == 0:
            torch.clear_autocast_cache()
        torch.set_autocast_enabled(self.device, self.prev)
        torch.set_autocast_dtype(self.device, self.prev_fastdtype)
        torch.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        decorate_autocast.__autocast_instance = self
        return decorate_autocast
