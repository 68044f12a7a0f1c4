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
           'adaptive_avg_pool2d', 'adaptive_avg_pool3d', 'adaptive_max_pool1d', 'adaptive_max_pool2d',
           'adaptive_max_pool3d', 'adaptive_max_pool1d_with_indices', 'adaptive_max_pool2d_with_indices',
           'adaptive_max_pool3d_with_indices', 'batch_norm', 'group_norm', 'interpolate',
           'upsample', 'upsample_nearest', 'upsample_bilinear', 'binary_cross_entropy',
           'binary_cross_entropy_with_logits', 'l1_loss', 'smooth_l1_loss', 'huber_loss', 'kl_div', 'normalize',
           'cosine_similarity', 'logsigmoid', 'scaled_dot_product_attention', 'multi_head_attention_forward',
           'silu', 'mish', 'softplus', 'hardsigmoid', 'hardswish', 'celu', 'celu_', 'glu', 'prelu', 'hardshrink',
           'softshrink', 'threshold', 'threshold_', 'pixel_shuffle', 'pixel_unshuffle',
           'local_response_norm', 'lp_pool1d', 'lp_pool2d', 'lp_pool3d']

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


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    r"""Softmax of -input along ``dim`` (input cast to ``dtype`` first when given)."""
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


def softsign(input):
    r"""input / (1 + |input|)."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    r"""input - tanh(input)."""
    return input - input.tanh()


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


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    r"""Each bag's rows of ``weight`` summed, averaged or maxed: the bags are the runs of a 1-D
    ``input`` between ``offsets``, or the rows of a 2-D ``input``."""
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. "
                      "Usage `embedding_bag(weight, input, ...)` is deprecated, "
                      "and should now be `embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
                         f"then it must have the same shape as the input ({input.shape})")
    if not weight.dim() == 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            type_str = "<unknown>"
            type_str = str(type(offsets))
            raise ValueError("if input is 2D, then offsets has to be None"
                             ", as input is treated is a mini-batch of"
                             " fixed length sequences. However, found "
                             f"offsets of type {type_str}")
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode == "sum":
        mode_enum = 0
    elif mode == "mean":
        mode_enum = 1
    elif mode == "max":
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. "
                                  "per_sample_weights is only supported for mode='sum' "
                                  f"(got mode='{mode}'). Please open a feature request on GitHub.")
    ret, _, _, _ = torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_enum, sparse,
                                       per_sample_weights, include_last_offset, padding_idx)
    return ret


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



def _interp_output_size(input, dim, size, scale_factor):
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {list(input.shape[2:])} and output size of {size}. Please provide input tensor in "
                    "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            return [int(s) for s in size], None
        return [int(size)] * dim, None
    if scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. Please "
                    "provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
                    "format.")
            return None, [float(s) for s in scale_factor]
        return None, [float(scale_factor)] * dim
    raise ValueError("either size or scale_factor should be defined")


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    r"""``input`` sampled at the normalized ``grid`` points (-1 and 1 the edges): nearest,
    bilinear or bicubic, with zeros, border or reflection padding (4-D input)."""
    if mode != "bilinear" and mode != "nearest" and mode != "bicubic":
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode != "zeros" and padding_mode != "border" and padding_mode != "reflection":
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    mode_enum = {"bilinear": 0, "nearest": 1, "bicubic": 2}[mode]
    padding_mode_enum = {"zeros": 0, "border": 1, "reflection": 2}[padding_mode]
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=2)
        align_corners = False
    return torch.grid_sampler(input, grid, mode_enum, padding_mode_enum, align_corners)


def affine_grid(theta, size, align_corners=None):
    r"""The sampling grid of a batch of affine matrices ``theta`` (N x 2 x 3) for an output of ``size``."""
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {theta.shape}.")
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {theta.shape}.")
        spatial_size = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial_size) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return torch.affine_grid_generator(theta, size, align_corners)


def _pair(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x, x)


def pdist(input, p=2):
    r"""The p-norm distance between every pair of rows of a 2-D input, the upper triangle of
    cdist(input, input) row by row: n * (n - 1) / 2 values."""
    return torch.pdist(input, p)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    r"""The sliding blocks of a batched (or single) image as columns: [N, C * prod(kernel_size), L]
    (im2col; Note [Sliding blocks])."""
    return torch._C._nn.im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    r"""The columns of sliding blocks summed back into an image of `output_size` (col2im; the
    reverse of unfold, adding where blocks overlap)."""
    return torch._C._nn.col2im(input, _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding),
                               _pair(stride))


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None, antialias=False):
    r"""Down/up samples the input to the given size or by scale_factor (nearest and bilinear on 4-D input)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    output_size, scale_factors = _interp_output_size(input, dim, size, scale_factor)
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        import math
        output_size = [math.floor(float(input.size(i + 2)) * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear and bicubic modes and requires a 4-D tensor as input")
    if input.dim() == 4 and mode in ("nearest", "bilinear") and not antialias:
        # upsample_*2d.vec: the sizes from the scale factors (truncated), which go along as the scales
        if mode == "nearest":
            return torch._C._nn.upsample_nearest2d(input, output_size, scale_factors=scale_factors)
        return torch._C._nn.upsample_bilinear2d(input, output_size, align_corners, scale_factors=scale_factors)
    if input.dim() == 3 and mode == "bilinear":
        raise NotImplementedError("Got 3D input, but bilinear mode needs 4D input")
    if input.dim() == 4 and mode == "linear":
        raise NotImplementedError("Got 4D input, but linear mode needs 3D input")
    if input.dim() == 5 and mode == "bilinear":
        raise NotImplementedError("Got 5D input, but bilinear mode needs 4D input")
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: nearest | "
        f"linear | bilinear | bicubic | trilinear | area | nearest-exact (got {mode}); this runtime has "
        "mode='nearest' and mode='bilinear' for 4D input so far")


def upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    r"""Deprecated: interpolate."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    r"""Deprecated: interpolate(..., mode='nearest')."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    r"""Deprecated: interpolate(..., mode='bilinear', align_corners=True)."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _size_warning(input, target):
    if target.size() != input.size():
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3)


