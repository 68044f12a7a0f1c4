"""Variable trackers: what the symbolic evaluation of a frame knows about each value.

Note [Values during capture]
A frame's bytecode is evaluated over trackers instead of values. A TensorVariable is a node of
the graph with a fake tensor (on the meta device: sizes, strides and dtype, no data) that ops
propagate; a ConstantVariable is a Python value that does not depend on a tensor and is folded
into the graph, guarded where it came from the frame; the others stand for Python objects the
capture understands (torch functions, the user's functions, which are inlined, nn.Modules,
lists, tuples, ranges). Each can rebuild its real value when a graph break hands control back
to Python (reconstruct)."""
import operator

import torch
from torch._dynamo.exc import unimplemented, unimplemented_v2


_VT_PATHS = {"TensorVariable": "tensor", "ConstantVariable": "constant", "SymNodeVariable": "tensor",
             "ListVariable": "lists", "TupleVariable": "lists", "SizeVariable": "lists", "RangeVariable": "lists",
             "UserFunctionVariable": "functions", "NNModuleVariable": "nn_module", "TorchVariable": "torch",
             "BuiltinVariable": "builtin", "UserDefinedObjectVariable": "user_defined"}


def _python_type_name(v):
    """The name of the Python type a tracker stands for ('str', 'Size', 'Tensor')."""
    try:
        return v.python_type().__name__
    except Exception:
        return type(v).__name__


def vt_class_repr(v):
    """How TorchDynamo's messages name a tracker's class."""
    name = type(v).__name__
    return "<class 'torch._dynamo.variables.{}.{}'>".format(_VT_PATHS.get(name, "base"), name)


class VariableTracker:
    source = None

    def python_type(self):
        unimplemented("python_type of {}".format(type(self).__name__))

    def is_python_constant(self):
        try:
            self.as_python_constant()
            return True
        except Exception:
            return False

    def as_python_constant(self):
        unimplemented("{} is not a constant".format(type(self).__name__))

    def var_getattr(self, tx, name):
        unimplemented("getattr {}.{}".format(type(self).__name__, name))

    def call_function(self, tx, args, kwargs):
        unimplemented("call {}".format(self))

    def unpack(self, tx):
        unimplemented("iterate over {}".format(self))

    def reconstruct(self, tx):
        """A function env -> the real value (env: the compiled code's locals, globals, outputs)."""
        if self.source is not None:
            src = self.source
            return lambda env: src.get(env.f_locals, env.f_globals)
        unimplemented("cannot rebuild {} after a graph break".format(self))

    def __repr__(self):
        return type(self).__name__ + "()"


class NullVariable(VariableTracker):
    """The NULL CPython 3.11 pushes below a callable that is not a bound method."""

    def reconstruct(self, tx):
        from torch._dynamo.resume import NULL
        return lambda env: NULL


class ValueVariable(VariableTracker):
    """A tracker that stands for one known Python value."""

    def __init__(self, value, source=None):
        self.value = value
        self.source = source

    def as_python_constant(self):
        return self.value

    def python_type(self):
        return type(self.value)


class ConstantVariable(ValueVariable):
    def var_getattr(self, tx, name):
        attr = getattr(self.value, name)
        if callable(attr):
            return ConstantMethodVariable(self.value, name)
        return ConstantVariable(attr)

    def unpack(self, tx):
        return [ConstantVariable(v) for v in self.value]

    def reconstruct(self, tx):
        v = self.value
        return lambda env: v

    def __repr__(self):
        return "ConstantVariable({!r})".format(self.value)


class ConstantMethodVariable(VariableTracker):
    def __init__(self, obj, name):
        self.obj, self.name = obj, name

    def call_function(self, tx, args, kwargs):
        return ConstantVariable(getattr(self.obj, self.name)(*[a.as_python_constant() for a in args],
                                                             **{k: v.as_python_constant() for k, v in kwargs.items()}))

    def reconstruct(self, tx):
        obj, name = self.obj, self.name
        return lambda env: getattr(obj, name)


