"""Functions PyTorch writes in Python over its operators (torch/functional.py)."""
import torch

__all__ = ["broadcast_shapes", "broadcast_tensors", "norm"]


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
    """Each tensor expanded (a view, no copy) to the common broadcast shape."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    r"""The matrix or vector norm of `input`, as PyTorch 1.13's torch.norm computes it: a number p
    (inf and -inf included) is the vector p-norm over `dim` (every dimension when None); "fro"
    is the 2-norm over `dim` (its square root of the sum of squares for two dimensions)."""
    if out is not None or dtype is not None:
        raise NotImplementedError("torch.norm: out= and dtype= are not supported by Inside PyTorch yet")
    ndim = input.dim()
    if dim is None and p is not None and not isinstance(p, str):
        return torch._C._VariableFunctions.norm(input, p, list(range(ndim)), keepdim=keepdim)
    _dim = [dim] if isinstance(dim, int) else (list(dim) if dim is not None else None)
    if isinstance(p, str):
        if p != "fro":
            raise NotImplementedError("torch.norm: p=%r is not supported by Inside PyTorch yet" % (p,))
        if _dim is None:
            _dim = []
        if len(_dim) > 2:
            raise RuntimeError("Expected at most 2 dimensions, but got %d dimensions instead." % len(_dim))
        if len(_dim) <= 1:
            return torch._C._VariableFunctions.norm(input, 2, _dim, keepdim=keepdim)
        return torch.sqrt(torch.sum(input * input, _dim, keepdim=keepdim))
    if _dim is None:
        _dim = list(range(ndim))
    return torch._C._VariableFunctions.norm(input, 2 if p is None else p, _dim, keepdim=keepdim)

