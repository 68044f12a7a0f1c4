"""ConstantVariable: a Python value that does not depend on a tensor, folded into the graph."""

from torch._dynamo import variables as V
from torch._dynamo.variables.base import ValueVariable


class ConstantVariable(ValueVariable):
    def var_getattr(self, tx, name):
        attr = getattr(self.value, name)
        if callable(attr):
            return V.ConstantMethodVariable(self.value, name)
        return ConstantVariable(attr)

    def unpack(self, tx):
        return [ConstantVariable(v) for v in self.value]

    def reconstruct(self, tx):
        v = self.value
        return lambda env: v

    def __repr__(self):
        return "ConstantVariable({!r})".format(self.value)
