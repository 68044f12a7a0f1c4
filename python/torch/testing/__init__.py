"""torch.testing: assert_close, make_tensor and the deprecated assert_allclose (PyTorch 2.15's API)."""
from ._comparison import assert_allclose, assert_close as assert_close  # noqa: F401
from ._creation import make_tensor as make_tensor  # noqa: F401
