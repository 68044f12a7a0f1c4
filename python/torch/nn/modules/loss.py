"""Loss modules, as in PyTorch 2.15's torch/nn/modules/loss.py (through torch.nn.functional).

Where torch.nn.functional lacks the function a module needs, the op sequence PyTorch 2.15
runs is written out here, and only where that sequence is made of ops Inside PyTorch has:

* multilabel_soft_margin_loss and gaussian_nll_loss are plain Python in 2.15's functional;
* margin_ranking_loss, hinge_embedding_loss, cosine_embedding_loss, triplet_margin_loss (with
  pairwise_distance) and poisson_nll_loss are CompositeImplicitAutograd ATen functions
  (aten/src/ATen/native/Loss.cpp, Distance.cpp): the functional's checks are done in Python,
  then the ATen function's ops run in its order, so values, gradients and the autograd graph
  are those of PyTorch. As in ATen, ``s - t`` with a number ``s`` is
  ``empty_like(t).fill_(s).sub_(t)`` and ``s + t`` / ``s * t`` are ``t.add(s)`` / ``t.mul(s)``.

Not here yet, because their ATen kernels are missing from Inside PyTorch: SoftMarginLoss
(soft_margin_loss, with its own backward), MultiMarginLoss (multi_margin_loss),
MultiLabelMarginLoss (multilabel_margin_loss), CTCLoss (ctc_loss), and
TripletMarginWithDistanceLoss / NLLLoss2d / LinearCrossEntropyLoss.
"""
import math
import struct

import torch
from .module import Module
from .. import functional as F
from .. import _reduction as _Reduction

__all__ = ['L1Loss', 'NLLLoss', 'PoissonNLLLoss', 'GaussianNLLLoss', 'KLDivLoss', 'MSELoss', 'BCELoss',
           'BCEWithLogitsLoss', 'HingeEmbeddingLoss', 'SmoothL1Loss', 'HuberLoss', 'CrossEntropyLoss',
           'MultiLabelSoftMarginLoss', 'CosineEmbeddingLoss', 'MarginRankingLoss', 'TripletMarginLoss']


# ---------------------------------------------------------------- functional helpers

# ATen's Loss.cpp: constexpr float EPSILON = 1e-12 (so the float nearest 1e-12, widened).
_EPSILON = struct.unpack('f', struct.pack('f', 1e-12))[0]


def _reduction_enum(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _Reduction.legacy_get_enum(size_average, reduce)
    return _Reduction.get_enum(reduction)


def _apply_loss_reduction(unreduced, reduction_enum):
    # ATen's apply_loss_reduction (Loss.cpp).
    if reduction_enum == _Reduction.MEAN:
        return unreduced.mean()
    if reduction_enum == _Reduction.SUM:
        return unreduced.sum()
    return unreduced


def _scalar_minus(scalar, tensor):
    # ATen's operator-(const Scalar&, const Tensor&) (TensorOperators.h).
    return torch.empty_like(tensor).fill_(scalar).sub_(tensor)


def _margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                         reduction='mean'):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    # at::margin_ranking_loss
    output = (-target * (input1 - input2)).add(margin).clamp_min_(0)
    return _apply_loss_reduction(output, reduction_enum)


def _hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean'):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    # at::hinge_embedding_loss
    zeros = torch.zeros_like(input)
    margin_clamp = _scalar_minus(margin, input).clamp_min_(0)
    output_margin = torch.where(target != 1, margin_clamp, zeros)
    output_self = torch.where(target != -1, input, zeros)
    output = output_margin + output_self
    return _apply_loss_reduction(output, reduction_enum)


def _cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                           reduction='mean'):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    # at::cosine_embedding_loss
    targ_dim = target.dim()
    if targ_dim != 1 and targ_dim != 0:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1:
        if input1.dim() != 2 or input2.dim() != 2:
            raise RuntimeError(
                f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                f"{list(input1.size())} and {list(input2.size())}.")
    elif input1.dim() != 1 or input2.dim() != 1:
        raise RuntimeError(
            f"0D target tensor expects 1D input tensors, but found inputs with sizes "
            f"{list(input1.size())} and {list(input2.size())}.")
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = (input1 * input1).sum(targ_dim).add(_EPSILON)
    mag_square2 = (input2 * input2).sum(targ_dim).add(_EPSILON)
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = torch.zeros_like(cos)
    pos = _scalar_minus(1, cos)
    neg = cos.sub(margin).clamp_min_(0)
    output_pos = torch.where(target == 1, pos, zeros)
    output_neg = torch.where(target == -1, neg, zeros)
    output = output_pos + output_neg
    return _apply_loss_reduction(output, reduction_enum)


def _pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    # at::pairwise_distance (Distance.cpp): the norm over the innermost dim of x1 - x2 + eps.
    innermost_dim = max(x1.dim(), x2.dim()) - 1
    return torch._C._VariableFunctions.norm((x1 - x2).add(eps), p, [innermost_dim], keepdim)


