import warnings

import torch


class autocast(torch.amp.autocast_mode.autocast):
    """torch.cpu.amp.autocast(...): torch.autocast("cpu", ...), deprecated in PyTorch 2.x."""

    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. "
                      "Please use `torch.amp.autocast('cpu', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
