"""torch.backends.mps: Apple's Metal backend, which this runtime does not have (as PyTorch built
without it: is_available() and is_built() are False)."""

__all__ = ["is_available", "is_built", "is_macos13_or_newer", "is_macos_or_newer"]


def is_built():
    """Whether this build of torch supports MPS: no."""
    return False


def is_available():
    """Whether an MPS device can be used: no."""
    return False


def is_macos_or_newer(major, minor):
    return False


def is_macos13_or_newer(minor=0):
    return False
