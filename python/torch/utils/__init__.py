"""torch.utils (the small part programs reach for)."""
from . import hooks
from . import data  # noqa: E402,F401  (torch.utils.data is there after import torch, as in PyTorch)
