"""Print options, as torch/_tensor_str.py has them in PyTorch.

The tensor repr itself is computed in C++ (core/format) with the same rules as PyTorch's
printer; set_printoptions hands the options to it.
"""
import math

from torch import _C


class __PrinterOptions:
    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None


PRINT_OPTS = __PrinterOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    r"""Set options for printing. Items shamelessly taken from NumPy.

    Args:
        precision: Number of digits of precision for floating point output (default = 4).
        threshold: Total number of array elements which trigger summarization rather than
            full `repr` (default = 1000).
        edgeitems: Number of array items in summary at beginning and end of each dimension
            (default = 3).
        linewidth: The number of characters per line for the purpose of inserting line
            breaks (default = 80). Thresholded matrices will ignore this parameter.
        profile: Sane defaults for pretty printing. Can override with any of the above
            options. (any one of `default`, `short`, `full`)
        sci_mode: Enable (True) or disable (False) scientific notation. If None (default) is
            specified, the value is defined by `torch._tensor_str._Formatter`.
    """
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
        elif profile == "short":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
        elif profile == "full":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, math.inf, 3, 80
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode
    _C._set_printoptions(int(PRINT_OPTS.precision), float(PRINT_OPTS.threshold), int(PRINT_OPTS.edgeitems),
                         int(PRINT_OPTS.linewidth), PRINT_OPTS.sci_mode)
