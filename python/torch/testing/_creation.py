"""make_tensor: random tensors for tests, drawn as PyTorch 2.15's torch/testing/_creation.py draws them
(uniform_ on an empty tensor for floating dtypes, randint for integers and bool)."""
import collections.abc
import functools
import math
import warnings

import torch


def _dtypes(*names):
    # Only the dtypes this runtime has (no unsigned 16/32/64-bit, complex or float8 dtypes here).
    return [getattr(torch, n) for n in names if hasattr(torch, n)]


_INTEGRAL_TYPES = _dtypes("uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64")
_FLOATING_TYPES = _dtypes("float16", "bfloat16", "float32", "float64")
_FLOATING_8BIT_TYPES = _dtypes("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz")
_COMPLEX_TYPES = _dtypes("complex32", "bcomplex32", "complex64", "complex128")
_BOOLEAN_OR_INTEGRAL_TYPES = [torch.bool, *_INTEGRAL_TYPES]
_FLOATING_OR_COMPLEX_TYPES = [*_FLOATING_TYPES, *_COMPLEX_TYPES]


def _uniform_random_(t, low, high):
    # uniform_ needs high - low to be finite in the dtype: halve the range, draw, double.
    if high - low >= torch.finfo(t.dtype).max:
        return t.uniform_(low / 2, high / 2).mul_(2)
    return t.uniform_(low, high)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """A tensor of `shape` on `device` with `dtype`, its values drawn uniformly from [low, high)
    (defaults: bool [0, 2), unsigned [0, 10), signed integers [-9, 10), floating [-9, 9))."""

    def modify_low_high(low, high, *, lowest_inclusive, highest_exclusive, default_low, default_high):
        low = default_low if low is None else low
        high = default_high if high is None else high
        if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
            raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
        elif low == high and dtype in _FLOATING_OR_COMPLEX_TYPES:
            warnings.warn(
                "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
                "is deprecated since 2.1 and will be removed in 2.3. "
                "Use `torch.full(...)` instead.",
                FutureWarning,
                stacklevel=3,
            )
        elif low >= high:
            raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
        elif high < lowest_inclusive or low >= highest_exclusive:
            raise ValueError(
                f"The value interval specified by `low` and `high` is [{low}, {high}), "
                f"but {dtype} only supports [{lowest_inclusive}, {highest_exclusive})"
            )
        low = min(max(low, lowest_inclusive), highest_exclusive)
        high = min(max(high, lowest_inclusive), highest_exclusive)
        if dtype in _BOOLEAN_OR_INTEGRAL_TYPES:
            # randint's upper bound is exclusive, so both bounds are rounded up
            return math.ceil(low), math.ceil(high)
        return low, high

    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)

    if noncontiguous and memory_format is not None:
        raise ValueError(
            f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
            f"but got {noncontiguous=} and {memory_format=}"
        )
    if requires_grad and dtype in _BOOLEAN_OR_INTEGRAL_TYPES:
        raise ValueError(
            f"`requires_grad=True` is not supported for boolean and integral dtypes, but got {dtype=}"
        )

    noncontiguous = noncontiguous and functools.reduce(lambda x, y: x * y, shape, 1) > 1
    if noncontiguous:
        # twice as many elements in the last dimension; every second one is kept below
        shape = (*shape[:-1], 2 * shape[-1])

    if dtype is torch.bool:
        low, high = modify_low_high(low, high, lowest_inclusive=0, highest_exclusive=2,
                                    default_low=0, default_high=2)
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _BOOLEAN_OR_INTEGRAL_TYPES:
        info = torch.iinfo(dtype)
        # randint cannot draw int64's maximum (its bounds are int64), hence no +1 for it
        low, high = modify_low_high(low, high, lowest_inclusive=info.min,
                                    highest_exclusive=info.max + (1 if dtype is not torch.int64 else 0),
                                    default_low=-9, default_high=10)
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _FLOATING_OR_COMPLEX_TYPES:
        info = torch.finfo(dtype)
        low, high = modify_low_high(low, high, lowest_inclusive=info.min, highest_exclusive=info.max,
                                    default_low=-9, default_high=9)
        result = torch.empty(shape, device=device, dtype=dtype)
        _uniform_random_(torch.view_as_real(result) if dtype in _COMPLEX_TYPES else result, low, high)
    elif dtype in _FLOATING_8BIT_TYPES:
        info = torch.finfo(dtype)
        low, high = modify_low_high(low, high, lowest_inclusive=info.min, highest_exclusive=info.max,
                                    default_low=-9, default_high=9)
        result = torch.empty(shape, device=device, dtype=torch.float32)
        _uniform_random_(result, low, high)
        result = result.to(dtype)
    else:
        raise TypeError(
            f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor()."
            " To request support, file an issue at: https://github.com/pytorch/pytorch/issues"
        )

    if noncontiguous:
        # offset by one so that offset bugs show
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)

    if exclude_zero:
        result[result == 0] = 1 if dtype in _BOOLEAN_OR_INTEGRAL_TYPES else torch.finfo(dtype).tiny

    if dtype in _FLOATING_OR_COMPLEX_TYPES:
        result.requires_grad = requires_grad

    return result
