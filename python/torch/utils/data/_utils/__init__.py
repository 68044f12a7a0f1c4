"""Helpers of torch.utils.data: collation and the worker state."""
from torch.utils.data._utils import collate, worker  # noqa: F401
