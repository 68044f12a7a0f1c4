"""torch.optim: the optimizers and learning-rate schedulers, with PyTorch 2.15's arithmetic."""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from .adamw import AdamW
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adamax import Adamax
from .nadam import NAdam
from .radam import RAdam
from .rmsprop import RMSprop
from .lbfgs import LBFGS
from . import (optimizer, sgd, adam, adamw, adadelta, adagrad, adamax, nadam, radam, rmsprop, lbfgs,  # noqa: F401
               lr_scheduler)  # the submodules, as torch.optim.sgd etc.

__all__ = ['Optimizer', 'SGD', 'Adam', 'AdamW', 'Adadelta', 'Adagrad', 'Adamax', 'NAdam', 'RAdam', 'RMSprop', 'LBFGS',
           'lr_scheduler']