class TensorVariable(VariableTracker):
    def __init__(self, proxy, example, device, requires_grad, source=None, dynamic_dims=()):
        self.proxy = proxy            # the graph node that computes it
        self.example = example        # a fake (meta) tensor with its sizes, strides and dtype
        self.device = device          # the device the real tensor is on
        self.requires_grad = requires_grad
        self.source = source          # set for graph inputs
        self.dynamic_dims = tuple(dynamic_dims)

    def python_type(self):
        return torch.Tensor

    def set_name_hint(self, graph, name):
        """A value computed in the graph takes the name of the first local it is stored into
        (y = x.sin() * 2 makes the node y), as TorchDynamo 2.15 names it."""
        if self.source is not None or getattr(self, "_is_name_set", False) or self.proxy.op == "placeholder":
            return
        if self.proxy in graph.nodes:
            graph.rename_node(self.proxy, name)
        self._is_name_set = True

    def size_var(self, tx, dim=None):
        sizes = list(self.example.size())
        items = []
        for d, s in enumerate(sizes):
            sym = tx.output.symbol_for(self, d)
            if sym and sym in tx.output.symbol_dims:
                items.append(SymNodeVariable(tx.output.symbol_placeholder(sym), s, sym))
            else:
                items.append(SymNodeVariable.create(tx, self, d, sym, s) if sym else ConstantVariable(s))
        if dim is not None:
            return items[dim]
        return SizeVariable(items)

    def var_getattr(self, tx, name):
        ex = self.example
        if name == "shape":
            return self.size_var(tx)
        if name == "dtype":
            return ConstantVariable(ex.dtype)
        if name == "device":
            return ConstantVariable(self.device)
        if name == "ndim":
            return ConstantVariable(ex.dim())
        if name == "requires_grad":
            return ConstantVariable(self.requires_grad)
        if name == "is_cuda":
            return ConstantVariable(self.device.type == "cuda")
        if name in ("T", "mT", "real"):
            return tx.output.call(tx, "call_function", getattr, [self, ConstantVariable(name)], {})
        if name in ("grad", "grad_fn", "data", "_version"):
            unimplemented("Tensor.{} during capture".format(name))
        if callable(getattr(torch.Tensor, name, None)):
            return TensorMethodVariable(self, name)
        unimplemented("Tensor attribute {}".format(name))

    def reconstruct(self, tx):
        if self.source is not None and tx.output.is_unchanged_input(self):
            return VariableTracker.reconstruct(self, tx)
        index = tx.output.add_graph_output(self)
        return lambda env: env.outputs[index]

    def __repr__(self):
        return "TensorVariable({})".format(self.proxy.name)


class SymNodeVariable(VariableTracker):
    """A size that is a symbol (s0) of the graph, with the value it had when captured."""

    def __init__(self, proxy, hint, expr):
        self.proxy, self.hint, self.expr = proxy, hint, expr

    @staticmethod
    def create(tx, tensor, dim, sym, hint):
        node = tx.output.graph.call_method("size", (tensor.proxy, dim))
        node.meta["val"] = sym
        return SymNodeVariable(node, hint, sym)

    def python_type(self):
        return int

    def reconstruct(self, tx):
        if self.source is not None:  # a dynamic int input: read again where it came from
            source = self.source
            return lambda env: source.get(env.f_locals, env.f_globals)
        index = tx.output.add_graph_output(self)
        return lambda env: env.outputs[index]

    def __repr__(self):
        return "SymNodeVariable({})".format(self.expr)


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
        return ConstantVariable(None)


class TupleVariable(BaseListVariable):
    kind = tuple


class DictVariable(VariableTracker):
    def __init__(self, items):
        self.items = dict(items)  # constant keys -> trackers

    def python_type(self):
        return dict

    def reconstruct(self, tx):
        parts = {k: v.reconstruct(tx) for k, v in self.items.items()}
        return lambda env: {k: p(env) for k, p in parts.items()}


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
        super().__init__([ConstantVariable(i) for i in r])
        self.range = r

    def as_python_constant(self):
        return self.range

    def python_type(self):
        return range


class IteratorVariable(VariableTracker):
    def __init__(self, items):
        self.items = list(items)
        self.index = 0

    def next(self):
        if self.index >= len(self.items):
            return None
        self.index += 1
        return self.items[self.index - 1]

    def reconstruct(self, tx):
        parts = [i.reconstruct(tx) for i in self.items[self.index:]]
        return lambda env: iter([p(env) for p in parts])


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
            return ConstantVariable(t.example.dim())
        if name == "numel" and not t.dynamic_dims:
            return ConstantVariable(t.example.numel())
        if name in ("stride", "is_contiguous", "is_floating_point", "element_size", "get_device", "is_complex"):
            return ConstantVariable(getattr(t.example, name)(*[a.as_python_constant() for a in args]))
        if name in ("register_hook", "retain_grad", "data_ptr", "storage", "untyped_storage", "record_stream"):
            unimplemented("Tensor.{}".format(name))
        return tx.output.call(tx, "call_method", name, [t] + list(args), kwargs)

    def reconstruct(self, tx):
        base = self.tensor.reconstruct(tx)
        name = self.name
        return lambda env: getattr(base(env), name)


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
            return ConstantVariable(isinstance(args[0], TensorVariable))
        if fn in (torch.is_grad_enabled,):
            return ConstantVariable(torch.is_grad_enabled())
        if fn in (torch.manual_seed, torch.seed, torch.set_grad_enabled, torch.set_printoptions):
            unimplemented("torch.{} changes global state".format(getattr(fn, "__name__", fn)))
        if isinstance(fn, type):
            unimplemented("constructing {}".format(fn.__name__))
        return tx.output.call(tx, "call_function", fn, args, kwargs)

    def reconstruct(self, tx):
        v = self.value
        return lambda env: v


