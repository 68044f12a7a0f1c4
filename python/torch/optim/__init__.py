"""torch.optim: Optimizer, SGD and Adam with PyTorch 2.15's arithmetic."""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from . import optimizer, sgd, adam, lr_scheduler  # noqa: F401 - the submodules, as torch.optim.sgd etc.

__all__ = ['Optimizer', 'SGD', 'Adam']
