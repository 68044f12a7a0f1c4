"""torch.utils.hooks.RemovableHandle."""
from torch.nn.modules.module import RemovableHandle

__all__ = ["RemovableHandle"]
