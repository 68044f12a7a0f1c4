"""torch.nn.Transformer, TransformerEncoder, TransformerDecoder, TransformerEncoderLayer and
TransformerDecoderLayer, as in PyTorch 2.15's torch/nn/modules/transformer.py.

The layers are built, initialised and called in PyTorch's order (so parameters after
manual_seed and dropout's random draws in training are PyTorch's), and compute with PyTorch's
math path: MultiheadAttention over F.multi_head_attention_forward, Linear, Dropout and
LayerNorm.

Not here: PyTorch's fused inference paths, taken in eval mode without autograd
(torch._transformer_encoder_layer_fwd for a batch_first TransformerEncoderLayer, and
TransformerEncoder's nested-tensor path, which drops the padded positions given by
src_key_padding_mask). They compute the same function in another order, so eval-mode values
may differ from PyTorch's in the last bits. What the nested-tensor path changes visibly is
reproduced densely where PyTorch would take it: zeros at the padded positions of
TransformerEncoder's output before its final norm, and, with mask_check=False, the padding
taken as left aligned (each sequence keeps as many leading positions as its mask keeps).
enable_nested_tensor is accepted, and the constructor warns as PyTorch does when the path
cannot be used.
"""
import copy
import warnings

import torch
from .. import functional as F
from ..init import xavier_uniform_
from .activation import GELU, MultiheadAttention, ReLU
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ['Transformer', 'TransformerEncoder', 'TransformerDecoder', 'TransformerEncoderLayer',
           'TransformerDecoderLayer']


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    r"""A (sz, sz) float mask: -inf above the diagonal, 0.0 on and below it."""
    return torch.triu(torch.full((sz, sz), float('-inf'), dtype=dtype, device=device), diagonal=1)


def _get_seq_len(src, batch_first):
    if getattr(src, 'is_nested', False):
        return None
    src_size = src.size()
    if len(src_size) == 2:
        return src_size[0]  # unbatched: S, E
    return src_size[1 if batch_first else 0]  # (N, S, E) or (S, N, E)


def _get_clones(module, N):
    return ModuleList([copy.deepcopy(module) for i in range(N)])


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    elif activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _detect_is_causal_mask(mask, is_causal=None, size=None):
    r"""is_causal when given; otherwise whether mask equals the causal mask of its size."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal_comparison = _generate_square_subsequent_mask(sz, device=mask.device, dtype=mask.dtype)
        # compared by broadcasting rather than torch.equal, for batched masks
        if mask.size() == causal_comparison.size():
            make_causal = bool((mask == causal_comparison).all())
        else:
            make_causal = False
    return make_causal


def _grad_free(tensors):
    return not torch.is_grad_enabled() or not any(t is not None and t.requires_grad for t in tensors)


def _left_aligned_padding(not_padded):
    # The (N, S) padding of the nested tensor torch._nested_tensor_from_mask makes of a mask that
    # is True where kept: each row keeps its first (number of True) positions.
    lengths = not_padded.to(torch.int64).sum(dim=1, keepdim=True)
    positions = torch.arange(not_padded.size(1), device=not_padded.device).unsqueeze(0)
    return positions >= lengths


class Transformer(Module):
    r"""The encoder-decoder Transformer of "Attention Is All You Need".

    Args:
        d_model: features of the encoder / decoder inputs. Default: 512
        nhead: heads of each attention. Default: 8
        num_encoder_layers, num_decoder_layers: layers of each stack. Default: 6
        dim_feedforward: width of the feed-forward networks. Default: 2048
        dropout: dropout probability. Default: 0.1
        activation: of the feed-forward networks, "relu", "gelu" or a callable. Default: F.relu
        custom_encoder, custom_decoder: used instead of the built stacks when given.
        layer_norm_eps: eps of the layer norms. Default: 1e-5
        batch_first: (N, S, E) inputs and output instead of (S, N, E). Default: False
        norm_first: layer norm before attention and feed-forward (pre-LN). Default: False
        bias: whether Linear and LayerNorm layers have biases. Default: True

    Every parameter with more than one dimension is re-initialised with xavier_uniform_
    after construction, in parameters() order, as in PyTorch.
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()

        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **factory_kwargs)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)

        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **factory_kwargs)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)

        self._reset_parameters()

        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        r"""The decoder's output for tgt, attending to the encoding of src.

        src (S, N, E), tgt (T, N, E) ((N, S, E), (N, T, E) when batch_first; (S, E), (T, E)
        unbatched); src_mask (S, S) or (N * nhead, S, S), tgt_mask (T, T) or (N * nhead, T, T),
        memory_mask (T, S); the key padding masks (N, S), (N, T), (N, S). The *_is_causal flags
        are hints that the matching mask is causal. The output has tgt's shape.
        """
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        elif self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")

        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")

        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        output = self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                              tgt_key_padding_mask=tgt_key_padding_mask,
                              memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                              memory_is_causal=memory_is_causal)
        return output

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        r"""A causal mask for a sequence of sz: -inf above the diagonal, 0.0 elsewhere."""
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)


