"""torch.utils (the small part programs reach for)."""
from . import hooks
