from torch.cpu.amp.autocast_mode import autocast

__all__ = ["autocast"]
