"""torch.backends.cuda.matmul.allow_tf32: whether float32 matmuls on the GPU may use TF32
tensor cores (False by default, as in PyTorch 1.12 and later)."""
from torch import _C


class _Matmul:
    @property
    def allow_tf32(self):
        return _C._cuda_getAllowTF32()

    @allow_tf32.setter
    def allow_tf32(self, on):
        if _C._cuda_is_available():
            _C._cuda_setAllowTF32(bool(on))


matmul = _Matmul()
