"""torch.backends: switches of the backends (torch.backends.cuda.matmul.allow_tf32,
torch.backends.cudnn.enabled)."""
from torch.backends import cuda  # noqa: F401
from torch.backends import cudnn  # noqa: F401
from torch.backends import mps  # noqa: F401,E402
