"""Trackers of other kinds: the NULL below a callable, bound methods of constants and tensors, Python modules."""

import torch
from torch._dynamo.exc import unimplemented
from torch._dynamo import variables as V
from torch._dynamo.variables.base import VariableTracker
from torch._dynamo.variables.torch import TorchVariable


class NullVariable(VariableTracker):
    """The NULL CPython 3.11 pushes below a callable that is not a bound method."""

    def reconstruct(self, tx):
        from torch._dynamo.resume import NULL
        return lambda env: NULL


class ConstantMethodVariable(VariableTracker):
    def __init__(self, obj, name):
        self.obj, self.name = obj, name

    def call_function(self, tx, args, kwargs):
        return V.ConstantVariable(getattr(self.obj, self.name)(*[a.as_python_constant() for a in args],
                                                             **{k: v.as_python_constant() for k, v in kwargs.items()}))

    def reconstruct(self, tx):
        obj, name = self.obj, self.name
        return lambda env: getattr(obj, name)


class TensorMethodVariable(VariableTracker):
    def __init__(self, tensor, name):
        self.tensor, self.name = tensor, name

    def call_function(self, tx, args, kwargs):
        t, name = self.tensor, self.name
        if name in ("item", "tolist", "numpy", "backward", "__bool__", "__int__", "__float__"):
            unimplemented("Tensor.{}".format(name))
        if name == "size":
            if args:
                dim = args[0].as_python_constant()
                return t.size_var(tx, dim % max(t.example.dim(), 1))
            return t.size_var(tx)
        if name == "dim" or name == "ndimension":
            return V.ConstantVariable(t.example.dim())
        if name == "numel" and not t.dynamic_dims:
            return V.ConstantVariable(t.example.numel())
        if name in ("stride", "is_contiguous", "is_floating_point", "element_size", "get_device", "is_complex"):
            return V.ConstantVariable(getattr(t.example, name)(*[a.as_python_constant() for a in args]))
        if name in ("register_hook", "retain_grad", "data_ptr", "storage", "untyped_storage", "record_stream"):
            unimplemented("Tensor.{}".format(name))
        return tx.output.call(tx, "call_method", name, [t] + list(args), kwargs)

    def reconstruct(self, tx):
        base = self.tensor.reconstruct(tx)
        name = self.name
        return lambda env: getattr(base(env), name)


class PythonModuleVariable(TorchVariable):
    """A module other than torch's (math, operator): its attributes are constants."""

    def call_function(self, tx, args, kwargs):
        unimplemented("calling a module")
