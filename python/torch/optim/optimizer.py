"""torch.optim.Optimizer: the base class of the optimizers, as in PyTorch 2.15.

param_groups is a list of dicts (each with 'params' and every default filled
in), state a defaultdict(dict) keyed by parameter. The foreach, fused,
capturable and differentiable code paths of 2.15 are not implemented: the
options exist (so the groups look like 2.15's) and must keep their defaults.
"""
from collections import defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain
import functools
import warnings

import torch

__all__ = ['Optimizer']


class _RequiredParameter:
    """Singleton marking a hyper-parameter without a default (SGD's lr)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(o):
    return torch.typename(o)


def _check_unsupported(**options):
    """Raise for the 2.15 options whose code paths Inside PyTorch does not implement."""
    for name, value in options.items():
        if value:
            raise NotImplementedError(
                "{}={!r} is not supported by Inside PyTorch's optimizers yet; only the "
                "single-tensor (for-loop) implementation of PyTorch 2.15 is".format(name, value))


def _get_scalar_dtype():
    """The dtype of a step counter: float64 when that is the default dtype, else float32."""
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _use_grad_for_differentiable(func):
    """Run an optimizer's step with gradient recording off (2.15's differentiable=False)."""
    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        with torch.no_grad():
            return func(self, *args, **kwargs)
    return _use_grad


class Optimizer:
    r"""Base class for all optimizers.

    Args:
        params (iterable): Tensors, or dicts defining parameter groups.
        defaults (dict): default values of the optimization options.
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be "
                            "an iterable of Tensors or dicts, but got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {'defaults': self.defaults, 'state': self.state, 'param_groups': self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault('differentiable', False)

    def __repr__(self):
        format_string = self.__class__.__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            format_string += '\n'
            format_string += 'Parameter Group {0}\n'.format(i)
            for key in sorted(group.keys()):
                if key != 'params':
                    format_string += '    {0}: {1}\n'.format(key, group[key])
        format_string += ')'
        return format_string

    def state_dict(self):
        r"""{'state': {param index: state}, 'param_groups': groups with param indices}."""
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != 'params'}
            param_mappings.update({id(p): i for i, p in enumerate(group['params'], start_index)
                                   if id(p) not in param_mappings})
            packed['params'] = [param_mappings[id(p)] for p in group['params']]
            start_index += len(packed['params'])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, torch.Tensor) else k): v
                        for k, v in self.state.items()}
        return {'state': packed_state, 'param_groups': param_groups}

    def load_state_dict(self, state_dict):
        r"""Loads a state from :meth:`state_dict` (deep-copied; tensors cast to the params')."""
        state_dict = deepcopy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict['param_groups']

        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g['params']) for g in groups)
        saved_lens = (len(g['params']) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError("loaded state dict contains a parameter group "
                             "that doesn't match the size of optimizer's group")

        id_map = {old_id: p for old_id, p in
                  zip(chain.from_iterable((g['params'] for g in saved_groups)),
                      chain.from_iterable((g['params'] for g in groups)))}

        def cast(param, value, key=None):
            if isinstance(value, torch.Tensor):
                # 'step' keeps its own dtype and device (pytorch/pytorch#74424)
                if key != "step":
                    if param.is_floating_point():
                        value = value.to(param.dtype)
                    value = value.to(param.device)
                return value
            elif isinstance(value, dict):
                return {k: cast(param, v, key=k) for k, v in value.items()}
            elif isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(cast(param, v) for v in value)
            else:
                return value

        state = defaultdict(dict)
        for k, v in state_dict['state'].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group['params'] = group['params']
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({'state': state, 'param_groups': param_groups})

    def zero_grad(self, set_to_none=True):
        r"""Sets every parameter's .grad to None (2.15's default), or zeroes it."""
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure):
        r"""Performs one optimization step; subclasses implement it."""
        raise NotImplementedError

    def add_param_group(self, param_group):
        r"""Adds a parameter group, filling in the defaults it does not set."""
        assert isinstance(param_group, dict), "param group must be a dict"

        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but '
                            'the ordering of tensors in sets will change between runs. Please use a list instead.')
        else:
            param_group['params'] = list(params)

        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, "
                                "but one of the params is " + _typename(param))
            is_leaf = param.grad_fn is None
            if not self.defaults.get('differentiable', None) and not (
                    is_leaf or getattr(param, 'retains_grad', False)):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization parameter " +
                                 name)
            else:
                param_group.setdefault(name, default)

        params = param_group['params']
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; "
                          "see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)

        param_set = set()
        for group in self.param_groups:
            param_set.update(set(group['params']))
        if not param_set.isdisjoint(set(param_group['params'])):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)
