from torch.amp.autocast_mode import autocast

__all__ = ["autocast"]
