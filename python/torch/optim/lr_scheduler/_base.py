"""The scheduler protocol every learning-rate scheduler shares: LRScheduler (step, get_last_lr,
state_dict), the call-order check on optimizer.step, and the helpers the schedulers use."""
import math
import types
import warnings
from functools import wraps
from weakref import ref

import torch
from torch import Tensor

from ..optimizer import Optimizer


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
