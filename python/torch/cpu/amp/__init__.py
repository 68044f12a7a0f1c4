from torch.cpu.amp.autocast_mode import autocast
from torch.cpu.amp.grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler"]
