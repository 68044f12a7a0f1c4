"""parameters_to_vector and vector_to_parameters (PyTorch's torch.nn.utils.convert_parameters)."""
import torch

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_same_device(param, old_param_device):
    if old_param_device is None:
        return param.get_device() if param.is_cuda else -1
    warn = param.get_device() != old_param_device if param.is_cuda else old_param_device != -1
    if warn:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated into one vector."""
    device = None
    vec = []
    for param in parameters:
        device = _check_same_device(param, device)
        vec.append(param.view(-1))
    return torch.cat(vec)


def vector_to_parameters(vec, parameters):
    """Copies consecutive slices of vec into the parameters (their .data)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}")
    device = None
    pointer = 0
    for param in parameters:
        device = _check_same_device(param, device)
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