class PythonModuleVariable(TorchVariable):
    """A module other than torch's (math, operator): its attributes are constants."""

    def call_function(self, tx, args, kwargs):
        unimplemented("calling a module")


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
            types = [_python_type_name(a) for a in args]
            unimplemented_v2(
                gb_type="Failed to trace builtin operator",
                context="builtin {} [{}] {}".format(name, ", ".join(vt_class_repr(a) for a in args), bool(kwargs)),
                explanation="Dynamo does not know how to trace builtin operator `{}` with argument types {} "
                            "(has_kwargs {})".format(name, types, bool(kwargs)),
                hints=["Avoid calling builtin `{}` with argument types {}. Consider using an equivalent alternative "
                       "function/method to `{}`.".format(name, types, name),
                       "If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
                       "`torch._dynamo.config.reorderable_logging_functions`.",
                       "Please report an issue to PyTorch."])
        if fn is len:
            a = args[0]
            if isinstance(a, TensorVariable):
                return a.size_var(tx, 0)
            return ConstantVariable(len(a.unpack(tx)))
        if fn is isinstance:
            cls = args[1].as_python_constant()
            return ConstantVariable(issubclass(args[0].python_type(), cls))
        if fn is range:
            return RangeVariable(range(*[a.as_python_constant() for a in args]))
        if fn in (tuple, list) and args:
            items = args[0].unpack(tx)
            return TupleVariable(items) if fn is tuple else ListVariable(items)
        if fn is enumerate:
            start = args[1].as_python_constant() if len(args) > 1 else 0
            return ListVariable([TupleVariable([ConstantVariable(i + start), v]) for i, v in enumerate(args[0].unpack(tx))])
        if fn is zip:
            return ListVariable([TupleVariable(list(t)) for t in zip(*[a.unpack(tx) for a in args])])
        if fn is getattr:
            return args[0].var_getattr(tx, args[1].as_python_constant())
        if fn is hasattr:
            try:
                args[0].var_getattr(tx, args[1].as_python_constant())
                return ConstantVariable(True)
            except Exception:
                return ConstantVariable(False)
        if any(isinstance(a, (TensorVariable, SymNodeVariable)) for a in args):
            if fn in (abs,):
                return tx.output.call(tx, "call_function", operator.abs, args, {})
            if fn in (float, int, bool, str):
                unimplemented("builtin: {} of a tensor".format(name))
            if fn in (min, max) and all(isinstance(a, SymNodeVariable) or a.is_python_constant() for a in args):
                unimplemented("builtin: {} of symbolic sizes".format(name))
            unimplemented("builtin: {} [{}]".format(name, ", ".join(type(a).__name__ for a in args)))
        try:
            return ConstantVariable(fn(*[a.as_python_constant() for a in args],
                                       **{k: v.as_python_constant() for k, v in kwargs.items()}))
        except Exception as e:
            if isinstance(e, torch._dynamo.exc.Unsupported):
                raise
            unimplemented("builtin: {} raised {}".format(name, type(e).__name__))


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
            return VariableTracker.reconstruct(self, tx)
        fn = self.fn
        return lambda env: fn


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
            return UserFunctionVariable(cls_attr, self_var=self)
        return wrap_value(tx, getattr(m, name), src)

    def call_function(self, tx, args, kwargs):
        m = self.module
        if type(m).__module__.startswith("torch.nn"):
            return tx.output.call_module(tx, self, args, kwargs)
        forward = type(m).forward
        return tx.inline_user_function(forward, [self] + list(args), kwargs)


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
            return UserFunctionVariable(cls_attr, self_var=self)
        return wrap_value(tx, getattr(self.value, name), AttrSource(self.source, name) if self.source else None)
