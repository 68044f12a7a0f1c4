"""The caching allocator's state, with PyTorch's names (torch.cuda.memory_allocated, ...)."""
from torch import _C


def _stats():
    if not _C._cuda_is_available():
        raise AssertionError("Torch not compiled with CUDA enabled")
    return _C._cuda_memoryStats()


def memory_stats(device=None):
    return dict(sorted(_stats().items()))


def memory_allocated(device=None):
    return _stats()["allocated_bytes.all.current"]


def max_memory_allocated(device=None):
    return _stats()["allocated_bytes.all.peak"]


def memory_reserved(device=None):
    return _stats()["reserved_bytes.all.current"]


def max_memory_reserved(device=None):
    return _stats()["reserved_bytes.all.peak"]


def reset_peak_memory_stats(device=None):
    _stats()
    _C._cuda_resetPeakMemoryStats()


def empty_cache():
    """Returns the cached segments no block uses (after pending frees) to the device."""
    if _C._cuda_is_available():
        _C._cuda_emptyCache()


def _snapshot(device=None):
    """The allocator's segments and blocks, and its history of allocations and frees."""
    _stats()
    return _C._cuda_memorySnapshot()
