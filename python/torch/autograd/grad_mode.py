"""Grad-mode context managers, usable as decorators too, as in torch.autograd.grad_mode.

no_grad turns grad mode off (the Autograd dispatch key is still entered: see lesson 3);
inference_mode also excludes the Autograd and ADInplaceOrView keys and makes new tensors
inference tensors.
"""
import functools

import torch
from torch import _C


class _DecoratorContextManager:
    def __call__(self, func):
        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return decorated

    def clone(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)
        return False


class enable_grad(_DecoratorContextManager):
    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(True)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)
        return False


class set_grad_enabled(_DecoratorContextManager):
    """set_grad_enabled(mode): takes effect at once (so it also works as a plain call)."""

    def __init__(self, mode):
        self.prev = _C.is_grad_enabled()
        self.mode = bool(mode)
        _C._set_grad_enabled(self.mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)
        return False

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self._guard = _C._InferenceMode(self.mode)
        self._guard.__enter__()

    def __exit__(self, *exc):
        self._guard.__exit__(*exc)
        return False

    def clone(self):
        return self.__class__(self.mode)
