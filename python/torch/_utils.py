"""The functions PyTorch's saved files name to rebuild tensors and parameters
(torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter), so files saved by PyTorch
load here and files saved here load in PyTorch."""
import torch


def _rebuild_tensor(storage, storage_offset, size, stride):
    """A tensor over `storage` (a 1-D tensor of the storage's dtype holding all its elements)."""
    return storage.as_strided(tuple(size), tuple(stride), storage_offset)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    tensor.requires_grad = requires_grad
    return tensor


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return torch.nn.Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = torch.nn.Parameter(data, requires_grad)
    for k, v in (state or {}).items():
        setattr(param, k, v)
    return param
