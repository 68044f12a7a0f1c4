"""torch.cuda._sanitizer: a data-race check for CUDA work, as PyTorch's CUDA sanitizer.

With it enabled, every kernel's reads and writes are compared with earlier accesses to the
same memory from other streams; two accesses that no event, stream wait or synchronize
orders, at least one of them a write, raise a RuntimeError at the later launch whose message
begins "CSAN detected a possible data race on tensor with data pointer ...", names both
kernels, their streams and the arguments, and the later kernel is not run. The check is the
simulated GPU's (backends/sim/hazard_check.h); TORCH_CUDA_SANITIZER=1 enables it at start-up."""
from torch import _C


class CUDASanitizer:
    def __init__(self):
        self.enabled = False

    def enable(self):
        _C._cuda_setHazardCheck(True)
        self.enabled = True

    def disable(self):
        _C._cuda_setHazardCheck(False)
        self.enabled = False


cuda_sanitizer = CUDASanitizer()


def enable_cuda_sanitizer():
    """Checks every later CUDA kernel for data races between streams."""
    cuda_sanitizer.enable()
