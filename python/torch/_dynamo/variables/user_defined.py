"""Other objects of the user's classes."""

import torch
from torch._dynamo import variables as V
from torch._dynamo.variables.base import VariableTracker


class UserDefinedObjectVariable(VariableTracker):
    def __init__(self, value, source=None):
        self.value = value
        self.source = source

    def python_type(self):
        return type(self.value)

    def var_getattr(self, tx, name):
        from torch._dynamo.source import AttrSource
        from torch._dynamo.builder import wrap_value
        cls_attr = getattr(type(self.value), name, None)
        if callable(cls_attr) and hasattr(cls_attr, "__code__"):
            return V.UserFunctionVariable(cls_attr, self_var=self)
        return wrap_value(tx, getattr(self.value, name), AttrSource(self.source, name) if self.source else None)
