"""torch.return_types: the named tuples returned by operators with named returns
(`torch.max(x, 0)` is a `torch.return_types.max` with `.values` and `.indices`). The types are
made by torch._C from the operator schemas."""
from torch._C import _return_types as _types

__all__ = [name for name in dir(_types) if not name.startswith("_")]
globals().update({name: getattr(_types, name) for name in __all__})