class TransformerEncoder(Module):
    r"""num_layers copies of encoder_layer (deep copies, so equal at first), then norm if given.

    Args:
        encoder_layer: a TransformerEncoderLayer (required).
        num_layers: number of layers (required).
        norm: final layer normalization (optional).
        enable_nested_tensor: whether PyTorch may use its nested-tensor path in inference
            (see this module's docstring). Default: True
        mask_check: whether the padding mask is checked to be left aligned first. Default: True
    """
    __constants__ = ['norm']

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        # enable_nested_tensor keeps the value given; use_nested_tensor whether the path is used
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

        enc_layer = "encoder_layer"
        why_not_sparsity_fast_path = ""
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            why_not_sparsity_fast_path = f"{enc_layer} was not TransformerEncoderLayer"
        elif encoder_layer.norm_first:
            why_not_sparsity_fast_path = f"{enc_layer}.norm_first was True"
        elif not encoder_layer.self_attn.batch_first:
            why_not_sparsity_fast_path = (f"{enc_layer}.self_attn.batch_first was not True"
                                          + "(use batch_first for better inference performance)")
        elif not encoder_layer.self_attn._qkv_same_embed_dim:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn._qkv_same_embed_dim was not True"
        elif encoder_layer.self_attn.in_proj_bias is None:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn was passed bias=False"
        elif not encoder_layer.activation_relu_or_gelu:
            why_not_sparsity_fast_path = f"{enc_layer}.activation_relu_or_gelu was not True"
        elif encoder_layer.norm1.eps != encoder_layer.norm2.eps:
            why_not_sparsity_fast_path = f"{enc_layer}.norm1.eps was not equal to {enc_layer}.norm2.eps"
        elif encoder_layer.self_attn.num_heads % 2 == 1:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn.num_heads is odd"

        if enable_nested_tensor and why_not_sparsity_fast_path:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False because "
                          f"{why_not_sparsity_fast_path}", stacklevel=2)
            self.use_nested_tensor = False

    def _nested_path_mask(self, src, mask, src_key_padding_mask):
        # The padding PyTorch's nested-tensor path would drop ((N, S), True where padded), or
        # None where PyTorch computes densely; the conditions are PyTorch's, in its order.
        first_layer = self.layers[0]
        if (not getattr(self, 'use_nested_tensor', False) or first_layer.training or src.dim() != 3
                or src_key_padding_mask is None):
            return None
        not_padded = src_key_padding_mask.logical_not()
        padded = _left_aligned_padding(not_padded)
        if getattr(self, 'mask_check', True) and not bool((padded == not_padded.logical_not()).all()):
            return None  # not left aligned
        if getattr(src, 'is_nested', False) or mask is not None or torch.is_autocast_enabled():
            return None
        sa = first_layer.self_attn
        tensor_args = (src, sa.in_proj_weight, sa.in_proj_bias, sa.out_proj.weight, sa.out_proj.bias,
                       first_layer.norm1.weight, first_layer.norm1.bias, first_layer.norm2.weight,
                       first_layer.norm2.bias, first_layer.linear1.weight, first_layer.linear1.bias,
                       first_layer.linear2.weight, first_layer.linear2.bias)
        if not _grad_free(tensor_args):
            return None
        return padded

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        r"""src through the layers in turn, then the final norm.

        src (S, N, E), (N, S, E) when batch_first, or (S, E); mask (S, S) or (N * nhead, S, S);
        src_key_padding_mask (N, S) or (S). is_causal=None detects a causal mask.
        """
        src_key_padding_mask = F._canonical_mask(mask=src_key_padding_mask, mask_name="src_key_padding_mask",
                                                 other_type=F._none_or_dtype(mask), other_name="mask",
                                                 target_type=src.dtype)
        mask = F._canonical_mask(mask=mask, mask_name="mask", other_type=None, other_name="",
                                 target_type=src.dtype, check_other=False)

        output = src
        first_layer = self.layers[0]
        batch_first = first_layer.self_attn.batch_first
        # Where PyTorch would run the layers on a nested tensor of the kept positions, they run
        # densely with those positions as padding, and the padding is zeroed afterwards.
        padded = self._nested_path_mask(src, mask, src_key_padding_mask)
        src_key_padding_mask_for_layers = src_key_padding_mask if padded is None else padded

        seq_len = _get_seq_len(src, batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)

        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal,
                         src_key_padding_mask=src_key_padding_mask_for_layers)

        if padded is not None:
            # PyTorch pads its nested result back with zeros
            output = output.masked_fill(padded.unsqueeze(-1), 0.0)

        if self.norm is not None:
            output = self.norm(output)

        return output


