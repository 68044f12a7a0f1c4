"""Lists, tuples, torch.Size, slices and ranges."""

import torch
from torch._dynamo.exc import unimplemented
from torch._dynamo import variables as V
from torch._dynamo.variables.base import VariableTracker


class SizeVariable(VariableTracker):
    def __init__(self, items):
        self.items = list(items)

    def python_type(self):
        return torch.Size

    def as_python_constant(self):
        return torch.Size([i.as_python_constant() for i in self.items])

    def unpack(self, tx):
        return list(self.items)

    def reconstruct(self, tx):
        parts = [i.reconstruct(tx) for i in self.items]
        return lambda env: torch.Size([p(env) for p in parts])


class BaseListVariable(VariableTracker):
    kind = list

    def __init__(self, items, source=None):
        self.items = list(items)
        self.source = source

    def python_type(self):
        return self.kind

    def as_python_constant(self):
        return self.kind(i.as_python_constant() for i in self.items)

    def unpack(self, tx):
        return list(self.items)

    def reconstruct(self, tx):
        parts = [i.reconstruct(tx) for i in self.items]
        kind = self.kind
        return lambda env: kind(p(env) for p in parts)


class ListVariable(BaseListVariable):
    kind = list

    def var_getattr(self, tx, name):
        if name == "append" and self.source is None:
            return ListAppendVariable(self)
        unimplemented("list.{}".format(name))


class ListAppendVariable(VariableTracker):
    def __init__(self, lst):
        self.lst = lst

    def call_function(self, tx, args, kwargs):
        self.lst.items.append(args[0])
        return V.ConstantVariable(None)


class TupleVariable(BaseListVariable):
    kind = tuple


class SliceVariable(VariableTracker):
    def __init__(self, parts):
        self.parts = parts

    def as_python_constant(self):
        return slice(*[p.as_python_constant() for p in self.parts])

    def python_type(self):
        return slice


class RangeVariable(BaseListVariable):
    kind = tuple

    def __init__(self, r):
        super().__init__([V.ConstantVariable(i) for i in r])
        self.range = r

    def as_python_constant(self):
        return self.range

    def python_type(self):
        return range
