"""The losses PyTorch 2.15 writes as compositions (torch.nn.functional's margin_ranking_loss,
hinge_embedding_loss, cosine_embedding_loss, pairwise_distance, triplet_margin_loss,
poisson_nll_loss, gaussian_nll_loss and multilabel_soft_margin_loss):

* multilabel_soft_margin_loss and gaussian_nll_loss are plain Python in 2.15's functional;
* the others are CompositeImplicitAutograd ATen functions (aten/src/ATen/native/Loss.cpp,
  Distance.cpp): the functional's checks are done in Python, then the ATen function's ops run in
  its order, so values, gradients and the autograd graph are those of PyTorch. As in ATen,
  ``s - t`` with a number ``s`` is ``empty_like(t).fill_(s).sub_(t)`` and ``s + t`` / ``s * t``
  are ``t.add(s)`` / ``t.mul(s)``.
"""
import math
import struct

import torch
from . import _reduction as _Reduction

__all__ = ['margin_ranking_loss', 'hinge_embedding_loss', 'cosine_embedding_loss', 'pairwise_distance', 'triplet_margin_loss', 'poisson_nll_loss', 'gaussian_nll_loss', 'multilabel_soft_margin_loss', 'triplet_margin_with_distance_loss']


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


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                         reduction='mean'):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    # at::margin_ranking_loss
    output = (-target * (input1 - input2)).add(margin).clamp_min_(0)
    return _apply_loss_reduction(output, reduction_enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean'):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    # at::hinge_embedding_loss
    zeros = torch.zeros_like(input)
    margin_clamp = _scalar_minus(margin, input).clamp_min_(0)
    output_margin = torch.where(target != 1, margin_clamp, zeros)
    output_self = torch.where(target != -1, input, zeros)
    output = output_margin + output_self
    return _apply_loss_reduction(output, reduction_enum)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
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


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    # at::pairwise_distance (Distance.cpp): the norm over the innermost dim of x1 - x2 + eps.
    innermost_dim = max(x1.dim(), x2.dim()) - 1
    return torch._C._VariableFunctions.norm((x1 - x2).add(eps), p, [innermost_dim], keepdim)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
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
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_swap = pairwise_distance(positive, negative, p, eps)
        dist_neg = torch.minimum(dist_neg, dist_swap)
    output = torch.clamp_min(dist_pos.add(margin) - dist_neg, 0)
    return _apply_loss_reduction(output, reduction_enum)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
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


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
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


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                 reduction='mean'):
    # PyTorch 2.15's F.multilabel_soft_margin_loss (Python there too).
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    from .functional import logsigmoid
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
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


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    r"""max(d(a, p) - d(a, n) + margin, 0) with any distance function d (plain Python in 2.15)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance  # torch.pairwise_distance in 2.15, the same composite
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:  # the positive example closer to the negative than the anchor is takes the anchor's place
        dist_neg = torch.minimum(dist_neg, distance_function(positive, negative))
    loss = torch.clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return torch.sum(loss)
    if reduction == "mean":
        return torch.mean(loss)
    return loss
