"""torch.nn.functional's activations over the ATen operators silu, mish, softplus, hardsigmoid,
hardswish, celu, glu, prelu, hardshrink, softshrink and threshold, and pixel_shuffle /
pixel_unshuffle, as PyTorch 2.15's functional calls them (torch._C._nn.* for the nn module's
operators, torch.* for the others)."""
import torch

__all__ = ['silu', 'mish', 'softplus', 'hardsigmoid', 'hardswish', 'celu', 'celu_', 'glu', 'prelu', 'hardshrink',
           'softshrink', 'threshold', 'threshold_', 'pixel_shuffle', 'pixel_unshuffle']


def silu(input, inplace=False):
    r"""x * sigmoid(x), the sigmoid linear unit."""
    if inplace:
        return torch._C._nn.silu_(input)
    return torch._C._nn.silu(input)


def mish(input, inplace=False):
    r"""x * tanh(softplus(x))."""
    if inplace:
        return torch._C._nn.mish_(input)
    return torch._C._nn.mish(input)


def hardsigmoid(input, inplace=False):
    r"""min(max(x + 3, 0), 6) / 6."""
    if inplace:
        return torch._C._nn.hardsigmoid_(input)
    return torch._C._nn.hardsigmoid(input)


def hardswish(input, inplace=False):
    r"""x * min(max(x + 3, 0), 6) / 6."""
    if inplace:
        return torch._C._nn.hardswish_(input)
    return torch._C._nn.hardswish(input)


def celu(input, alpha=1.0, inplace=False):
    r"""max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if inplace:
        return torch.celu_(input, alpha)
    return torch.celu(input, alpha)


def celu_(input, alpha=1.0):
    r"""In-place :func:`celu`."""
    return torch.celu_(input, alpha)


def glu(input, dim=-1):
    r"""a * sigmoid(b) of input's two halves a and b along dim."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return torch._C._nn.glu(input, dim)


def threshold(input, threshold, value, inplace=False):
    r"""value where input <= threshold, input elsewhere."""
    if inplace:
        return torch.threshold_(input, threshold, value)
    return torch.threshold(input, threshold, value)


def threshold_(input, threshold, value):
    r"""In-place :func:`threshold`."""
    return torch.threshold_(input, threshold, value)


softplus = torch._C._nn.softplus
softshrink = torch._C._nn.softshrink
hardshrink = torch.hardshrink
prelu = torch.prelu
pixel_shuffle = torch.pixel_shuffle
pixel_unshuffle = torch.pixel_unshuffle
