"""torch functions called in the graph."""

import torch
from torch._dynamo.exc import unimplemented, unimplemented_v2
from torch._dynamo import variables as V
from torch._dynamo.variables.base import ValueVariable


class TorchVariable(ValueVariable):
    """A function or submodule of the torch package (torch.sin, torch.nn.functional.relu)."""

    def var_getattr(self, tx, name):
        from torch._dynamo.source import AttrSource
        from torch._dynamo.builder import wrap_value
        # The attribute read is guarded by identity too (G['torch'].sin), as 2.15 guards it.
        return wrap_value(tx, getattr(self.value, name), AttrSource(self.source, name) if self.source else None)

    def call_function(self, tx, args, kwargs):
        fn = self.value
        if fn is torch._dynamo.graph_break:
            unimplemented_v2(
                gb_type="Call to `torch._dynamo.graph_break()`",
                context="Called `torch._dynamo.graph_break()` with args `{}`, kwargs `{}`".format(
                    [a.as_python_constant() if a.is_python_constant() else a for a in args],
                    {k: v.as_python_constant() if v.is_python_constant() else v for k, v in kwargs.items()}),
                explanation="User-inserted graph break. Message: {}".format(
                    (kwargs["msg"].as_python_constant() if "msg" in kwargs else
                     args[0].as_python_constant() if args else None)),
                hints=["Remove the `torch._dynamo.graph_break()` call."])
        if fn in (torch.is_tensor,):
            return V.ConstantVariable(isinstance(args[0], V.TensorVariable))
        if fn in (torch.is_grad_enabled,):
            return V.ConstantVariable(torch.is_grad_enabled())
        if fn in (torch.manual_seed, torch.seed, torch.set_grad_enabled, torch.set_printoptions):
            unimplemented("torch.{} changes global state".format(getattr(fn, "__name__", fn)))
        if isinstance(fn, type):
            unimplemented("constructing {}".format(fn.__name__))
        return tx.output.call(tx, "call_function", fn, args, kwargs)

    def reconstruct(self, tx):
        v = self.value
        return lambda env: v