def _triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                         size_average=None, reduce=None, reduction='mean'):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    # at::triplet_margin_loss
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(
            f"The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    dist_pos = _pairwise_distance(anchor, positive, p, eps)
    dist_neg = _pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_swap = _pairwise_distance(positive, negative, p, eps)
        dist_neg = torch.minimum(dist_neg, dist_swap)
    output = torch.clamp_min(dist_pos.add(margin) - dist_neg, 0)
    return _apply_loss_reduction(output, reduction_enum)


def _poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                      reduce=None, reduction='mean'):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + " is not a valid value for reduction")
    reduction_enum = _Reduction.get_enum(reduction)
    # at::poisson_nll_loss
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input.add(eps))
    if full:
        stirling_term = (target * torch.log(target) - target
                         + torch.log(target.mul(2 * math.pi)).mul(0.5))
        loss += stirling_term.masked_fill(target <= 1, 0)
    return _apply_loss_reduction(loss, reduction_enum)


def _gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
    # PyTorch 2.15's F.gaussian_nll_loss (Python there too).
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * torch.ones_like(input)
    elif torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            # homoscedastic, one dim short: a trailing dim of 1 broadcasts
            var = torch.unsqueeze(var, -1)
        elif input.ndim == var.ndim and sum(
                y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass  # homoscedastic: one mismatched dim (of size 1) broadcasts
        else:
            raise ValueError("var is of incorrect size")
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


def _multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                 reduction='mean'):
    # PyTorch 2.15's F.multilabel_soft_margin_loss (Python there too).
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    num_classes = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / num_classes
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError(reduction + " is not valid")


# ---------------------------------------------------------------- modules

class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _Reduction.legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)


class L1Loss(_Loss):
    r"""Mean absolute error between input and target (reduction 'mean', 'sum' or 'none')."""
    __constants__ = ['reduction']

    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    r"""Negative log likelihood loss of log-probabilities and class-index targets."""
    __constants__ = ['ignore_index', 'reduction']

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    r"""Negative log likelihood of a Poisson-distributed target (input: the log rate, or the rate
    when ``log_input=False``), with the Stirling term when ``full=True``."""
    __constants__ = ['log_input', 'full', 'eps', 'reduction']

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                 reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return _poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                 eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    r"""Negative log likelihood of a Gaussian target with mean ``input`` and variance ``var``."""
    __constants__ = ['full', 'eps', 'reduction']

    def __init__(self, *, full=False, eps=1e-6, reduction='mean'):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return _gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class KLDivLoss(_Loss):
    r"""Kullback-Leibler divergence of log-probabilities ``input`` from ``target``."""
    __constants__ = ['reduction']

    def __init__(self, size_average=None, reduce=None, reduction='mean', log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MSELoss(_Loss):
    r"""Mean squared error between input and target (reduction 'mean', 'sum' or 'none')."""
    __constants__ = ['reduction']

    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class BCELoss(_WeightedLoss):
    r"""Binary cross entropy of probabilities and targets (``weight`` rescales each element)."""
    __constants__ = ['reduction']

    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    r"""Sigmoid and binary cross entropy in one stable step; ``pos_weight`` weighs the positives."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)
        self.register_buffer('pos_weight', pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    r"""x where y == 1, max(0, margin - x) where y == -1."""
    __constants__ = ['margin', 'reduction']

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return _hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    r"""Squared error (halved, over beta) below ``beta``, absolute error minus beta / 2 above."""
    __constants__ = ['reduction']

    def __init__(self, size_average=None, reduce=None, reduction='mean', beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    r"""Squared error (halved) below ``delta``, delta * (|error| - delta / 2) above."""
    __constants__ = ['reduction', 'delta']

    def __init__(self, reduction='mean', delta=1.0):
        if not isinstance(delta, (float, int)):
            raise TypeError(f"delta must be a float or int, got: {type(delta)}")
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class CrossEntropyLoss(_WeightedLoss):
    r"""Cross entropy between logits and class-index (or class-probability) targets."""
    __constants__ = ['ignore_index', 'reduction', 'label_smoothing']

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction='mean', label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    r"""Per-class logistic loss averaged over the classes (``weight``: one per class)."""
    __constants__ = ['reduction']

    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)

    def forward(self, input, target):
        return _multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    r"""1 - cos(x1, x2) where y == 1, max(0, cos(x1, x2) - margin) where y == -1."""
    __constants__ = ['margin', 'reduction']

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return _cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class MarginRankingLoss(_Loss):
    r"""max(0, -y * (x1 - x2) + margin)."""
    __constants__ = ['margin', 'reduction']

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return _margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    r"""max(d(a, p) - d(a, n) + margin, 0) with the pairwise p-norm distance d."""
    __constants__ = ['margin', 'p', 'eps', 'swap', 'reduction']

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None,
                 reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return _triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                    eps=self.eps, swap=self.swap, reduction=self.reduction)
