"""torch.backends.cudnn: cuDNN's switches, as PyTorch 2.15 names them. The simulated GPU has no
cuDNN library, so is_available() is False and version() None; the flags are kept and passed on
(F.layer_norm passes `enabled`, convolution the rest), as PyTorch passes them."""
from contextlib import contextmanager

enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True


def is_available():
    """Whether PyTorch was built with cuDNN: not this one."""
    return False


def version():
    """cuDNN's version, or None without it."""
    return None


def is_acceptable(tensor):
    """Whether cuDNN would take this tensor: never without cuDNN."""
    return False


@contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    """Sets the flags for the block, and puts the old ones back after it."""
    global_ = globals()
    names = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")
    old = {n: global_[n] for n in names}
    global_.update(enabled=enabled, benchmark=benchmark, benchmark_limit=benchmark_limit,
                   deterministic=deterministic, allow_tf32=allow_tf32)
    try:
        yield
    finally:
        global_.update(old)