class TransformerDecoder(Module):
    r"""num_layers copies of decoder_layer (deep copies, so equal at first), then norm if given."""
    __constants__ = ['norm']

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        r"""tgt through the layers in turn, each attending to memory, then the final norm.
        tgt_is_causal=None detects a causal tgt_mask."""
        output = tgt

        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)

        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

        if self.norm is not None:
            output = self.norm(output)

        return output


class TransformerEncoderLayer(Module):
    r"""Self-attention and a feed-forward network, each with dropout, a residual connection and
    layer norm (after the residual sum, or before the block when norm_first).

    Args: d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu ("relu",
    "gelu" or a callable), layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True.
    """
    __constants__ = ['norm_first']

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            **factory_kwargs)
        # the feed-forward network
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)

        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)

        if isinstance(activation, str):
            activation = _get_activation_fn(activation)

        # which fused activation PyTorch's fast path would use: 1 relu, 2 gelu, 0 neither
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, 'activation'):
            self.activation = F.relu

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        r"""src (S, N, E), (N, S, E) when batch_first, or (S, E); src_mask (S, S) or
        (N * nhead, S, S); src_key_padding_mask (N, S) or (S); is_causal: a hint that src_mask
        is causal."""
        src_key_padding_mask = F._canonical_mask(mask=src_key_padding_mask, mask_name="src_key_padding_mask",
                                                 other_type=F._none_or_dtype(src_mask), other_name="src_mask",
                                                 target_type=src.dtype)
        src_mask = F._canonical_mask(mask=src_mask, mask_name="src_mask", other_type=None, other_name="",
                                     target_type=src.dtype, check_other=False)

        # see Fig. 1 of https://arxiv.org/pdf/2002.04745v1.pdf
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    r"""Self-attention, attention to the encoder's memory and a feed-forward network, each with
    dropout, a residual connection and layer norm (after the sum, or before when norm_first).

    Args: d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu ("relu",
    "gelu" or a callable), layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True.
    """
    __constants__ = ['norm_first']

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                            **factory_kwargs)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 bias=bias, **factory_kwargs)
        # the feed-forward network
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)

        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)

        if isinstance(activation, str):
            self.activation = _get_activation_fn(activation)
        else:
            self.activation = activation

    def __setstate__(self, state):
        if 'activation' not in state:
            state['activation'] = F.relu
        super().__setstate__(state)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        r"""tgt (T, N, E), (N, T, E) when batch_first, or (T, E), attending to memory (S, N, E)
        (resp. (N, S, E), (S, E)); tgt_mask (T, T) or (N * nhead, T, T), memory_mask (T, S);
        the key padding masks (N, T) and (N, S); the *_is_causal flags are hints that the
        matching mask is causal."""
        # see Fig. 1 of https://arxiv.org/pdf/2002.04745v1.pdf
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)
