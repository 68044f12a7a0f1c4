"""Functions PyTorch writes in Python over its operators (torch/functional.py)."""
import torch

__all__ = ["broadcast_shapes", "broadcast_tensors", "meshgrid", "norm"]


def broadcast_shapes(*shapes):
    """The shape that all `shapes` broadcast to, with PyTorch's message when they do not."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(reversed(tuple(s))):
            k = ndim - 1 - i
            if n == 1 or n == out[k]:
                continue
            if out[k] == 1:
                out[k] = n
                continue
            raise RuntimeError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                               "arg 0 with shape {} and arg 1 with shape {}.".format(tuple(shapes[0]), tuple(s)))
    return torch.Size(out)


def broadcast_tensors(*tensors):
    """Each tensor expanded (a view, no copy) to the common broadcast shape; one that already
    has that shape is returned as it is (no ExpandBackward0), as PyTorch's expand_outplace does."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    r"""The matrix or vector norm of `input`, as PyTorch 2.15's torch.norm computes it: through
    torch.linalg.vector_norm (a number p, and "fro" over at most two dims), so the graph records
    LinalgVectorNormBackward0; other matrix norms ("nuc", "fro" over more dims) would be
    torch.linalg.matrix_norm, which Inside PyTorch does not have."""
    if out is not None:
        raise NotImplementedError("torch.norm: out= is not supported by Inside PyTorch yet")
    if dim is not None:
        _dim = [dim] if isinstance(dim, int) else dim
    else:
        _dim = None
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return torch.linalg.vector_norm(input, 2, _dim, keepdim, dtype=dtype)
        raise NotImplementedError("torch.norm: p=%r (torch.linalg.matrix_norm) is not supported by Inside PyTorch yet"
                                  % (p,))
    _p = 2.0 if p is None else p
    return torch.linalg.vector_norm(input, _p, _dim, keepdim, dtype=dtype)


def meshgrid(*tensors, indexing=None):
    r"""Coordinate grids of the 1-D `tensors` (indexing "ij", or "xy" with the first two swapped),
    each a view that expands its input."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        return torch._C._VariableFunctions.meshgrid(tensors)
    return torch._C._VariableFunctions.meshgrid(tensors, indexing=indexing)
