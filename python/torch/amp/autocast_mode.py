"""torch.autocast: a region in which chosen operators run in a lower precision.

Entering the region switches the device's Autocast dispatch key on for this thread (it stops
being excluded) and sets the lower-precision dtype; leaving it restores both and, when the
outermost region ends, drops the cached casts of weights. Which operators cast, and to what,
is decided per operator by the kernels under the Autocast key (core/ops/autocast.yaml).
PyTorch 1.13's rules: CPU autocast supports bfloat16 only; CUDA autocast without a usable
CUDA device warns and stays off.
"""
import functools
import warnings

import torch

_DEVICES = ("cuda", "cpu")


class _DeviceState:
    """The getters and setters of one device's autocast state in torch._C."""

    def __init__(self, is_enabled, set_enabled, get_dtype, set_dtype):
        self.is_enabled, self.set_enabled = is_enabled, set_enabled
        self.get_dtype, self.set_dtype = get_dtype, set_dtype


def _state(device):
    C = torch._C
    if device == "cpu":
        return _DeviceState(C.is_autocast_cpu_enabled, C.set_autocast_cpu_enabled, C.get_autocast_cpu_dtype,
                            C.set_autocast_cpu_dtype)
    return _DeviceState(C.is_autocast_enabled, C.set_autocast_enabled, C.get_autocast_gpu_dtype,
                        C.set_autocast_gpu_dtype)


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if device_type not in _DEVICES:
            raise RuntimeError("User specified autocast device_type must be 'cuda' or 'cpu'")
        self.device = device_type
        self.fast_dtype = _state(device_type).get_dtype() if dtype is None else dtype
        self._cache_enabled = torch.is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        if enabled and device_type == "cuda" and not torch.cuda.is_available():
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
            enabled = False
        if device_type == "cpu" and self.fast_dtype != torch.bfloat16:
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                          "CPU Autocast only supports dtype of torch.bfloat16 currently.")
            enabled = False
        if (enabled and device_type == "cuda" and self.fast_dtype == torch.bfloat16
                and not torch.cuda.is_bf16_supported()):
            raise RuntimeError("Current CUDA Device does not support bfloat16. Please switch dtype to float16.")
        self._enabled = enabled

    def __enter__(self):
        state = _state(self.device)
        self.prev_cache_enabled = torch.is_autocast_cache_enabled()
        self.prev = state.is_enabled()
        self.prev_fastdtype = state.get_dtype()
        # As in PyTorch 1.13, CPU switches on before it sets the dtype (so a refused dtype
        # leaves CPU autocast off) and CUDA sets the dtype first.
        if self.device == "cpu":
            state.set_enabled(self._enabled)
            state.set_dtype(self.fast_dtype)
        else:
            state.set_dtype(self.fast_dtype)
            state.set_enabled(self._enabled)
        torch.autocast_increment_nesting()
        torch.set_autocast_cache_enabled(self._cache_enabled)
        return None

    def __exit__(self, exc_type, exc_val, exc_tb):
        state = _state(self.device)
        if torch.autocast_decrement_nesting() == 0:
            torch.clear_autocast_cache()
        state.set_enabled(self.prev)
        state.set_dtype(self.prev_fastdtype)
        torch.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        decorate_autocast.__autocast_instance = self
        return decorate_autocast
