"""Activation modules, as in PyTorch 2.15's torch/nn/modules/activation.py.

Each module calls the torch.nn.functional function PyTorch 2.15 calls, so values, gradients
and the autograd graph match. Softmin, Tanhshrink and Softsign are plain Python in 2.15's
functional ((-x).softmax(dim), x - x.tanh(), x / (x.abs() + 1)); those op sequences are
written out here while torch.nn.functional lacks them.

MultiheadAttention always takes PyTorch's math path (F.multi_head_attention_forward):
2.15's fused inference fast path (torch._native_multi_head_attention, taken in eval mode
without autograd for batch_first self-attention) is not in this runtime, so eval-mode results
may differ from PyTorch's in the last bits (the same function, rounded in another order).

Not here yet: RReLU, whose ATen operator (rrelu_with_noise) Inside PyTorch lacks.
"""
import warnings

import torch
from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ['ReLU', 'Hardtanh', 'ReLU6', 'Sigmoid', 'Tanh', 'ELU', 'SELU', 'GELU', 'LeakyReLU',
           'LogSigmoid', 'Softsign', 'Tanhshrink', 'Softmin', 'Softmax', 'Softmax2d', 'LogSoftmax', 'MultiheadAttention',
           'Threshold', 'Hardsigmoid', 'SiLU', 'Mish', 'Hardswish', 'CELU', 'GLU', 'Hardshrink', 'Softplus',
           'Softshrink', 'PReLU']


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


class MultiheadAttention(Module):
    r"""Multi-head attention ("Attention Is All You Need"):
    MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O with head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V).

    Args:
        embed_dim: total dimension of the model (split across the heads).
        num_heads: number of parallel heads; embed_dim must be divisible by it.
        dropout: dropout probability on the attention weights. Default: 0.0
        bias: whether the in- and out-projections have biases. Default: True
        add_bias_kv: whether a learnt bias is appended to the key and value sequences. Default: False
        add_zero_attn: whether a zero key and value are appended to the sequences. Default: False
        kdim, vdim: feature sizes of key and value (default: embed_dim); when either differs,
            the projections are q_proj_weight / k_proj_weight / v_proj_weight instead of the
            packed in_proj_weight.
        batch_first: whether batched input and output are (N, L, E) instead of (L, N, E). Default: False

    forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False) returns (attn_output, attn_output_weights); see
    torch.nn.functional.multi_head_attention_forward for the shapes.

    The parameters start as in PyTorch 2.15 (xavier_uniform_ projections, zero biases,
    xavier_normal_ bias_k / bias_v, out_proj's weight as a Linear's), so they are PyTorch's
    after the same manual_seed. There is no fused fast path: see this module's docstring.
    """
    __constants__ = ['batch_first']

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0,"
                             f" got embed_dim={embed_dim} and num_heads={num_heads} instead")
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim

        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")

        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), **factory_kwargs))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), **factory_kwargs))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), **factory_kwargs))
            self.register_parameter('in_proj_weight', None)
        else:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), **factory_kwargs))
            self.register_parameter('q_proj_weight', None)
            self.register_parameter('k_proj_weight', None)
            self.register_parameter('v_proj_weight', None)

        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, **factory_kwargs))
        else:
            self.register_parameter('in_proj_bias', None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory_kwargs)

        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), **factory_kwargs))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), **factory_kwargs))
        else:
            self.bias_k = self.bias_v = None

        self.add_zero_attn = add_zero_attn

        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)

        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def __setstate__(self, state):
        # MultiheadAttention checkpoints of PyTorch 1.1 lack _qkv_same_embed_dim.
        if '_qkv_same_embed_dim' not in state:
            state['_qkv_same_embed_dim'] = True
        super().__setstate__(state)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        is_batched = query.dim() == 3

        # The masks are checked (and bool ones made float) here as in PyTorch, which does it
        # before deciding on its fast path; multi_head_attention_forward sees float masks.
        key_padding_mask = F._canonical_mask(mask=key_padding_mask, mask_name="key_padding_mask",
                                             other_type=F._none_or_dtype(attn_mask), other_name="attn_mask",
                                             target_type=query.dtype)
        attn_mask = F._canonical_mask(mask=attn_mask, mask_name="attn_mask", other_type=None, other_name="",
                                      target_type=query.dtype, check_other=False)

        if any(getattr(t, 'is_nested', False) for t in (query, key, value)):
            raise AssertionError("MultiheadAttention does not support NestedTensor outside of its fast path. "
                                 "The fast path was not hit because it is not implemented in this runtime")

        if self.batch_first and is_batched:
            # transposed so that the identities q is k is v (self-attention) survive
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))

        if not self._qkv_same_embed_dim:
            attn_output, attn_output_weights = F.multi_head_attention_forward(
                query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
                self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight,
                self.out_proj.bias, training=self.training, key_padding_mask=key_padding_mask,
                need_weights=need_weights, attn_mask=attn_mask, use_separate_proj_weight=True,
                q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
                v_proj_weight=self.v_proj_weight, average_attn_weights=average_attn_weights,
                is_causal=is_causal)
        else:
            attn_output, attn_output_weights = F.multi_head_attention_forward(
                query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
                self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight,
                self.out_proj.bias, training=self.training, key_padding_mask=key_padding_mask,
                need_weights=need_weights, attn_mask=attn_mask, average_attn_weights=average_attn_weights,
                is_causal=is_causal)
        if self.batch_first and is_batched:
            return attn_output.transpose(1, 0), attn_output_weights
        return attn_output, attn_output_weights

    def merge_masks(self, attn_mask, key_padding_mask, query):
        r"""The mask of PyTorch's fast path and its type: key_padding_mask alone (type 1), or
        attn_mask expanded to (N, num_heads, L, L), plus key_padding_mask if given (type 2);
        (None, None) without masks. query is (N, L, E)."""
        mask_type = None
        merged_mask = None
        if key_padding_mask is not None:
            mask_type = 1
            merged_mask = key_padding_mask
        if attn_mask is not None:
            batch_size, seq_len, _ = query.shape
            mask_type = 2
            if attn_mask.dim() == 3:
                attn_mask_expanded = attn_mask.view(batch_size, -1, seq_len, seq_len)
            else:
                attn_mask_expanded = attn_mask.view(1, 1, seq_len, seq_len).expand(batch_size, self.num_heads, -1, -1)
            merged_mask = attn_mask_expanded
            if key_padding_mask is not None:
                key_padding_mask_expanded = key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                    -1, self.num_heads, -1, -1)
                merged_mask = attn_mask_expanded + key_padding_mask_expanded
        return merged_mask, mask_type


