"""Functions PyTorch writes in Python over its operators (torch/functional.py)."""
import torch

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "cdist", "einsum", "meshgrid", "norm", "tensordot", "unique", "unique_consecutive"]


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


def split(tensor, split_size_or_sections, dim=0):
    """Splits the tensor into chunks of split_size_or_sections (an int: equal chunks, the last
    one smaller; a list: those sizes) along dim, as views (PyTorch's torch.split)."""
    return tensor.split(split_size_or_sections, dim)


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


def _atleast(op, tensors):
    # one tensor gives a tensor; several (or one list of them) give a tuple
    if len(tensors) == 1:
        tensors = tensors[0]
    if isinstance(tensors, list):
        tensors = tuple(tensors)
    result = op(tensors)
    return tuple(result) if isinstance(tensors, tuple) else result


def atleast_1d(*tensors):
    """Each tensor with at least one dim (a 0-D one as shape (1,)), as a view."""
    return _atleast(torch._C._VariableFunctions.atleast_1d, tensors)


def atleast_2d(*tensors):
    """Each tensor with at least two dims (leading dims of size 1), as a view."""
    return _atleast(torch._C._VariableFunctions.atleast_2d, tensors)


def atleast_3d(*tensors):
    """Each tensor with at least three dims (a vector as (1, n, 1), a matrix as (m, n, 1)), as a view."""
    return _atleast(torch._C._VariableFunctions.atleast_3d, tensors)


def block_diag(*tensors):
    """The tensors (0-D as 1x1, 1-D as one row) along the diagonal of a zero matrix."""
    return torch._C._VariableFunctions.block_diag(tensors)


def cartesian_prod(*tensors):
    """Every combination of the 1-D tensors' elements, one row each (itertools.product's order)."""
    return torch._C._VariableFunctions.cartesian_prod(tensors)


def meshgrid(*tensors, indexing=None):
    r"""Coordinate grids of the 1-D `tensors` (indexing "ij", or "xy" with the first two swapped),
    each a view that expands its input."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        return torch._C._VariableFunctions.meshgrid(tensors)
    return torch._C._VariableFunctions.meshgrid(tensors, indexing=indexing)


def einsum(*args):
    r"""einsum(equation, *operands): the sum of products that the equation names (Note [einsum's
    plan]). Also einsum(op0, sublist0, op1, sublist1, ..., [sublist_out]) with subscripts as
    numbers in [0, 52), and the operands given as one list. Without opt_einsum the operands
    are contracted left to right, as PyTorch does."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], torch.Tensor):
        def subscript(n):
            if n is Ellipsis:
                return "..."
            if 0 <= n < 26:
                return chr(ord("A") + n)
            if 26 <= n < 52:
                return chr(ord("a") + n - 26)
            raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        equation = ",".join("".join(subscript(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(subscript(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation = args[0]
        operands = args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])
    return torch._C._VariableFunctions.einsum(equation, operands)


def tensordot(a, b, dims=2, out=None):
    r"""The contraction of `a`'s last `dims` dims with `b`'s first (an int), or of the dims two
    lists name; one mm over the permuted and flattened operands."""
    if not isinstance(dims, (tuple, list, torch.Tensor, int)):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           "list[list[int]] containing two lists, but got dims={}".format(dims))
    dims_a, dims_b = [], []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    if isinstance(dims, torch.Tensor):
        if dims.numel() > 1:
            if dims.size()[0] != 2:
                raise AssertionError("dims tensor must have size 2 in first dimension, got {}".format(dims.size()[0]))
            dims_a = dims[0].tolist()
            dims_b = dims[1].tolist()
        else:
            n = int(dims.item())
            if n < 0:
                raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
            dims_a, dims_b = list(range(-n, 0)), list(range(n))
    if isinstance(dims, int) and not isinstance(dims, bool):
        if dims < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError("tensordot expects dims < ndim_a or ndim_b, but got dims={}".format(dims))
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    if out is None:
        return torch._C._VariableFunctions.tensordot(a, b, dims_a, dims_b)
    return torch._C._VariableFunctions.tensordot(a, b, dims_a, dims_b, out=out)


def _unique_results(output, inverse, counts, return_inverse, return_counts):
    if return_inverse and return_counts:
        return output, inverse, counts
    if return_inverse:
        return output, inverse
    if return_counts:
        return output, counts
    return output


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    r"""The distinct elements of `input` (or its distinct slices along `dim`), sorted (Note
    [unique's order]), with the inverse indices and the counts when asked."""
    if dim is not None:
        output, inverse, counts = torch._C._VariableFunctions.unique_dim(
            input, dim, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)
    else:
        output, inverse, counts = torch._C._VariableFunctions._unique2(
            input, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)
    return _unique_results(output, inverse, counts, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    r"""The first element of each run of equal consecutive elements (or slices along `dim`),
    with the inverse indices and the run lengths when asked."""
    output, inverse, counts = torch._C._VariableFunctions.unique_consecutive(
        input, return_inverse=return_inverse, return_counts=return_counts, dim=dim)
    return _unique_results(output, inverse, counts, return_inverse, return_counts)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    r"""The p-norm distance between each row of `x1` and each row of `x2` (batched):
    `compute_mode` picks the matrix-product form for p = 2 when there are more than 25 rows
    on a side ("use_mm_for_euclid_dist_if_necessary"), always, or never."""
    if compute_mode == "use_mm_for_euclid_dist_if_necessary":
        return torch._C._VariableFunctions.cdist(x1, x2, p, None)
    if compute_mode == "use_mm_for_euclid_dist":
        return torch._C._VariableFunctions.cdist(x1, x2, p, 1)
    if compute_mode == "donot_use_mm_for_euclid_dist":
        return torch._C._VariableFunctions.cdist(x1, x2, p, 2)
    raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
