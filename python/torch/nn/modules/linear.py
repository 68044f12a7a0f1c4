"""torch.nn.Linear (y = x A^T + b), torch.nn.Identity and NonDynamicallyQuantizableLinear."""
import math

import torch
from ..parameter import Parameter
from .. import functional as F
from .. import init
from .module import Module

__all__ = ['Identity', 'Linear']


class Identity(Module):
    r"""A placeholder that returns its input; constructor arguments are ignored."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    r"""Applies :math:`y = xA^T + b`.

    Args:
        in_features: size of each input sample
        out_features: size of each output sample
        bias: if False, the layer has no additive bias. Default: True

    weight has shape (out_features, in_features) and bias (out_features);
    both start uniform in (-1/sqrt(in_features), 1/sqrt(in_features)), drawn
    exactly as PyTorch 2.15 draws them (weight first, then bias).
    """
    __constants__ = ['in_features', 'out_features']

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        # kaiming_uniform_ with a=sqrt(5) is uniform(-1/sqrt(in), 1/sqrt(in))
        # (see https://github.com/pytorch/pytorch/issues/57109).
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return 'in_features={}, out_features={}, bias={}'.format(
            self.in_features, self.out_features, self.bias is not None)


class NonDynamicallyQuantizableLinear(Linear):
    r"""A Linear under another name (MultiheadAttention's out_proj), which PyTorch's dynamic
    quantization leaves alone; not in __all__, as in PyTorch."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias=bias, device=device, dtype=dtype)
