"""torch.nn.functional's local_response_norm and lp_pool1d/2d/3d, which PyTorch 2.15 writes in
Python over pad, avg_pool*, max_pool*, pow, sign, abs and relu (torch/nn/functional.py); the
same operators in the same order, so values, gradients and graphs are PyTorch's."""
import torch
from .functional import (pad, relu, avg_pool1d, avg_pool2d, avg_pool3d, max_pool1d, max_pool2d,
                         max_pool3d)

__all__ = ['local_response_norm', 'lp_pool1d', 'lp_pool2d', 'lp_pool3d']


def _pair(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x, x)


def _triple(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x, x, x)


def _check_norm_type(norm_type):
    if norm_type == 0:
        raise ValueError(f"norm_type must be a non-zero value, but got {norm_type}")


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    r"""3-D power-average pooling: (sum over each window of x^p)^(1/p)."""
    kd, kw, kh = _triple(kernel_size)
    if isinstance(norm_type, (int, float)):
        _check_norm_type(norm_type)
        if norm_type == float("inf"):
            return max_pool3d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool3d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool3d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * relu(torch.abs(out))).mul(kd * kw * kh).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    r"""2-D power-average pooling: (sum over each window of x^p)^(1/p)."""
    kw, kh = _pair(kernel_size)
    if isinstance(norm_type, (int, float)):
        _check_norm_type(norm_type)
        if norm_type == float("inf"):
            return max_pool2d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool2d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    r"""1-D power-average pooling: (sum over each window of x^p)^(1/p)."""
    if isinstance(norm_type, (int, float)):
        _check_norm_type(norm_type)
        if norm_type == float("inf"):
            return max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    r"""Local response normalization over channels (dim 1): x / (k + alpha * mean of x^2 over
    ``size`` neighbouring channels)^beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div
