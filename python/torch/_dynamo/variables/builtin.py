"""Python builtins (len, print, isinstance, operators...) as the capture understands them."""
import operator

import torch
from torch._dynamo.exc import unimplemented, unimplemented_v2
from torch._dynamo import variables as V
from torch._dynamo.variables.base import VariableTracker


class BuiltinVariable(VariableTracker):
    def __init__(self, fn):
        self.fn = fn

    def as_python_constant(self):
        return self.fn

    def reconstruct(self, tx):
        fn = self.fn
        return lambda env: fn

    def call_function(self, tx, args, kwargs):
        fn = self.fn
        name = getattr(fn, "__name__", str(fn))
        if fn is print:
            types = [V._python_type_name(a) for a in args]
            unimplemented_v2(
                gb_type="Failed to trace builtin operator",
                context="builtin {} [{}] {}".format(name, ", ".join(V.vt_class_repr(a) for a in args), bool(kwargs)),
                explanation="Dynamo does not know how to trace builtin operator `{}` with argument types {} "
                            "(has_kwargs {})".format(name, types, bool(kwargs)),
                hints=["Avoid calling builtin `{}` with argument types {}. Consider using an equivalent alternative "
                       "function/method to `{}`.".format(name, types, name),
                       "If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
                       "`torch._dynamo.config.reorderable_logging_functions`.",
                       "Please report an issue to PyTorch."])
        if fn is len:
            a = args[0]
            if isinstance(a, V.TensorVariable):
                return a.size_var(tx, 0)
            return V.ConstantVariable(len(a.unpack(tx)))
        if fn is isinstance:
            cls = args[1].as_python_constant()
            return V.ConstantVariable(issubclass(args[0].python_type(), cls))
        if fn is range:
            return V.RangeVariable(range(*[a.as_python_constant() for a in args]))
        if fn in (tuple, list) and args:
            items = args[0].unpack(tx)
            return V.TupleVariable(items) if fn is tuple else V.ListVariable(items)
        if fn is enumerate:
            start = args[1].as_python_constant() if len(args) > 1 else 0
            return V.ListVariable([V.TupleVariable([V.ConstantVariable(i + start), v]) for i, v in enumerate(args[0].unpack(tx))])
        if fn is zip:
            return V.ListVariable([V.TupleVariable(list(t)) for t in zip(*[a.unpack(tx) for a in args])])
        if fn is getattr:
            return args[0].var_getattr(tx, args[1].as_python_constant())
        if fn is hasattr:
            try:
                args[0].var_getattr(tx, args[1].as_python_constant())
                return V.ConstantVariable(True)
            except Exception:
                return V.ConstantVariable(False)
        if any(isinstance(a, (V.TensorVariable, V.SymNodeVariable)) for a in args):
            if fn in (abs,):
                return tx.output.call(tx, "call_function", operator.abs, args, {})
            if fn in (float, int, bool, str):
                unimplemented("builtin: {} of a tensor".format(name))
            if fn in (min, max) and all(isinstance(a, V.SymNodeVariable) or a.is_python_constant() for a in args):
                unimplemented("builtin: {} of symbolic sizes".format(name))
            unimplemented("builtin: {} [{}]".format(name, ", ".join(type(a).__name__ for a in args)))
        try:
            return V.ConstantVariable(fn(*[a.as_python_constant() for a in args],
                                       **{k: v.as_python_constant() for k, v in kwargs.items()}))
        except Exception as e:
            if isinstance(e, torch._dynamo.exc.Unsupported):
                raise
            unimplemented("builtin: {} raised {}".format(name, type(e).__name__))
