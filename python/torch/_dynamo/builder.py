"""wrap_value: the tracker for a value the frame reads from its locals, globals or attributes,
and the guards that make the graph valid for it (Note [Values during capture])."""
import types

import torch
from torch._dynamo import variables as V


def _is_torch_object(value):
    mod = getattr(value, "__module__", None) or ""
    if isinstance(value, types.ModuleType):
        return value.__name__ == "torch" or value.__name__.startswith("torch.")
    return mod == "torch" or mod.startswith("torch.") or mod.startswith("torch._C")


def _guard_function(tx, value, source):
    """A Python function is guarded by its code object (G['helper'].__code__, reached by
    CodeGuardAccessor), as 2.15 guards it: a function redefined with the same code still hits."""
    from torch._dynamo.source import AttrSource
    code = AttrSource(source, "__code__")
    tx.output.add_guard(tx, code, "ID_MATCH", value.__code__, "___check_obj_id({}, {})".format(code.name(), id(value.__code__)))


def wrap_value(tx, value, source, guard=True):
    """The tracker for `value`; with a source (and guard=True) the guards it needs."""
    out = tx.output
    if isinstance(value, torch.Tensor):
        if source is None:
            V.unimplemented("a tensor with no source (a tensor constant)")
        return out.add_input(tx, source, value)
    if isinstance(value, torch.nn.Module):
        if source is not None and guard:
            out.add_guard(tx, source, "ID_MATCH", value, "___check_obj_id({}, {})".format(source.name(), id(value)))
        return V.NNModuleVariable(value, source)
    if type(value) is int and source is not None and guard:
        # Automatic dynamic shapes for ints: an int that differs from the one an earlier compile of
        # this frame saw becomes a graph input (OutputGraph.add_int_input).
        seen = out.frame_state.setdefault("ints", {})
        dynamic = out.frame_state.setdefault("dynamic_ints", set())
        name = source.name()
        if name in seen and seen[name] != value and torch._dynamo.config.automatic_dynamic_shapes:
            dynamic.add(name)
        seen[name] = value
        if name in dynamic:
            return out.add_int_input(tx, source, value)
    if value is None or isinstance(value, (bool, int, float, str, torch.dtype, torch.device)):
        if source is not None and guard:
            if value is None or isinstance(value, bool):
                out.add_guard(tx, source, "ID_MATCH", value, "___check_obj_id({}, {})".format(source.name(), id(value)))
            else:
                out.add_guard(tx, source, "EQUALS_MATCH", value, "{} == {!r}".format(source.name(), value))
        return V.ConstantVariable(value, source)
    if isinstance(value, (list, tuple)) and not isinstance(value, torch.Size):
        if source is not None and guard:
            out.add_guard(tx, source, "TYPE_MATCH", type(value), "___check_type_id({}, {})".format(source.name(), id(type(value))))
            out.add_guard(tx, source, "LENGTH_CHECK", len(value), "len({}) == {}".format(source.name(), len(value)))
        from torch._dynamo.source import ItemSource
        items = [wrap_value(tx, v, ItemSource(source, i) if source else None, guard) for i, v in enumerate(value)]
        return V.ListVariable(items, source) if isinstance(value, list) else V.TupleVariable(items, source)
    if isinstance(value, torch.Size):
        return V.SizeVariable([V.ConstantVariable(s) for s in value])
    if value in (print, len, isinstance, range, tuple, list, enumerate, zip, getattr, hasattr, min, max, abs,
                 int, float, bool, str, sum, any, all, sorted, reversed, round):
        if source is not None and guard:
            out.add_guard(tx, source, "ID_MATCH", value, "___check_obj_id({}, {})".format(source.name(), id(value)))
        return V.BuiltinVariable(value)
    if _is_torch_object(value) and (isinstance(value, types.ModuleType) or callable(value)):
        # A function of the torch package: part of the program, not of its inputs. Its module
        # (the global `torch`) is what is guarded, once.
        if source is not None and guard:
            if isinstance(value, types.FunctionType):
                _guard_function(tx, value, source)
            else:
                out.add_guard(tx, source, "ID_MATCH", value, "___check_obj_id({}, {})".format(source.name(), id(value)))
        return V.TorchVariable(value, source)
    if isinstance(value, types.ModuleType):
        if source is not None and guard:
            out.add_guard(tx, source, "ID_MATCH", value, "___check_obj_id({}, {})".format(source.name(), id(value)))
        return V.PythonModuleVariable(value, source)
    if isinstance(value, types.FunctionType):
        if source is not None and guard:
            _guard_function(tx, value, source)
        return V.UserFunctionVariable(value, source)
    if isinstance(value, types.MethodType) and isinstance(value.__func__, types.FunctionType):
        self_var = wrap_value(tx, value.__self__, None, False) if not isinstance(value.__self__, torch.nn.Module) \
            else V.NNModuleVariable(value.__self__, None)
        return V.UserFunctionVariable(value.__func__, self_var=self_var)
    if callable(value) and getattr(value, "__module__", None) in ("_operator", "operator", "math"):
        return V.BuiltinVariable(value)
    if source is not None and guard:
        out.add_guard(tx, source, "TYPE_MATCH", type(value), "___check_type_id({}, {})".format(source.name(), id(type(value))))
    return V.UserDefinedObjectVariable(value, source)
