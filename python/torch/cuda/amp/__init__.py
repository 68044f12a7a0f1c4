from torch.cuda.amp.autocast_mode import autocast
from torch.cuda.amp.common import amp_definitely_not_available
from torch.cuda.amp.grad_scaler import GradScaler

__all__ = ["amp_definitely_not_available", "autocast", "GradScaler"]
