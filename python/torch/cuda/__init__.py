"""torch.cuda: the CUDA device of this build, which is a simulated GPU (backends/sim) that keeps
CUDA's semantics: each stream is a queue run by its own worker thread, launches return at once,
events and synchronization behave as CUDA's, and a modeled clock (the H200's figures) times the
work. IPT_GPU=off takes the device away, as on a CPU-only PyTorch."""
import contextlib as _contextlib

import torch
from torch import _C
import os as _os

from torch.cuda import _sanitizer  # noqa: F401
from torch.cuda import amp  # noqa: F401
from torch.cuda import memory  # noqa: F401
from torch.cuda.memory import (empty_cache, max_memory_allocated, max_memory_reserved, memory_allocated,  # noqa: F401
                               memory_reserved, memory_stats, reset_peak_memory_stats)
from torch.cuda.streams import Event, Stream  # noqa: F401


def is_available():
    return _C._cuda_is_available()


def is_simulated():
    """True when the device is the simulated GPU (not part of PyTorch)."""
    return _C._cuda_is_simulated()


def device_count():
    return _C._cuda_getDeviceCount()


def _check_available():
    if not _C._cuda_is_available():
        raise AssertionError("Torch not compiled with CUDA enabled")


def current_device():
    _check_available()
    return 0


def _device_index(device):
    if device is None:
        return 0
    if isinstance(device, int):
        index = device
    else:
        device = torch.device(device)
        if device.type != "cuda":
            raise ValueError("Expected a cuda device, but got: {}".format(device))
        index = device.index or 0
    if index < 0 or index >= device_count():
        raise AssertionError("Invalid device id")
    return index


def get_device_name(device=None):
    _check_available()
    return _C._cuda_getDeviceName(_device_index(device))


def is_bf16_supported():
    return is_available()


def synchronize(device=None):
    """Waits for all work on every stream of the device to complete."""
    _check_available()
    _device_index(device)
    _C._cuda_synchronize()


def current_stream(device=None):
    _check_available()
    _device_index(device)
    return Stream(_stream_id=_C._cuda_getCurrentStream())


def default_stream(device=None):
    _check_available()
    _device_index(device)
    return Stream(_stream_id=_C._cuda_getDefaultStream())


def set_stream(stream):
    if stream is None:
        return
    _C._cuda_setStream(stream.stream_id)


@_contextlib.contextmanager
def stream(stream):
    """Makes `stream` the current stream inside the block (None: no change)."""
    if stream is None:
        yield
        return
    prev = _C._cuda_getCurrentStream()
    _C._cuda_setStream(stream.stream_id)
    try:
        yield
    finally:
        _C._cuda_setStream(prev)


if _os.environ.get("TORCH_CUDA_SANITIZER") and _C._cuda_is_available():
    _sanitizer.enable_cuda_sanitizer()


# ---- random numbers on the device: its default generator (an MT19937 engine as the CPU's; its
# numbers are not CUDA's Philox numbers, which no CPU reproduces) ----------------------------
default_generators = (_C._cuda_default_generator,)


def manual_seed(seed):
    """Seeds the device's default generator."""
    default_generators[0].manual_seed(int(seed))


def manual_seed_all(seed):
    """Seeds every device's default generator (there is one device)."""
    manual_seed(seed)


def seed():
    """Seeds the device's default generator from the operating system's entropy."""
    default_generators[0].seed()


def seed_all():
    seed()


def initial_seed():
    return default_generators[0].initial_seed()


def get_rng_state(device='cuda'):
    return default_generators[0].get_state()


def get_rng_state_all():
    return [get_rng_state()]


def set_rng_state(new_state, device='cuda'):
    default_generators[0].set_state(new_state)


def set_rng_state_all(new_states):
    for state in new_states:
        set_rng_state(state)
