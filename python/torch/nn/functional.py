"""torch.nn.functional: the functions behind the nn modules, as in PyTorch 2.15.

The losses and linear call the C++ kernels in torch._C._nn with PyTorch's
argument order; the reduction names map to ATen's enum (see _reduction.py).
__torch_function__ overrides are not consulted.
"""
import warnings

import torch
from . import _reduction as _Reduction

__all__ = ['linear', 'one_hot', 'relu', 'relu_', 'softmax', 'log_softmax', 'sigmoid', 'tanh',
           'mse_loss', 'cross_entropy', 'nll_loss']


def linear(input, weight, bias=None):
    r"""linear(input, weight, bias=None) -> Tensor: :math:`y = xA^T + b`."""
    return torch._C._nn.linear(input, weight, bias)


def relu(input, inplace=False):
    r"""relu(input, inplace=False) -> Tensor: max(0, x) element-wise."""
    if inplace:
        return torch.relu_(input)
    return torch.relu(input)


def relu_(input):
    r"""relu_(input) -> Tensor: in-place :func:`relu`."""
    return torch.relu_(input)


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn("Implicit dimension choice for {} has been deprecated. "
                  "Change the call to include dim=X as an argument.".format(name),
                  stacklevel=stacklevel)
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    r"""Softmax along ``dim`` (input cast to ``dtype`` first when given)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.softmax(dim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    r"""log(softmax(x)) along ``dim``, computed stably."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.log_softmax(dim)
    return input.log_softmax(dim, dtype=dtype)


def tanh(input):
    r"""tanh(input) -> Tensor: input.tanh() (no longer deprecated in PyTorch 2)."""
    return input.tanh()


def sigmoid(input):
    r"""sigmoid(input) -> Tensor: input.sigmoid() (no longer deprecated in PyTorch 2)."""
    return input.sigmoid()


def mse_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    r"""Mean squared error of input and target, broadcast together (with PyTorch's warning
    when their sizes differ)."""
    if not (target.size() == input.size()):
        warnings.warn(
            "Using a target size ({}) that is different to the input size ({}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.".format(target.size(), input.size()),
            stacklevel=2)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    return torch._C._nn.mse_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction='mean', label_smoothing=0.0):
    r"""Cross entropy of logits ``input`` and class-index or class-probability ``target``."""
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    return torch._C._nn.cross_entropy_loss(input, target, weight, _Reduction.get_enum(reduction),
                                           ignore_index, label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100,
             reduce=None, reduction='mean'):
    r"""Negative log likelihood loss of log-probabilities ``input`` and class indices ``target``."""
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    return torch._C._nn.nll_loss_nd(input, target, weight, _Reduction.get_enum(reduction), ignore_index)


def one_hot(tensor, num_classes=-1):
    """torch.nn.functional.one_hot: PyTorch binds it straight to torch._C._nn.one_hot."""
    return torch._C._nn.one_hot(tensor, num_classes)
