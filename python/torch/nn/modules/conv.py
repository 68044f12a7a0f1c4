"""Convolution layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d (PyTorch's torch.nn.modules.conv),
with PyTorch's checks, default initialisation (the same draws, so the same weights after
manual_seed), padding modes and printed form."""
import math

import torch
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module
from .utils import _pair, _reverse_repeat_tuple, _single, _triple

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


class _ConvNd(Module):
    __constants__ = ["stride", "padding", "dilation", "groups", "padding_mode", "output_padding", "in_channels",
                     "out_channels", "kernel_size"]

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding,
                 groups, bias, padding_mode, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's padding for the non-zero padding modes: the last dim first, each side
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    self._reversed_padding_repeated_twice[2 * i] = total // 2
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - total // 2
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(torch.empty(shape, **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        # uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)) for both, drawn weight first (kaiming_uniform_ with a=sqrt(5))
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)


def _conv_class(n, expand):
    class ConvNd(_ConvNd):
        def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                     bias=True, padding_mode="zeros", device=None, dtype=None):
            super().__init__(in_channels, out_channels, expand(kernel_size), expand(stride),
                             padding if isinstance(padding, str) else expand(padding), expand(dilation), False,
                             expand(0), groups, bias, padding_mode, device=device, dtype=dtype)

        def _conv_forward(self, input, weight, bias):
            if self.padding_mode != "zeros":
                return _CONV[n](F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), weight,
                                bias, self.stride, expand(0), self.dilation, self.groups)
            return _CONV[n](input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

        def forward(self, input):
            return self._conv_forward(input, self.weight, self.bias)

    ConvNd.__name__ = ConvNd.__qualname__ = f"Conv{n}d"
    return ConvNd


Conv1d = _conv_class(1, _single)
Conv2d = _conv_class(2, _pair)
Conv3d = _conv_class(3, _triple)


class _ConvTransposeNd(_ConvNd):
    def _output_padding(self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None):
        if output_size is None:
            return _single(self.output_padding)
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have "
                             f"{num_spatial_dims} or {num_non_spatial_dims + num_spatial_dims} elements "
                             f"(got {len(output_size)})")
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = ((input.size(d + num_non_spatial_dims) - 1) * stride[d] - 2 * padding[d]
                        + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1)
            min_sizes.append(dim_size)
            max_sizes.append(min_sizes[d] + stride[d] - 1)
        for i in range(len(output_size)):
            size, min_size, max_size = output_size[i], min_sizes[i], max_sizes[i]
            if size < min_size or size > max_size:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {min_sizes} "
                                 f"to {max_sizes} (for an input of {input.size()[2:]})")
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]


def _conv_transpose_class(n, expand):
    class ConvTransposeNd(_ConvTransposeNd):
        def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                     bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
            if padding_mode != "zeros":
                raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
            super().__init__(in_channels, out_channels, expand(kernel_size), expand(stride), expand(padding),
                             expand(dilation), True, expand(output_padding), groups, bias, padding_mode,
                             device=device, dtype=dtype)

        def forward(self, input, output_size=None):
            if self.padding_mode != "zeros":
                raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
            output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, n,
                                                  self.dilation)
            return _CONV_T[n](input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups,
                              self.dilation)

    ConvTransposeNd.__name__ = ConvTransposeNd.__qualname__ = f"ConvTranspose{n}d"
    return ConvTransposeNd


ConvTranspose1d = _conv_transpose_class(1, _single)
ConvTranspose2d = _conv_transpose_class(2, _pair)
ConvTranspose3d = _conv_transpose_class(3, _triple)
