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
"""
import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from functools import partial, wraps
from weakref import ref

import torch
from torch import Tensor

from .optimizer import Optimizer

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

# math.inf is the same double as torch.inf (ReduceLROnPlateau's "worst" metric in min mode).
_INF = math.inf

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

_STEP_OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)

_STEP_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    "See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)


# ---------------------------------------------------------------------------------------------
# Helpers on param-group values (an lr or a momentum may be a float or a 1-element Tensor)
# ---------------------------------------------------------------------------------------------

def _detached_copy(value):
    """A copy of a Tensor value (so no list we hand out aliases a group's lr); others as they are."""
    return value.clone() if isinstance(value, Tensor) else value


def _as_scalar(value):
    """A 1-element Tensor of any rank becomes a 0-dim one (for fill_); other values unchanged."""
    if isinstance(value, Tensor) and value.dim() != 0:
        return value.squeeze()
    return value


def _format_param(name, optimizer, param):
    """One value of ``name`` per param group: a list/tuple must match the groups in length,
    a single value is repeated."""
    n_groups = len(optimizer.param_groups)
    if isinstance(param, (list, tuple)):
        if len(param) != n_groups:
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(param)} values, param_groups has {n_groups}."
            )
        values = param
    else:
        values = [param] * n_groups
    return [_detached_copy(v) for v in values]


def _group_values(optimizer, key):
    """[group[key] for every param group], Tensors copied; KeyError where a group lacks key."""
    return [_detached_copy(group[key]) for group in optimizer.param_groups]


def _set_group_value(group, key, value):
    """group[key] = value, but a Tensor entry is filled in place rather than replaced."""
    current = group[key]
    if isinstance(current, Tensor):
        current.fill_(_as_scalar(value))
    else:
        group[key] = value


def _set_first_momentum(group, use_beta1, momentum):
    """Writes a cycled momentum: beta1 of Adam-like optimizers, else 'momentum'."""
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def _warn_get_lr_called_within_step(scheduler):
    if not scheduler._get_lr_called_within_step:
        warnings.warn(
            "To get the last learning rate computed by the scheduler, "
            "please use `get_last_lr()`.",
            UserWarning,
            stacklevel=2,
        )


class _Flag:
    """Sets a boolean attribute of a scheduler for the duration of a ``with`` block.

    The attribute is assigned on the instance (True on entry, False on exit), as 2.15 does,
    which is why ``_is_initial`` and ``_get_lr_called_within_step`` show in state_dict()."""

    def __init__(self, scheduler, name):
        self.scheduler = scheduler
        self.name = name

    def __enter__(self):
        setattr(self.scheduler, self.name, True)
        return self

    def __exit__(self, exc_type, exc_value, tb):
        setattr(self.scheduler, self.name, False)


def _enable_get_lr_call(scheduler):
    return _Flag(scheduler, "_get_lr_called_within_step")


def _initial_mode(scheduler):
    return _Flag(scheduler, "_is_initial")


