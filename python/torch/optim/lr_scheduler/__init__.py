r"""torch.optim.lr_scheduler: learning-rate schedulers with PyTorch 2.15's behaviour.

Every scheduler computes its rates with the same Python float expressions, in the same
order, as 2.15, so the rates it sets are the same doubles. The instance attributes are
created in 2.15's order too, since ``state_dict()`` is ``self.__dict__`` minus the optimizer
(and minus what cannot be saved: lambdas, the wrapped schedulers, which are saved as their
own state dicts).

How a scheduler steps (2.15's protocol):

* The constructor records ``initial_lr`` in every param group (a fresh run,
  ``last_epoch == -1``) or requires it (a resumed run), keeps those as ``base_lrs``, wraps
  ``optimizer.step`` so that calling it marks the optimizer (``_opt_called``), and makes the
  *initial step*: ``step()`` with ``_is_initial`` set, which moves ``last_epoch`` to 0.
* ``step()`` warns once (at its second call) when the optimizer was never stepped, then
  adds one to ``last_epoch`` and writes ``get_lr()``'s values into the groups' ``lr``. The
  deprecated ``step(epoch)`` sets ``last_epoch`` to ``epoch`` and uses the closed form
  ``_get_closed_form_lr()`` where a scheduler has one.
* ``get_last_lr()`` returns the rates the last step wrote (copies of the groups' ``lr``).

The schedulers are in the package's modules by kind (_base: the protocol; _simple: the closed
forms of the epoch; _composite; _plateau; _cyclic); each keeps torch.optim.lr_scheduler as its
module name, as in PyTorch.
"""
from ._base import EPOCH_DEPRECATION_WARNING, LRScheduler, _LRScheduler  # noqa: F401
from ._simple import (ConstantLR, CosineAnnealingLR, CosineAnnealingWarmRestarts, ExponentialLR, LambdaLR, LinearLR,
                      MultiplicativeLR, MultiStepLR, PolynomialLR, StepLR)
from ._composite import SequentialLR, ChainedScheduler
from ._plateau import ReduceLROnPlateau
from ._cyclic import CyclicLR, OneCycleLR

__all__ = [
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "SequentialLR",
    "CosineAnnealingLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
    "OneCycleLR",
    "PolynomialLR",
    "LRScheduler",
]

for _cls in (LRScheduler, _LRScheduler, *(globals()[_name] for _name in __all__)):
    _cls.__module__ = __name__
del _cls
