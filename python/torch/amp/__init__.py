from torch.amp.autocast_mode import autocast, is_autocast_available
from torch.amp.grad_scaler import GradScaler

__all__ = ["autocast", "is_autocast_available", "GradScaler"]