def _mark_optimizer_steps(scheduler, optimizer):
    """Replaces ``optimizer.step`` by a wrapper that sets ``optimizer._opt_called`` and calls
    the original step; does nothing when the step is already wrapped (by another scheduler).

    The wrapper holds the optimizer through a weak reference, as 2.15's does."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    original = optimizer.step.__func__
    optimizer_ref = ref(scheduler.optimizer)

    @wraps(original)
    def step_and_mark(*args, **kwargs):
        opt = optimizer_ref()
        opt._opt_called = True
        return original.__get__(opt, opt.__class__)(*args, **kwargs)

    step_and_mark._wrapped_by_lr_sched = True
    optimizer.step = step_and_mark


def _lambda_state_dict(scheduler):
    """state_dict of LambdaLR / MultiplicativeLR: functions and lambdas are not saved; a
    callable object is saved as a copy of its __dict__."""
    state = {k: v for k, v in scheduler.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
    saved = [None] * len(scheduler.lr_lambdas)
    for i, fn in enumerate(scheduler.lr_lambdas):
        if not isinstance(fn, types.FunctionType):
            saved[i] = fn.__dict__.copy()
    state["lr_lambdas"] = saved
    return state


def _lambda_load_state_dict(scheduler, state_dict):
    # The caller's dict gets its "lr_lambdas" entry back afterwards (pytorch/pytorch#32756).
    saved = state_dict.pop("lr_lambdas")
    scheduler.__dict__.update(state_dict)
    state_dict["lr_lambdas"] = saved
    for i, attrs in enumerate(saved):
        if attrs is not None:
            scheduler.lr_lambdas[i].__dict__.update(attrs)


def _lambdas_per_group(optimizer, lr_lambda):
    n_groups = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != n_groups:
            raise ValueError(f"Expected {n_groups} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * n_groups


def _check_composable(owner, optimizer, schedulers):
    """The checks SequentialLR and ChainedScheduler make on the schedulers they combine."""
    name = owner.__class__.__name__
    for idx, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {idx} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{name} does not support `ReduceLROnPlateau` scheduler as it "
                "requires additional kwargs to be specified when calling `step`, "
                f"but got one at index {idx} in the given schedulers sequence."
            )
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but "
                f"got scheduler {scheduler.__class__.__name__} at index {idx} has {scheduler.optimizer}, "
                f"which is different from {optimizer.__class__.__name__}."
            )


def _nested_state_dict(scheduler):
    state = {k: v for k, v in scheduler.__dict__.items() if k not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [s.state_dict() for s in scheduler._schedulers]
    return state


def _nested_load_state_dict(scheduler, state_dict):
    saved = state_dict.pop("_schedulers")
    scheduler.__dict__.update(state_dict)
    state_dict["_schedulers"] = saved
    for i, sub_state in enumerate(saved):
        scheduler._schedulers[i].load_state_dict(sub_state)


# ---------------------------------------------------------------------------------------------
# The base class
# ---------------------------------------------------------------------------------------------

class LRScheduler:
    r"""Base class of the learning-rate schedulers.

    Args:
        optimizer (Optimizer): the optimizer whose param groups' ``lr`` it sets.
        last_epoch (int): index of the last epoch; -1 (default) starts a schedule, another
            value resumes one (the groups must then hold ``initial_lr``).

    Subclasses implement :meth:`get_lr` (and may implement ``_get_closed_form_lr``).
    """

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", _detached_copy(group["lr"]))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run (not recommended)"
                    )
        self.base_lrs = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch

        # pytorch/pytorch#20124: detect scheduler.step() before optimizer.step().
        _mark_optimizer_steps(self, self.optimizer)
        self._initial_step()

    def _initial_step(self):
        """Resets the step count and makes the constructor's step (last_epoch -1 -> 0)."""
        self._step_count = 0
        with _initial_mode(self):
            self.step()

    def state_dict(self):
        """The scheduler's state: every instance attribute except the optimizer."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict):
        """Restores a state returned by :meth:`state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        """The learning rates the last step set, one per param group."""
        return self._last_lr

    def get_lr(self):
        """The learning rates of the next step (called by :meth:`step`)."""
        raise NotImplementedError

    def step(self, epoch=None):
        """Advances the schedule by one (call it after ``optimizer.step()``).

        ``epoch`` is deprecated: it sets ``last_epoch`` and uses the closed form where
        there is one."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_STEP_OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_STEP_ORDER_WARNING, UserWarning, stacklevel=2)

        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        with _enable_get_lr_call(self):
            if epoch is None:
                self.last_epoch += 1
                new_lrs = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                new_lrs = closed_form() if closed_form is not None else self.get_lr()

        for group, lr in zip(self.optimizer.param_groups, new_lrs, strict=True):
            _set_group_value(group, "lr", lr)

        self._last_lr = _group_values(self.optimizer, "lr")


class _LRScheduler(LRScheduler):
    """The former name of :class:`LRScheduler` (a subclass so that its __name__ differs)."""


# ---------------------------------------------------------------------------------------------
# Schedulers
# ---------------------------------------------------------------------------------------------

class LambdaLR(LRScheduler):
    """lr = initial lr * lr_lambda(epoch), for a function (or one per param group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas_per_group(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self):
        """The state; lambdas and functions are left out (saved as None)."""
        return _lambda_state_dict(self)

    def load_state_dict(self, state_dict):
        _lambda_load_state_dict(self, state_dict)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        epoch = self.last_epoch
        return [base_lr * fn(epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(LRScheduler):
    """lr *= lr_lambda(epoch) at each step (not at the constructor's)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas_per_group(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def state_dict(self):
        """The state; lambdas and functions are left out (saved as None)."""
        return _lambda_state_dict(self)

    def load_state_dict(self, state_dict):
        _lambda_load_state_dict(self, state_dict)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        epoch = self.last_epoch
        return [group["lr"] * fn(epoch)
                for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups, strict=True)]


class StepLR(LRScheduler):
    """lr *= gamma every step_size epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        at_boundary = self.last_epoch != 0 and self.last_epoch % self.step_size == 0
        if not at_boundary:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        n_decays = self.last_epoch // self.step_size
        return [base_lr * self.gamma ** n_decays for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr *= gamma at each milestone epoch (gamma ** k for a milestone listed k times)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        if self.last_epoch not in self.milestones:
            return _group_values(self.optimizer, "lr")
        times = self.milestones[self.last_epoch]
        return [group["lr"] * self.gamma ** times for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base_lr * self.gamma ** passed for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """lr = initial lr * factor until epoch total_iters, then the initial lr again."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in groups]
        if self.last_epoch == self.total_iters:
            return [group["lr"] * (1.0 / self.factor) for group in groups]
        return _group_values(self.optimizer, "lr")

    def _get_closed_form_lr(self):
        reached = self.last_epoch >= self.total_iters
        return [base_lr * (self.factor + reached * (1 - self.factor)) for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor on the initial lr moves linearly from start_factor to end_factor over
    total_iters epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _group_values(self.optimizer, "lr")
        # ratio of the factor at this epoch to the factor at the previous one
        span = self.end_factor - self.start_factor
        ratio = 1.0 + span / (self.total_iters * self.start_factor + (self.last_epoch - 1) * span)
        return [group["lr"] * ratio for group in groups]

    def _get_closed_form_lr(self):
        span = self.end_factor - self.start_factor
        done = min(self.total_iters, self.last_epoch)
        return [base_lr * (self.start_factor + span * done / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr *= gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        # the constructor's step must not decay (it would run one step ahead when resuming)
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class SequentialLR(LRScheduler):
    """Runs one scheduler after another: schedulers[i] from milestones[i - 1] on."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        if len(schedulers) < 1:
            raise ValueError(
                f"{self.__class__.__name__} expects at least one scheduler, but got no scheduler."
            )
        _check_composable(self, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                f"than the number of milestone points, but got number of schedulers {len(schedulers)} and the "
                f"number of milestones to be equal to {len(milestones)}"
            )
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer

        # Back to the initial rates, and take back the constructor steps of the schedulers.
        for group in self.optimizer.param_groups:
            _set_group_value(group, "lr", group["initial_lr"])
        self.recursive_undo()

        # Only the scheduler that runs at epoch 0 makes its initial step.
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched=None):
        """Takes one off the last_epoch of every (nested) scheduler."""
        target = self if sched is None else sched
        if hasattr(target, "_schedulers"):
            for sub in target._schedulers:
                self.recursive_undo(sub)
        elif hasattr(target, "last_epoch"):
            target.last_epoch -= 1

    def step(self):
        """Steps the scheduler of the current epoch; one starting now is set to its epoch 0."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        current = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            current._update_lr(0)
        else:
            current.step()
        self._last_lr = current.get_last_lr()

    def state_dict(self):
        """The state, with the state dict of each scheduler under '_schedulers'."""
        return _nested_state_dict(self)

    def load_state_dict(self, state_dict):
        _nested_load_state_dict(self, state_dict)


class PolynomialLR(LRScheduler):
    """lr = initial lr * (1 - epoch / total_iters) ** power, constant after total_iters."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _group_values(self.optimizer, "lr")
        now = 1.0 - self.last_epoch / self.total_iters
        before = 1.0 - (self.last_epoch - 1) / self.total_iters
        decay = (now / before) ** self.power
        return [group["lr"] * decay for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        done = min(self.total_iters, self.last_epoch)
        return [base_lr * (1.0 - done / self.total_iters) ** self.power for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    r"""Cosine annealing from the initial lr to eta_min over T_max epochs (and back up over
    the next T_max, periodically), computed recursively from the current lr."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        groups = self.optimizer.param_groups
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        if self._step_count == 1 and self.last_epoch > 0:
            # first step of a resumed schedule: the closed form
            return [self.eta_min
                    + (base_lr - self.eta_min) * (1 + math.cos((self.last_epoch) * math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups, strict=True)]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            # leaving the minimum (the recursive ratio would divide by zero)
            return [group["lr"] + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups, strict=True)]
        ratio_num = 1 + math.cos(math.pi * self.last_epoch / self.T_max)
        ratio_den = 1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)
        return [ratio_num / ratio_den * (group["lr"] - self.eta_min) + self.eta_min for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min
                + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class ChainedScheduler(LRScheduler):
    """Steps all the given schedulers at each step, in order."""

    def __init__(self, schedulers, optimizer=None):
        if len(schedulers) < 1:
            raise ValueError(
                f"{self.__class__.__name__} expects at least one scheduler to be chained, but got no scheduler."
            )
        optimizer = optimizer or schedulers[0].optimizer
        _check_composable(self, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _group_values(self._schedulers[-1].optimizer, "lr")

    def step(self):
        """Steps every scheduler."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _group_values(self._schedulers[-1].optimizer, "lr")

    def state_dict(self):
        """The state, with the state dict of each scheduler under '_schedulers'."""
        return _nested_state_dict(self)

    def load_state_dict(self, state_dict):
        _nested_load_state_dict(self, state_dict)


class ReduceLROnPlateau(LRScheduler):
    """lr *= factor (down to min_lr) when a metric has not improved for more than patience
    steps; then waits cooldown steps before counting again."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor

        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        n_groups = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n_groups:
                raise ValueError(f"expected {n_groups} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * n_groups

        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _group_values(self.optimizer, "lr")
        self._init_is_better(mode=mode, threshold=threshold, threshold_mode=threshold_mode)
        self._reset()

    def _reset(self):
        """Forgets the best metric and the bad-epoch and cooldown counters."""
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch=None):
        """Takes one metric value (a number or a 0-dim Tensor)."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch

        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1

        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs during the cooldown do not count

        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0

        self._last_lr = _group_values(self.optimizer, "lr")

    def _reduce_lr(self, epoch):
        n_groups = len(self.optimizer.param_groups)
        if n_groups != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    "The number of param groups in the `optimizer` "
                    f"({n_groups}) differs "
                    f"from when `ReduceLROnPlateau` was initialized "
                    f"({len(self.min_lrs)}), usually due to a new "
                    "param group being added to the optimizer. Please "
                    "modify the `min_lrs` field to match the length "
                    "of the `optimizer` param groups."
                )
            self.min_lrs = [self.default_min_lr] * n_groups

        for i, group in enumerate(self.optimizer.param_groups):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                _set_group_value(group, "lr", new_lr)

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def _is_better(self, a, best):
        if self.mode == "min":
            if self.threshold_mode == "rel":
                return a < best * (1.0 - self.threshold)
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = _INF if mode == "min" else -_INF
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict):
        """Restores a state returned by :meth:`state_dict`."""
        self.__dict__.update(state_dict)
        self._init_is_better(mode=self.mode, threshold=self.threshold, threshold_mode=self.threshold_mode)


class CyclicLR(LRScheduler):
    r"""Cyclical learning rates (CLR): the lr goes from base_lr up to max_lr in step_size_up
    steps and back down in step_size_down, the amplitude scaled by mode's function
    ('triangular', 'triangular2', 'exp_range') or scale_fn; momentum (or beta1) cycles the
    other way between max_momentum and base_momentum."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        base_lrs = _format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                _set_group_value(group, "lr", lr)

        self.max_lrs = _format_param("max_lr", optimizer, max_lr)

        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size

        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")

        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()

        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError(
                    "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
                )
            self.use_beta1 = "betas" in self.optimizer.defaults
            self.base_momentums = _format_param("base_momentum", optimizer, base_momentum)
            self.max_momentums = _format_param("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                for top, bottom, group in zip(self.max_momentums, self.base_momentums,
                                              optimizer.param_groups, strict=True):
                    _set_first_momentum(group, self.use_beta1, top)
                    group["max_momentum"] = top
                    group["base_momentum"] = bottom

        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self):
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref = self._triangular_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = self._triangular2_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x):
        """The amplitude scale at x (the cycle number or the iteration, per scale_mode)."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x):
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x):
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma, x):
        return gamma ** x

    def get_lr(self):
        """The lrs at batch last_epoch; as a side effect, sets the cycled momentums."""
        _warn_get_lr_called_within_step(self)

        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale_arg = cycle if self.scale_mode == "cycle" else self.last_epoch

        lrs = []
        for base_lr, max_lr in zip(self.base_lrs, self.max_lrs, strict=True):
            base_height = (max_lr - base_lr) * scale_factor
            lrs.append(base_lr + base_height * self.scale_fn(scale_arg))

        if self.cycle_momentum:
            momentums = []
            for base_momentum, max_momentum in zip(self.base_momentums, self.max_momentums, strict=True):
                base_height = (max_momentum - base_momentum) * scale_factor
                momentums.append(max_momentum - base_height * self.scale_fn(scale_arg))
            for group, momentum in zip(self.optimizer.param_groups, momentums, strict=True):
                _set_first_momentum(group, self.use_beta1, momentum)

        return lrs

    def state_dict(self):
        """The state; the built-in scale function is left out, a custom one is saved only
        when it is a callable object (as a copy of its __dict__)."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        """Restores a state returned by :meth:`state_dict`."""
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class CosineAnnealingWarmRestarts(LRScheduler):
    r"""SGDR: cosine annealing from the initial lr to eta_min over T_i epochs, restarting
    at the initial lr; T_i starts at T_0 and is multiplied by T_mult at each restart."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(
                f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}"
            )
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        cos_term = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return [self.eta_min + (base_lr - self.eta_min) * cos_term / 2 for base_lr in self.base_lrs]

    def step(self, epoch=None):
        """Advances by one epoch, or (the interleaved use) jumps to a fractional ``epoch``."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0

        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch < self.T_0:
            self.T_i = self.T_0
            self.T_cur = epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            # n restarts happened before epoch: T_0 * (T_mult ** n - 1) / (T_mult - 1) <= epoch
            n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** (n)
        self.last_epoch = math.floor(epoch)

        with _enable_get_lr_call(self):
            new_lrs = self.get_lr()
            for group, lr in zip(self.optimizer.param_groups, new_lrs, strict=True):
                _set_group_value(group, "lr", lr)

        self._last_lr = _group_values(self.optimizer, "lr")


class OneCycleLR(LRScheduler):
    r"""The 1cycle policy: the lr anneals from max_lr / div_factor up to max_lr over
    pct_start of total_steps, then down to initial_lr / final_div_factor (or, with
    three_phase, back to the initial lr and then down); momentum (or beta1) moves the other
    way between max_momentum and base_momentum."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy="cos", cycle_momentum=True, base_momentum=0.85,
                 max_momentum=0.95, div_factor=25.0, final_div_factor=1e4, three_phase=False,
                 last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(
                    f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}"
                )
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")

        def phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
            return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
                    "start_momentum": start_momentum, "end_momentum": end_momentum}

        warmup_end = float(pct_start * self.total_steps) - 1
        if three_phase:
            self._schedule_phases = [
                phase(warmup_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                phase(float(2 * pct_start * self.total_steps) - 2,
                      "max_lr", "initial_lr", "base_momentum", "max_momentum"),
                phase(self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
            ]
        else:
            self._schedule_phases = [
                phase(warmup_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                phase(self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"),
            ]

        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")

        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy

        max_lrs = _format_param("max_lr", self.optimizer, max_lr)
        if last_epoch == -1:
            for idx, group in enumerate(self.optimizer.param_groups):
                group["initial_lr"] = max_lrs[idx] / div_factor
                group["max_lr"] = max_lrs[idx]
                group["min_lr"] = group["initial_lr"] / final_div_factor

        self.cycle_momentum = cycle_momentum
        if self.cycle_momentum:
            if "momentum" not in self.optimizer.defaults and "betas" not in self.optimizer.defaults:
                raise ValueError(
                    "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
                )
            self.use_beta1 = "betas" in self.optimizer.defaults
            max_momentums = _format_param("max_momentum", optimizer, max_momentum)
            base_momentums = _format_param("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for top, bottom, group in zip(max_momentums, base_momentums,
                                              optimizer.param_groups, strict=True):
                    _set_first_momentum(group, self.use_beta1, top)
                    group["max_momentum"] = top
                    group["base_momentum"] = bottom

        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, *args, **kwargs):
        if not hasattr(self, "_anneal_func_type"):
            # states saved before _anneal_func_type existed keep the function itself
            return self.anneal_func(*args, **kwargs)
        if self._anneal_func_type == "cos":
            return self._annealing_cos(*args, **kwargs)
        if self._anneal_func_type == "linear":
            return self._annealing_linear(*args, **kwargs)
        raise ValueError(f"Unknown _anneal_func_type: {self._anneal_func_type}")

    @staticmethod
    def _annealing_cos(start, end, pct):
        """Cosine from start (pct 0) to end (pct 1)."""
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start, end, pct):
        """Straight line from start (pct 0) to end (pct 1)."""
        return (end - start) * pct + start

    def get_lr(self):
        """The lrs at batch last_epoch; as a side effect, sets the cycled momentums."""
        _warn_get_lr_called_within_step(self)

        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(
                f"Tried to step {step_num} times. The specified number of total steps is {self.total_steps}"
            )

        lrs = []
        last_phase = len(self._schedule_phases) - 1
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, ph in enumerate(self._schedule_phases):
                end_step = ph["end_step"]
                if step_num <= end_step or i == last_phase:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lr = self._anneal_func(group[ph["start_lr"]], group[ph["end_lr"]], pct)
                    if self.cycle_momentum:
                        momentum = self._anneal_func(group[ph["start_momentum"]],
                                                     group[ph["end_momentum"]], pct)
                    break
                start_step = ph["end_step"]

            lrs.append(lr)
            if self.cycle_momentum:
                _set_first_momentum(group, self.use_beta1, momentum)

        return lrs
