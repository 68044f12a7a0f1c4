"""DataParallel and data_parallel over this build's devices (see __init__.py)."""
from itertools import chain

import torch

from ..modules import Module

__all__ = ["DataParallel", "data_parallel"]


def _get_available_device_type():
    return "cuda" if torch.cuda.is_available() else None


def _get_all_device_indices():
    return list(range(torch.cuda.device_count()))


def _get_device_index(device, optional=False):
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type == "cpu":
            return -1
        return device.index if device.index is not None else torch.cuda.current_device()
    return device


def _to_device(obj, device):
    """The inputs on the device (scatter_kwargs for a single device)."""
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(_to_device(o, device) for o in obj))
    if isinstance(obj, (tuple, list)):
        return type(obj)(_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return type(obj)((k, _to_device(v, device)) for k, v in obj.items())
    return obj


def _check_on_device(module, src_device_obj):
    for t in chain(module.parameters(), module.buffers()):
        if t.device != src_device_obj:
            raise RuntimeError(
                "module must have its parameters and buffers "
                f"on device {src_device_obj} (device_ids[0]) but found one of "
                f"them on device: {t.device}"
            )


def _more_than_one_device():
    raise NotImplementedError("DataParallel over more than one device is not supported by this build")


class DataParallel(Module):
    r"""Implements data parallelism at the module level (here: one device, or none)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        device_type = _get_available_device_type()
        if device_type is None:
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = _get_all_device_indices()
        if device_ids is None:
            raise RuntimeError("no available devices were found")
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = [_get_device_index(x, True) for x in device_ids]
        self.output_device = _get_device_index(output_device, True)
        self.src_device_obj = torch.device(f"{device_type}:{self.device_ids[0]}")
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        _check_on_device(self.module, self.src_device_obj)
        if len(self.device_ids) != 1:
            _more_than_one_device()
        return self.module(*_to_device(inputs, self.src_device_obj), **_to_device(kwargs, self.src_device_obj))


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    r"""Evaluate module(input) in parallel across the GPUs given in device_ids (here: one)."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    device_type = _get_available_device_type()
    if device_type is None:
        raise RuntimeError("device type could not be determined")
    if device_ids is None:
        device_ids = _get_all_device_indices()
    if device_ids is None:
        raise RuntimeError("no available devices were found")
    if output_device is None:
        output_device = device_ids[0]
    device_ids = [_get_device_index(x, True) for x in device_ids]
    output_device = _get_device_index(output_device, True)
    src_device_obj = torch.device(f"{device_type}:{device_ids[0]}")
    _check_on_device(module, src_device_obj)
    if len(device_ids) != 1:
        _more_than_one_device()
    return module(*_to_device(inputs, src_device_obj), **_to_device(module_kwargs or {}, src_device_obj))
