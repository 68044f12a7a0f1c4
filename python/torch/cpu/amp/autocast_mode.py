import torch


class autocast(torch.amp.autocast_mode.autocast):
    """torch.cpu.amp.autocast(...): torch.autocast("cpu", ...)."""

    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
