"""torch.nn.functional: the functions behind the nn modules, as in PyTorch 2.15.

The losses and linear call the C++ kernels in torch._C._nn with PyTorch's
argument order; the reduction names map to ATen's enum (see _reduction.py).
__torch_function__ overrides are not consulted.
"""
import warnings

import torch
from . import _reduction as _Reduction

__all__ = ['linear', 'one_hot', 'relu', 'relu_', 'softmax', 'log_softmax', 'sigmoid', 'tanh',
           'mse_loss', 'cross_entropy', 'nll_loss', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d',
           'conv_transpose2d', 'conv_transpose3d', 'pad', 'layer_norm', 'gelu', 'elu', 'elu_', 'selu',
           'leaky_relu', 'leaky_relu_', 'hardtanh', 'hardtanh_', 'relu6', 'dropout', 'dropout1d',
           'dropout2d', 'dropout3d', 'alpha_dropout', 'feature_alpha_dropout', 'embedding', 'max_pool1d',
           'max_pool2d', 'max_pool3d', 'max_pool1d_with_indices', 'max_pool2d_with_indices',
           'max_pool3d_with_indices', 'avg_pool1d', 'avg_pool2d', 'avg_pool3d', 'adaptive_avg_pool1d',
           'adaptive_avg_pool2d', 'adaptive_avg_pool3d', 'batch_norm', 'group_norm']

# The convolutions are the torch.* builtins, as in PyTorch (conv2d -> convolution -> _convolution).
conv1d = torch.conv1d
conv2d = torch.conv2d
conv3d = torch.conv3d
conv_transpose1d = torch.conv_transpose1d
conv_transpose2d = torch.conv_transpose2d
conv_transpose3d = torch.conv_transpose3d


def pad(input, pad, mode="constant", value=None):
    r"""pad(input, pad, mode="constant", value=None) -> Tensor: pads the last len(pad) // 2 dims."""
    return torch._C._nn.pad(input, pad, mode, value)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    r"""Layer normalization over the last ``len(normalized_shape)`` dims."""
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, torch.backends.cudnn.enabled)


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


def gelu(input, approximate='none'):
    r"""gelu(input, approximate='none') -> Tensor: x * Phi(x), or its tanh approximation."""
    return torch._C._nn.gelu(input, approximate=approximate)


def elu(input, alpha=1.0, inplace=False):
    r"""Exponential linear unit: x for x > 0, alpha * (exp(x) - 1) otherwise."""
    if inplace:
        return torch._C._nn.elu_(input, alpha)
    return torch._C._nn.elu(input, alpha)


def elu_(input, alpha=1.0):
    r"""In-place :func:`elu`."""
    return torch._C._nn.elu_(input, alpha)


