"""torch.cuda: this build has no CUDA device, so torch.cuda reports none, as a CPU-only PyTorch
does (no tensor can be put on "cuda")."""
from torch.cuda import amp  # noqa: F401


def is_available():
    return False


def device_count():
    return 0


def is_bf16_supported():
    return False