def _weighted_reduction(loss, weight, reduction, mean):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return torch.sum(loss)
    if reduction == "mean":
        return mean(loss)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    r"""Binary cross entropy of probabilities ``input`` and ``target`` of the same size."""
    if size_average is not None or reduce is not None:
        reduction_enum = _Reduction.legacy_get_enum(size_average, reduce)
    else:
        reduction_enum = _Reduction.get_enum(reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) is "
            "deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(torch.broadcast_shapes(target.size(), weight.size()))
    return torch._C._nn.binary_cross_entropy(input, target, weight, reduction_enum)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    r"""Binary cross entropy of logits ``input`` (sigmoid applied inside) and ``target``."""
    if size_average is not None or reduce is not None:
        reduction_enum = _Reduction.legacy_get_enum(size_average, reduce)
    else:
        reduction_enum = _Reduction.get_enum(reduction)
    if not (target.size() == input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction_enum)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    r"""Mean absolute difference of input and target (optionally weighted)."""
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if weight is None:
        return torch._C._nn.l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    loss = torch.abs(expanded_input - expanded_target) * weight
    return _weighted_reduction(loss, weight, reduction, lambda l: torch.sum(l) / torch.sum(weight))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    r"""Squared difference below ``beta``, absolute difference above it."""
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if beta == 0.0:
        return torch._C._nn.l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))
    return torch._C._nn.smooth_l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction), beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    r"""Squared difference below ``delta``, delta times the absolute difference above it."""
    _size_warning(input, target)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if weight is None:
        return torch._C._nn.huber_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction), delta)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    loss = torch._C._nn.huber_loss(expanded_input, expanded_target, _Reduction.get_enum("none"), delta) * weight
    return _weighted_reduction(loss, weight, reduction, lambda l: l.mean())


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    r"""Kullback-Leibler divergence of log-probabilities ``input`` from ``target``."""
    if size_average is not None or reduce is not None:
        reduction_enum = _Reduction.legacy_get_enum(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                stacklevel=2)
        reduction_enum = _Reduction.get_enum("sum" if reduction == "batchmean" else reduction)
    reduced = torch.kl_div(input, target, reduction_enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    r"""input divided by its p-norm along ``dim`` (at least ``eps``)."""
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return torch.div(input, denom, out=out)


cosine_similarity = torch.cosine_similarity


def logsigmoid(input):
    r"""log(sigmoid(input)), element-wise."""
    return torch._C._nn.log_sigmoid(input)


# PyTorch 2.15's flash-attention kernel is not here: the math path always runs (Note [Attention's
# math path] in core/ops/attention_composite_kernels.cpp).
scaled_dot_product_attention = torch._C._nn.scaled_dot_product_attention
from ._activation_functionals import *  # noqa: E402,F401,F403  (silu, mish, softplus, ...)
from ._composite_losses import *  # noqa: E402,F401,F403  (the losses PyTorch writes as compositions)
from ._pooling_norm_functionals import *  # noqa: E402,F401,F403  (local_response_norm, lp_pool*, adaptive_max_pool*)
# multi_head_attention_forward and the helpers nn.MultiheadAttention / nn.Transformer* call as F._*.
from ._multi_head_attention import (multi_head_attention_forward, _in_projection_packed, _in_projection,  # noqa: E402,F401
                                   _mha_shape_check, _canonical_mask, _none_or_dtype)
