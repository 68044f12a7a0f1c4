"""Reduction names of the loss functions and their ATen enum values.

The enum values are those of ATen's Reduction.h, which PyTorch 2.15's
torch/nn/_reduction.py mirrors: 'none' = 0, 'mean' = 1, 'sum' = 2.
"""
import warnings

__all__ = ['get_enum', 'legacy_get_string', 'legacy_get_enum']

NONE = 0
MEAN = 1
SUM = 2


def get_enum(reduction):
    """Map a reduction name to the integer the C++ loss kernels take."""
    if reduction == 'none':
        return NONE
    if reduction == 'mean':
        return MEAN
    if reduction == 'elementwise_mean':
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.", stacklevel=2)
        return MEAN
    if reduction == 'sum':
        return SUM
    raise ValueError("{} is not a valid value for reduction".format(reduction))


def legacy_get_string(size_average, reduce, emit_warning=True):
    """Translate the deprecated size_average / reduce pair into a reduction name."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        name = 'mean'
    elif reduce:
        name = 'sum'
    else:
        name = 'none'
    if emit_warning:
        warnings.warn("size_average and reduce args will be deprecated, please use "
                      "reduction='{}' instead.".format(name))
    return name


def legacy_get_enum(size_average, reduce, emit_warning=True):
    return get_enum(legacy_get_string(size_average, reduce, emit_warning))
