"""torch.accelerator: the device-generic API over the build's accelerator. This build's
accelerator is CUDA (the simulated GPU of torch.cuda), known at build time as in a CUDA build of
PyTorch: current_accelerator() is device(type='cuda') even where IPT_GPU=off takes the device
away, and is_available() then answers False, as a CUDA build of PyTorch 2.15 on a machine
without a GPU does."""
import warnings as _warnings

import torch

from torch.cuda.memory import (empty_cache, max_memory_allocated, max_memory_reserved,  # noqa: F401
                               memory_allocated, memory_reserved, memory_stats, reset_peak_memory_stats)

__all__ = [
    "current_accelerator",
    "current_device_idx",  # deprecated
    "current_device_index",
    "current_stream",
    "device_count",
    "device_index",
    "empty_cache",
    "is_available",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "memory_stats",
    "reset_peak_memory_stats",
    "set_device_idx",  # deprecated
    "set_device_index",
    "set_stream",
    "synchronize",
]


def device_count():
    """The number of devices of the current accelerator (0 when none is available)."""
    acc = current_accelerator()
    if acc is None:
        return 0
    return torch.cuda.device_count()


def is_available():
    """Whether the current accelerator is available at run time."""
    acc = current_accelerator()
    if acc is None:
        return False
    return torch.cuda.is_available()


def current_accelerator(check_available=False):
    """The device of the accelerator known at build time (index None), or None; with
    check_available=True, None also when it is not available at run time."""
    acc = torch.device("cuda")
    if (not check_available) or (check_available and is_available()):
        return acc
    return None


def _get_device_index(device, optional=False):
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        device = torch.device(device)
    device_index = None
    if isinstance(device, torch.device):
        acc = current_accelerator()
        if acc is None:
            raise RuntimeError("Accelerator expected")
        if acc.type != device.type:
            raise ValueError(f"{device.type} doesn't match the current accelerator {acc}.")
        device_index = device.index
    if device_index is None:
        if not optional:
            raise ValueError(
                f"Expected a torch.device with a specified index or an integer, but got:{device}")
        return current_device_index()
    return device_index


def current_device_index():
    """The index of the currently selected device of the current accelerator."""
    return torch.cuda.current_device()


def set_device_index(device, /):
    """Selects the device (this build has one device, index 0)."""
    index = _get_device_index(device, optional=False)
    if index >= 0:
        torch.cuda._device_index(index)


def current_device_idx():
    """(Deprecated) current_device_index()."""
    _warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def set_device_idx(device, /):
    """(Deprecated) set_device_index(device)."""
    _warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


def current_stream(device=None, /):
    """The currently selected stream of the device."""
    _get_device_index(device, optional=True)
    return torch.cuda.current_stream()


def set_stream(stream):
    """Makes the stream the current one."""
    torch.cuda.set_stream(stream)


def synchronize(device=None, /):
    """Waits for all kernels in all streams on the device to complete."""
    _get_device_index(device, optional=True)
    torch.cuda.synchronize()


class device_index:
    """Context manager that selects a device index for its duration (None: no change)."""

    def __init__(self, device, /):
        self.idx = device
        self.prev_idx = -1

    def __enter__(self):
        if self.idx is not None:
            self.prev_idx = current_device_index()
            set_device_index(self.idx)

    def __exit__(self, *exc_info):
        if self.idx is not None and self.prev_idx >= 0:
            set_device_index(self.prev_idx)
