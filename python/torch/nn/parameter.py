"""torch.nn.Parameter: a Tensor subclass that Modules register as a parameter."""
import torch

__all__ = ['Parameter']


class Parameter(torch.Tensor):
    r"""A Tensor that is a module parameter.

    Assigning a Parameter as an attribute of a :class:`Module` registers it in
    the module's ``_parameters``, so that it shows up in ``parameters()``,
    ``named_parameters()`` and ``state_dict()``. A plain Tensor assigned the
    same way is just an attribute.

    Args:
        data (Tensor): the parameter's values (``None``: an empty tensor).
        requires_grad (bool): whether the parameter requires gradient. Default: True.
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        return torch.Tensor._make_subclass(cls, data, requires_grad)

    def __deepcopy__(self, memo):
        key = id(self)
        if key in memo:
            return memo[key]
        result = type(self)(torch.clone(self.data), self.requires_grad)
        memo[key] = result
        return result

    def __repr__(self):
        return 'Parameter containing:\n' + super().__repr__()

    # Results of operations on a Parameter are plain Tensors, as in PyTorch.
    # PyTorch gets this by disabling __torch_function__ on Parameter; a runtime
    # without __torch_function__ support has nothing to disable.
    _disabled_torch_function = getattr(torch._C, '_disabled_torch_function_impl', None)
    if _disabled_torch_function is not None:
        __torch_function__ = _disabled_torch_function
    del _disabled_torch_function
