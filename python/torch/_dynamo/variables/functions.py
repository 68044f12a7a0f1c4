"""The user's Python functions, inlined into the graph."""

from torch._dynamo import variables as V
from torch._dynamo.variables.base import VariableTracker


class UserFunctionVariable(VariableTracker):
    def __init__(self, fn, source=None, self_var=None):
        self.fn = fn
        self.source = source
        self.self_var = self_var  # a bound method's self

    def as_python_constant(self):
        return self.fn

    def python_type(self):
        return type(self.fn)

    def call_function(self, tx, args, kwargs):
        if self.self_var is not None:
            args = [self.self_var] + list(args)
        return tx.inline_user_function(self.fn, args, kwargs)

    def reconstruct(self, tx):
        if self.self_var is not None:
            base = self.self_var.reconstruct(tx)
            name = self.fn.__name__
            return lambda env: getattr(base(env), name)
        if self.source is not None:
            return V.VariableTracker.reconstruct(self, tx)
        fn = self.fn
        return lambda env: fn
