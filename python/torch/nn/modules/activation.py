"""Activation modules, as in PyTorch 2.15's torch/nn/modules/activation.py.

Each module calls the torch.nn.functional function PyTorch 2.15 calls, so values, gradients
and the autograd graph match. Softmin, Tanhshrink and Softsign are plain Python in 2.15's
functional ((-x).softmax(dim), x - x.tanh(), x / (x.abs() + 1)); those op sequences are
written out here while torch.nn.functional lacks them.

Not here yet, because their ATen kernels (and so their functionals) are missing from
Inside PyTorch: Threshold (threshold), RReLU (rrelu), Hardsigmoid (hardsigmoid), SiLU
(silu), Mish (mish), Hardswish (hardswish), CELU (celu), GLU (glu), Hardshrink
(hardshrink), Softplus (softplus), Softshrink (softshrink), PReLU (prelu /
_prelu_kernel), and MultiheadAttention.
"""
import warnings

import torch
from .. import functional as F
from .module import Module

__all__ = ['ReLU', 'Hardtanh', 'ReLU6', 'Sigmoid', 'Tanh', 'ELU', 'SELU', 'GELU', 'LeakyReLU',
           'LogSigmoid', 'Softsign', 'Tanhshrink', 'Softmin', 'Softmax', 'Softmax2d', 'LogSoftmax']


def _check_softmax_dim(dim):
    if dim is not None and (not isinstance(dim, int) or isinstance(dim, bool)):
        raise TypeError(f"dim must be an int or None, got {type(dim)}")


class ReLU(Module):
    r"""Applies max(0, x) element-wise; ``inplace=True`` modifies the input."""
    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Hardtanh(Module):
    r"""Clamps the input to [min_val, max_val] element-wise (min_value / max_value are the
    deprecated spellings of min_val / max_val)."""
    __constants__ = ['min_val', 'max_val', 'inplace']

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        if min_value is not None:
            warnings.warn("keyword argument `min_value` is deprecated and renamed to `min_val`",
                          FutureWarning, stacklevel=2)
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument `max_value` is deprecated and renamed to `max_val`",
                          FutureWarning, stacklevel=2)
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        suffix = ', inplace=True' if self.inplace else ''
        return f'min_val={self.min_val}, max_val={self.max_val}{suffix}'


class ReLU6(Hardtanh):
    r"""min(max(0, x), 6): a Hardtanh over [0, 6] (its forward is Hardtanh's, as in PyTorch)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Sigmoid(Module):
    r"""1 / (1 + exp(-x)) element-wise."""

    def forward(self, input):
        return torch.sigmoid(input)


class Tanh(Module):
    r"""tanh(x) element-wise."""

    def forward(self, input):
        return torch.tanh(input)


class ELU(Module):
    r"""x for x > 0, alpha * (exp(x) - 1) otherwise."""
    __constants__ = ['alpha', 'inplace']

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        suffix = ', inplace=True' if self.inplace else ''
        return f'alpha={self.alpha}{suffix}'


class SELU(Module):
    r"""scale * (max(0, x) + min(0, alpha * (exp(x) - 1))) with SELU's fixed alpha and scale."""
    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class GELU(Module):
    r"""x * Phi(x), or its tanh approximation when ``approximate='tanh'``."""
    __constants__ = ['approximate']

    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f'approximate={self.approximate!r}'


class LeakyReLU(Module):
    r"""x for x > 0, negative_slope * x otherwise."""
    __constants__ = ['inplace', 'negative_slope']

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        suffix = ', inplace=True' if self.inplace else ''
        return f'negative_slope={self.negative_slope}{suffix}'


class LogSigmoid(Module):
    r"""log(1 / (1 + exp(-x))) element-wise."""

    def forward(self, input):
        return F.logsigmoid(input)


class Softsign(Module):
    r"""x / (1 + |x|) element-wise (PyTorch's functional: input / (input.abs() + 1))."""

    def forward(self, input):
        return input / (input.abs() + 1)


class Tanhshrink(Module):
    r"""x - tanh(x) element-wise (PyTorch's functional: input - input.tanh())."""

    def forward(self, input):
        return input - input.tanh()


class Softmin(Module):
    r"""Softmax of -x along ``dim`` (PyTorch's functional: (-input).softmax(dim))."""
    __constants__ = ['dim']

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, 'dim'):
            self.dim = None

    def forward(self, input):
        dim = self.dim
        if dim is None:
            # Module.__call__ -> forward -> here: the caller of the module call is 4 frames up,
            # as F.softmin(input, dim, _stacklevel=5) would see it from one frame deeper.
            dim = F._get_softmax_dim("softmin", input.dim(), 4)
        return (-input).softmax(dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class Softmax(Module):
    r"""exp(x_i) / sum_j exp(x_j) along ``dim``."""
    __constants__ = ['dim']

    def __init__(self, dim=None):
        _check_softmax_dim(dim)
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, 'dim'):
            self.dim = None

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f'dim={self.dim}'


class Softmax2d(Module):
    r"""Softmax over the channels (dim -3) of a (C, H, W) or (N, C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class LogSoftmax(Module):
    r"""log(softmax(x)) along ``dim``, computed stably."""
    __constants__ = ['dim']

    def __init__(self, dim=None):
        _check_softmax_dim(dim)
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, 'dim'):
            self.dim = None

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f'dim={self.dim}'
