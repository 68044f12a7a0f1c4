"""Schedulers made of other schedulers: SequentialLR (one after another, at milestones) and
ChainedScheduler (all at every step)."""
from bisect import bisect_right

import torch

from ._base import LRScheduler, _group_values, _nested_load_state_dict, _nested_state_dict, _set_group_value
from ._plateau import ReduceLROnPlateau


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
