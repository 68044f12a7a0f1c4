"""torch.linalg: the vector norm (torch.norm and Tensor.norm are built on it, as in PyTorch 2.15)."""
import torch

__all__ = ["vector_norm"]


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    r"""The p-norm of `x` over `dim` (every dimension when None): sum(|x|^ord)^(1/ord), inf and
    -inf the largest and smallest |x|, 0 the count of nonzero elements. `dtype` computes in that
    floating dtype (the input converted first, never narrowed)."""
    if out is not None:
        raise NotImplementedError("torch.linalg.vector_norm: out= is not supported by Inside PyTorch yet")
    if isinstance(dim, int):
        dim = [dim]
    return torch._C._VariableFunctions.linalg_vector_norm(x, ord, dim, keepdim, dtype=dtype)
