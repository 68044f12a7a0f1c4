"""torch.finfo and torch.iinfo: the numerical limits of a floating-point or integer dtype.

The values are PyTorch's (which are NumPy's for the IEEE types, and bfloat16's own for
bfloat16); repr prints each number with six significant digits, as PyTorch's C type does.
"""
import math

import torch

# bits, eps, max, smallest normal (tiny), for each floating dtype
_FLOATS = {
    "float16": (16, 2.0**-10, 65504.0, 2.0**-14),
    "bfloat16": (16, 2.0**-7, float.fromhex("0x1.fep127"), 2.0**-126),
    "float32": (32, 2.0**-23, float.fromhex("0x1.fffffep127"), 2.0**-126),
    "float64": (64, 2.0**-52, float.fromhex("0x1.fffffffffffffp1023"), 2.0**-1022),
}
# bits, min, max, for each integer dtype
_INTS = {
    "uint8": (8, 0, 255),
    "int8": (8, -128, 127),
    "int16": (16, -(2**15), 2**15 - 1),
    "int32": (32, -(2**31), 2**31 - 1),
    "int64": (64, -(2**63), 2**63 - 1),
}


def _name(dtype):
    return repr(dtype).split(".", 1)[1]


def _g(x):
    return format(x, ".6g")


class finfo:
    """Machine limits of a floating-point dtype: bits, eps, max, min, tiny, smallest_normal,
    resolution and dtype (a string)."""

    def __init__(self, type=None):
        if type is None:
            type = torch.get_default_dtype()
        if not isinstance(type, torch.dtype) or _name(type) not in _FLOATS:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'")
        self.dtype = _name(type)
        self.bits, self.eps, self.max, self.tiny = _FLOATS[self.dtype]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.resolution = 10.0 ** -math.floor(-math.log10(self.eps))

    def __eq__(self, other):
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={_g(self.resolution)}, min={_g(self.min)}, max={_g(self.max)}, eps={_g(self.eps)}, "
                f"smallest_normal={_g(self.smallest_normal)}, tiny={_g(self.tiny)}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:
    """Machine limits of an integer dtype: bits, min, max and dtype (a string)."""

    def __init__(self, type):
        if not isinstance(type, torch.dtype) or type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        if _name(type) not in _INTS:
            raise TypeError(f"{type} is not supported by torch.iinfo")
        self.dtype = _name(type)
        self.bits, self.min, self.max = _INTS[self.dtype]

    def __eq__(self, other):
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={_g(self.min)}, max={_g(self.max)}, dtype={self.dtype})"

    __str__ = __repr__


finfo.__module__ = "torch"
iinfo.__module__ = "torch"
