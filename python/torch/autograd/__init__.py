"""torch.autograd: backward() and grad() over the runtime's backward engine, grad modes,
Function (custom differentiable operations), functional (jacobian, vjp, hessian) and
gradcheck / gradgradcheck."""
import torch
from torch import _C

from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .variable import Variable
from .function import Function
from . import functional
from .gradcheck import gradcheck, gradgradcheck


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, torch.Tensor):
        return (x,)
    return tuple(x)


import warnings


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    if create_graph:
        warnings.warn("Using backward() with create_graph=True will create a reference cycle between the parameter "
                      "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
                      "creating the graph to avoid this. If you have to use this function, make sure to reset the "
                      ".grad fields of your parameters to None after use to break the cycle and avoid the leak.")
    if inputs is not None:
        raise NotImplementedError("backward(inputs=...) is not supported by Inside PyTorch yet")
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors if grad_tensors is not None else grad_variables)
    if retain_graph is None:
        retain_graph = create_graph
    for k, t in enumerate(tensors):
        g = grads[k] if k < len(grads) else None
        last = k == len(tensors) - 1
        _C._backward(t, g, bool(retain_graph) or not last, bool(create_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, is_grads_batched=False):
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    return _C._autograd_grad(list(outputs), list(grad_outputs), list(inputs), bool(retain_graph), allow_unused,
                            bool(create_graph))
