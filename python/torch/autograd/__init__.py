"""torch.autograd: backward() and grad() over the runtime's backward engine, grad modes,
Function (custom differentiable operations) and functional (jacobian, vjp, hessian)."""
import torch
from torch import _C

from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .variable import Variable
from .function import Function
from . import functional


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, torch.Tensor):
        return (x,)
    return tuple(x)


def _check_create_graph(create_graph):
    if create_graph:
        raise NotImplementedError("create_graph=True (double backward) is not supported by Inside PyTorch yet")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    _check_create_graph(create_graph)
    if inputs is not None:
        raise NotImplementedError("backward(inputs=...) is not supported by Inside PyTorch yet")
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors if grad_tensors is not None else grad_variables)
    if retain_graph is None:
        retain_graph = create_graph
    for k, t in enumerate(tensors):
        g = grads[k] if k < len(grads) else None
        last = k == len(tensors) - 1
        _C._backward(t, g, bool(retain_graph) or not last)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, is_grads_batched=False):
    _check_create_graph(create_graph)
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    return _C._autograd_grad(list(outputs), list(grad_outputs), list(inputs), bool(retain_graph), allow_unused)