def _inplace_repr(inplace):
    return 'inplace=True' if inplace else ''


class Threshold(Module):
    r"""value where x <= threshold, x elsewhere."""
    __constants__ = ['threshold', 'value', 'inplace']

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        inplace_str = ', inplace=True' if self.inplace else ''
        return f'threshold={self.threshold}, value={self.value}{inplace_str}'


class Hardsigmoid(Module):
    r"""min(max(x + 3, 0), 6) / 6."""
    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class SiLU(Module):
    r"""x * sigmoid(x)."""
    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class Mish(Module):
    r"""x * tanh(softplus(x))."""
    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class Hardswish(Module):
    r"""x * min(max(x + 3, 0), 6) / 6."""
    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class CELU(Module):
    r"""max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    __constants__ = ['alpha', 'inplace']

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        inplace_str = ', inplace=True' if self.inplace else ''
        return f'alpha={self.alpha}{inplace_str}'


class GLU(Module):
    r"""a * sigmoid(b) of the input's two halves along dim."""
    __constants__ = ['dim']

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class Hardshrink(Module):
    r"""0 inside [-lambd, lambd], x elsewhere."""
    __constants__ = ['lambd']

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f'{self.lambd}'


class Softplus(Module):
    r"""log(1 + exp(beta * x)) / beta, x where beta * x > threshold."""
    __constants__ = ['beta', 'threshold']

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f'beta={self.beta}, threshold={self.threshold}'


class Softshrink(Module):
    r"""x - lambd above lambd, x + lambd below -lambd, 0 between."""
    __constants__ = ['lambd']

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class PReLU(Module):
    r"""x for x > 0, a * x otherwise, with a learnt a (one, or one per channel)."""
    __constants__ = ['num_parameters']

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(torch.empty(num_parameters, **factory_kwargs))
        self.reset_parameters()

    def reset_parameters(self):
        constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f'num_parameters={self.num_parameters}'
