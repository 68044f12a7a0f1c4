import warnings

import torch


class autocast(torch.amp.autocast_mode.autocast):
    """torch.cuda.amp.autocast(...): torch.autocast("cuda", ...), deprecated in PyTorch 2.x."""

    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. "
                      "Please use `torch.amp.autocast('cuda', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
