"""torch.backends: switches of the backends (torch.backends.cuda.matmul.allow_tf32)."""
from torch.backends import cuda  # noqa: F401
