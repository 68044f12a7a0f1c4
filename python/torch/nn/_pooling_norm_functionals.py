"""torch.nn.functional's local_response_norm and lp_pool1d/2d/3d, which PyTorch 2.15 writes in
Python over pad, avg_pool*, max_pool*, pow, sign, abs and relu (torch/nn/functional.py); the
same operators in the same order, so values, gradients and graphs are PyTorch's. Also
adaptive_max_pool1d/2d/3d (and their _with_indices forms) over the ATen operators."""
import torch
from .functional import (pad, relu, avg_pool1d, avg_pool2d, avg_pool3d, max_pool1d, max_pool2d,
                         max_pool3d, _boolean_dispatch, _list_with_default, _pair)

__all__ = ['local_response_norm', 'lp_pool1d', 'lp_pool2d', 'lp_pool3d', 'adaptive_max_pool1d', 'adaptive_max_pool2d',
           'adaptive_max_pool3d', 'adaptive_max_pool1d_with_indices', 'adaptive_max_pool2d_with_indices',
           'adaptive_max_pool3d_with_indices']


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


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    r"""1-D max pooling to ``output_size`` positions, with the maxima's indices."""
    return torch.adaptive_max_pool1d(input, output_size)


def _adaptive_max_pool1d(input, output_size, return_indices=False):
    return adaptive_max_pool1d_with_indices(input, output_size)[0]


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    r"""2-D max pooling to ``output_size`` (None keeps the input's size there), with the indices."""
    return torch._C._nn.adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))


def _adaptive_max_pool2d(input, output_size, return_indices=False):
    return adaptive_max_pool2d_with_indices(input, output_size)[0]


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    r"""3-D max pooling to ``output_size`` (None keeps the input's size there), with the indices."""
    return torch._C._nn.adaptive_max_pool3d(input, _list_with_default(output_size, input.size()))


def _adaptive_max_pool3d(input, output_size, return_indices=False):
    return adaptive_max_pool3d_with_indices(input, output_size)[0]


adaptive_max_pool1d = _boolean_dispatch("return_indices", 2, False, adaptive_max_pool1d_with_indices,
                                        _adaptive_max_pool1d, "adaptive_max_pool1d")
adaptive_max_pool2d = _boolean_dispatch("return_indices", 2, False, adaptive_max_pool2d_with_indices,
                                        _adaptive_max_pool2d, "adaptive_max_pool2d")
adaptive_max_pool3d = _boolean_dispatch("return_indices", 2, False, adaptive_max_pool3d_with_indices,
                                        _adaptive_max_pool3d, "adaptive_max_pool3d")
