import torch


class autocast(torch.amp.autocast_mode.autocast):
    """torch.cuda.amp.autocast(...): torch.autocast("cuda", ...)."""

    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
