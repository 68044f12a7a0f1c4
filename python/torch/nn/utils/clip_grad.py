"""clip_grad_norm_ and clip_grad_value_ (PyTorch's torch.nn.utils.clip_grad): on the CPU PyTorch
takes each gradient's norm with torch.linalg.vector_norm (no foreach kernels there), then the
norm of those norms, and scales every gradient by min(max_norm / (total + 1e-6), 1)."""
import torch

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_"]


def _tensors(parameters):
    return [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)


def _grouped(tensors):
    """The tensors by (device, dtype), in order of first appearance."""
    groups = {}
    for t in tensors:
        groups.setdefault((t.device.type, t.device.index, t.dtype), []).append(t)
    return groups.values()


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the tensors' norms (as if of all their elements together)."""
    tensors = _tensors(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    if foreach:
        raise RuntimeError(f"foreach=True was passed, but can't use the foreach API on {tensors[0].device.type} "
                           "tensors")
    first_device = tensors[0].device
    norms = [torch.linalg.vector_norm(g, norm_type) for group in _grouped(tensors) for g in group]
    total = torch.linalg.vector_norm(torch.stack([n.to(first_device) for n in norms]), norm_type)
    if error_if_nonfinite and torch.logical_or(total.isnan(), total.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it "
                           "cannot be clipped. To disable this error and scale the gradients by the non-finite norm "
                           "anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scales the gradients by min(max_norm / (total_norm + 1e-6), 1), in place."""
    grads = [p.grad for p in _tensors(parameters) if p.grad is not None]
    if len(grads) == 0:
        return
    clip_coef_clamped = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for group in _grouped(grads):
        coef = clip_coef_clamped.to(group[0].device)
        for g in group:
            g.mul_(coef)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Clips the gradients' total norm to max_norm, in place; returns the total norm before."""
    parameters = _tensors(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    import warnings
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamps every gradient to [-clip_value, clip_value], in place."""
    clip_value = float(clip_value)
    grads = [p.grad for p in _tensors(parameters) if p.grad is not None]
    with torch.no_grad():
        for g in grads:
            g.clamp_(min=-clip_value, max=clip_value)
