"""nn.Module instances: their parameters, buffers and submodules, and calls of forward."""

import torch
from torch._dynamo import variables as V
from torch._dynamo.variables.base import VariableTracker


class NNModuleVariable(VariableTracker):
    def __init__(self, module, source):
        self.module = module
        self.source = source

    def python_type(self):
        return type(self.module)

    def var_getattr(self, tx, name):
        from torch._dynamo.source import AttrSource
        from torch._dynamo.builder import wrap_value
        m = self.module
        src = AttrSource(self.source, name)
        if name in m._parameters or name in m._buffers or name in m._modules:
            return wrap_value(tx, getattr(m, name), src)
        cls_attr = getattr(type(m), name, None)
        if callable(cls_attr) and not isinstance(cls_attr, type):
            return V.UserFunctionVariable(cls_attr, self_var=self)
        return wrap_value(tx, getattr(m, name), src)

    def call_function(self, tx, args, kwargs):
        m = self.module
        if type(m).__module__.startswith("torch.nn"):
            return tx.output.call_module(tx, self, args, kwargs)
        forward = type(m).forward
        return tx.inline_user_function(forward, [self] + list(args), kwargs)
