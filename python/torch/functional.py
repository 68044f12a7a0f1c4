"""Functions PyTorch writes in Python over its operators (torch/functional.py)."""
import torch

__all__ = ["broadcast_shapes", "broadcast_tensors"]


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