def selu(input, inplace=False):
    r"""Scaled exponential linear unit (elu with SELU's alpha and scale)."""
    if inplace:
        return torch.selu_(input)
    return torch.selu(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    r"""x for x > 0, negative_slope * x otherwise."""
    if inplace:
        return torch._C._nn.leaky_relu_(input, negative_slope)
    return torch._C._nn.leaky_relu(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    r"""In-place :func:`leaky_relu`."""
    return torch._C._nn.leaky_relu_(input, negative_slope)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    r"""x clamped to [min_val, max_val]."""
    if inplace:
        return torch._C._nn.hardtanh_(input, min_val, max_val)
    return torch._C._nn.hardtanh(input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    r"""In-place :func:`hardtanh`."""
    return torch._C._nn.hardtanh_(input, min_val, max_val)


def relu6(input, inplace=False):
    r"""min(max(0, x), 6): hardtanh(0, 6)."""
    if inplace:
        return torch._C._nn.relu6_(input)
    return torch._C._nn.relu6(input)


def _check_dropout_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    r"""Zeroes each element with probability p and scales the rest by 1 / (1 - p) (in training)."""
    _check_dropout_p(p)
    return torch.dropout_(input, p, training) if inplace else torch.dropout(input, p, training)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    r"""Dropout that keeps SELU's self-normalizing mean and variance."""
    _check_dropout_p(p)
    return torch.alpha_dropout_(input, p, training) if inplace else torch.alpha_dropout(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    r"""Alpha dropout of whole channels."""
    _check_dropout_p(p)
    return (torch.feature_alpha_dropout_(input, p, training) if inplace
            else torch.feature_alpha_dropout(input, p, training))


def _feature_dropout(input, p, training, inplace, batched):
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = torch.feature_dropout_(input, p, training) if inplace else torch.feature_dropout(input, p, training)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout1d(input, p=0.5, training=True, inplace=False):
    r"""Zeroes whole channels of a (N, C, L) or (C, L) input."""
    _check_dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {inp_dim}D input. "
                           "Note that dropout1d exists to provide channel-wise dropout on inputs with 1 "
                           "spatial dimension, a channel dimension, and an optional batch dimension "
                           "(i.e. 2D or 3D inputs).")
    return _feature_dropout(input, p, training, inplace, inp_dim == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    r"""Zeroes whole channels of a (N, C, H, W) or (C, H, W) input."""
    _check_dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout2d "
                      "exists to provide channel-wise dropout on inputs with 2 spatial dimensions, "
                      "a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
                      stacklevel=2)
    # A 3-D input is taken as (N, C, L), as in PyTorch (pytorch/pytorch#77081).
    if inp_dim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                      "1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
                      "is the channel dim. This behavior will change in a future release to interpret the "
                      "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
                      "channel-wise dropout behavior, please switch to using dropout1d instead.",
                      stacklevel=2)
    return torch.feature_dropout_(input, p, training) if inplace else torch.feature_dropout(input, p, training)


def dropout3d(input, p=0.5, training=True, inplace=False):
    r"""Zeroes whole channels of a (N, C, D, H, W) or (C, D, H, W) input."""
    _check_dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {inp_dim}-D input to dropout3d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout3d "
                      "exists to provide channel-wise dropout on inputs with 3 spatial dimensions, "
                      "a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
                      stacklevel=2)
    return _feature_dropout(input, p, training, inplace, inp_dim == 5)


def _no_grad_embedding_renorm_(weight, input, max_norm, norm_type):
    # The rows input names whose norm exceeds max_norm are scaled down to it, in place.
    with torch.no_grad():
        rows = input.reshape(-1).unique() if hasattr(input, "unique") else input.reshape(-1)
        for r in rows.tolist():
            norm = weight[r].norm(norm_type).item()
            if norm > max_norm:
                weight[r].mul_(max_norm / (norm + 1e-7))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    r"""The rows of ``weight`` that ``input``'s indices name."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


# ---- pooling (PyTorch's builtins, and its return_indices dispatch) ---------------------------
avg_pool1d = torch.avg_pool1d
avg_pool2d = torch._C._nn.avg_pool2d
avg_pool3d = torch._C._nn.avg_pool3d


def _stride_or_empty(stride):
    return [] if stride is None else stride


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    r"""1-D max pooling; the values and the index of each maximum."""
    return torch.max_pool1d_with_indices(input, kernel_size, _stride_or_empty(stride), padding, dilation, ceil_mode)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    r"""2-D max pooling; the values and the index of each maximum in its plane."""
    return torch._C._nn.max_pool2d_with_indices(input, kernel_size, _stride_or_empty(stride), padding, dilation,
                                                ceil_mode)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    r"""3-D max pooling; the values and the index of each maximum in its volume."""
    return torch._C._nn.max_pool3d_with_indices(input, kernel_size, _stride_or_empty(stride), padding, dilation,
                                                ceil_mode)


def _max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return torch.max_pool1d(input, kernel_size, _stride_or_empty(stride), padding, dilation, ceil_mode)


def _max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return torch.max_pool2d(input, kernel_size, _stride_or_empty(stride), padding, dilation, ceil_mode)


def _max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return torch.max_pool3d(input, kernel_size, _stride_or_empty(stride), padding, dilation, ceil_mode)


def _boolean_dispatch(arg_name, arg_index, default, if_true, if_false, func_name):
    # torch._jit_internal.boolean_dispatch: return_indices picks the function
    def fn(*args, **kwargs):
        flag = kwargs[arg_name] if arg_name in kwargs else (args[arg_index] if arg_index < len(args) else default)
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)
    fn.__name__ = func_name
    fn.__doc__ = if_true.__doc__
    return fn


max_pool1d = _boolean_dispatch("return_indices", 6, False, max_pool1d_with_indices, _max_pool1d, "max_pool1d")
max_pool2d = _boolean_dispatch("return_indices", 6, False, max_pool2d_with_indices, _max_pool2d, "max_pool2d")
max_pool3d = _boolean_dispatch("return_indices", 6, False, max_pool3d_with_indices, _max_pool3d, "max_pool3d")


def _list_with_default(out_size, defaults):
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def adaptive_avg_pool1d(input, output_size):
    r"""1-D average pooling to ``output_size`` positions."""
    return torch.adaptive_avg_pool1d(input, output_size)


def adaptive_avg_pool2d(input, output_size):
    r"""2-D average pooling to ``output_size`` (None keeps the input's size there)."""
    return torch._C._nn.adaptive_avg_pool2d(input, _list_with_default(output_size, input.size()))


def adaptive_avg_pool3d(input, output_size):
    r"""3-D average pooling to ``output_size`` (None keeps the input's size there)."""
    return torch._C._nn.adaptive_avg_pool3d(input, _list_with_default(output_size, input.size()))


def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    r"""Batch normalization per channel, with the batch's statistics (training) or the running ones."""
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
                            torch.backends.cudnn.enabled)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    r"""Group normalization: the channels split into num_groups, each group normalized per sample."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:]))
    return torch.group_norm(input, num_groups, weight, bias, eps, torch.backends.cudnn.enabled)

