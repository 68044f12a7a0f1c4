"""OutputGraph: the graph a frame's capture records, its inputs, guards and symbols.

Note [Fake tensors]
Operations are recorded, not run: each node's value is a fake tensor on the meta device,
computed by calling the same operator on the inputs' fakes, so sizes, strides, dtypes and
errors (a shape mismatch) are the real operator's. Where an operator has no meta kernel the
capture runs it once on zero-filled CPU tensors of the same layout and keeps only the
result's metadata; no real input is ever read."""
import operator

import torch
from torch import fx
from torch._dynamo import variables as V
from torch._dynamo.exc import Unsupported


def _to_fake(t):
    return torch.empty_strided(tuple(t.size()), tuple(t.stride()), dtype=t.dtype, device="meta")


def _to_zeros(t):
    return torch.empty_strided(tuple(t.size()), tuple(t.stride()), dtype=t.dtype).zero_()


def _map(x, fn):
    if isinstance(x, (list, tuple)):
        return type(x)(_map(y, fn) for y in x)
    if isinstance(x, dict):
        return {k: _map(v, fn) for k, v in x.items()}
    return fn(x)


def _as_arg(v, kind):
    """A tracker as an operator argument: kind 'node' (for the graph) or 'fake' (to compute)."""
    if isinstance(v, V.TensorVariable):
        return v.proxy if kind == "node" else v.example
    if isinstance(v, V.SymNodeVariable):
        return v.proxy if kind == "node" else v.hint
    if isinstance(v, (V.BaseListVariable, V.SizeVariable)) and not isinstance(v, V.RangeVariable):
        items = [_as_arg(i, kind) for i in v.items]
        return tuple(items) if isinstance(v, (V.TupleVariable, V.SizeVariable)) else items
    if isinstance(v, V.SliceVariable):
        return slice(*[_as_arg(p, kind) for p in v.parts])
    if isinstance(v, V.DictVariable):
        return {k: _as_arg(i, kind) for k, i in v.items.items()}
    return v.as_python_constant()


def run_fake(kind, target, args, kwargs):
    """The value `target` gives for fake arguments (Note [Fake tensors]): a fake tensor, or a
    structure of them, or a Python value."""
    def invoke(a, k):
        if kind == "call_method":
            return getattr(a[0], target)(*a[1:], **k)
        return target(*a, **k)
    with torch.no_grad():
        try:
            r = invoke(args, kwargs)
            return _map(r, lambda x: _to_fake(x) if isinstance(x, torch.Tensor) and x.device.type != "meta" else x)
        except Exception:
            pass
        # No meta kernel: run it on zeros of the same layout.
        zeros = _map(args, lambda x: _to_zeros(x) if isinstance(x, torch.Tensor) else x)
        kzeros = _map(kwargs, lambda x: _to_zeros(x) if isinstance(x, torch.Tensor) else x)
        if "device" in kzeros:
            kzeros["device"] = "cpu"
        r = invoke(zeros, kzeros)
        return _map(r, lambda x: _to_fake(x) if isinstance(x, torch.Tensor) else x)


def _fake_repr(x):
    if isinstance(x, torch.Tensor):
        extra = "" if x.dtype == torch.float32 else ", dtype={}".format(x.dtype)
        return "FakeTensor(..., size={}{})".format(tuple(x.size()), extra)
    if isinstance(x, (list, tuple)):
        items = [_fake_repr(i) for i in x]
        if isinstance(x, tuple):
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return "[" + ", ".join(items) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join("{!r}: {}".format(k, _fake_repr(v)) for k, v in x.items()) + "}"
    return repr(x)


def _fake_call_error(tx, kind, target, args, kwargs, e):
    """An operator that fails on fake values fails in eager too: as 2.15 does, the capture stops
    with a TorchRuntimeError ("RuntimeError when making fake tensor call") that says which node
    failed, with what, and where in the user's code; it is not a graph break."""
    from torch._dynamo.exc import TorchRuntimeError, format_graph_break_message
    from torch._dynamo import user_stack
    name = target if isinstance(target, str) else repr(target)
    msg = format_graph_break_message(
        gb_type="RuntimeError when making fake tensor call",
        context="",
        explanation="Dynamo failed to run FX node with fake tensors: {} {}(*{}, **{}): got {!r}".format(
            kind, name, _fake_repr(tuple(args)), _fake_repr(dict(kwargs)), e),
        hints=["Your code may result in an error when running in eager. Please double check that your code doesn't "
               "contain a similar error when actually running eager/uncompiled. You can do this by removing the "
               "`torch.compile` call, or by using `torch.compiler.set_stance(\"force_eager\")`. "])
    frames = "".join(" " + user_stack.format_frame(fs) for fs in tx.user_frames())
    return TorchRuntimeError("{}\n\nfrom user code:\n{}\nSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do "
                             "this especially if you're reporting a bug to PyTorch). For even more developer context, set "
                             "TORCH_LOGS=\"+dynamo\"\n".format(msg, frames))


class OutputGraph:
    def __init__(self, frame_state):
        self.graph = fx.Graph()
        self.frame_state = frame_state          # per code object: sizes seen, dynamic dims
        self.inputs = {}                        # source name -> TensorVariable
        self.input_order = []                   # (placeholder node, source) in graph order
        self.guards = []                        # (source, kind, value, text, comment)
        self.tensor_guards = []                 # (source, tensor, dynamic dims, comment)
        self.symbols = {}                       # (source name, dim) -> "s0"
        self.symbol_dims = {}                   # "s77" -> [(source, dim, hint)]
        self.symbol_ids = {}                    # "s77" -> the symbol numbers of the sizes it stands for
        self.sym_placeholders = {}              # "s77" -> its graph input, once a size read it
        self.unique_ids = set()
        self.nn_modules = {}                    # call_module target -> module
        self.outputs = []                       # trackers the graph returns
        self.guarded = set()
        self.ambient_guards = []                # (label, text, comment, check or None), the root's own
        self.init_ambient_guards()

    def init_ambient_guards(self):
        """Note [Ambient guards]
        Every compiled frame depends on state outside its inputs; 2.15 guards it at the root of
        the tree, in this order: no saved-tensor hooks are installed (a LAMBDA_GUARD), the global
        state (grad mode, default dtype, autocast: GLOBAL_STATE, checked), no torch function mode
        is pushed, and there is no default device. This runtime has no saved-tensor hooks, torch
        function modes or default device, so nothing can change those three: they are shown where
        2.15 shows them, with nothing to check. The comments name this function's lines, as 2.15's
        name the lines of its own init_ambient_guards."""
        import sys
        from torch._dynamo.user_stack import shorten_filename

        def here():
            line = sys._getframe(1).f_lineno
            return "  # {}:{} in init_ambient_guards".format(shorten_filename(__file__), line)

        device = here()
        hooks = here()
        self.ambient_guards += [
            ("LAMBDA_GUARD", "torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None", hooks, None),
            ("GLOBAL_STATE", "___check_global_state()", "", None),
            ("TORCH_FUNCTION_MODE_STACK", "___check_torch_function_mode_stack()", "", None),
            ("DEFAULT_DEVICE", "utils_device.CURRENT_DEVICE == None", device, None),
        ]

    # ---- inputs and guards ------------------------------------------------------------------
    def add_guard(self, tx, source, kind, value, text):
        key = (source.name(), kind)
        if key in self.guarded:
            return
        self.guarded.add(key)
        self.guards.append((source, kind, value, text, tx.guard_comment()))

    def add_input(self, tx, source, value):
        name = source.name()
        if name in self.inputs:
            return self.inputs[name]
        seen = self.frame_state.setdefault("sizes", {})
        dynamic = self.frame_state.setdefault("dynamic", {})
        sizes = list(value.size())
        if name in seen and torch._dynamo.config.automatic_dynamic_shapes:
            old = seen[name]
            if len(old) == len(sizes):
                changed = {d for d, (a, b) in enumerate(zip(old, sizes)) if a != b}
                dynamic[name] = dynamic.get(name, set()) | changed
        seen[name] = sizes
        # Sizes 0 and 1 stay constants (TorchDynamo specializes them).
        dyn = sorted(d for d in dynamic.get(name, ()) if d < len(sizes) and sizes[d] >= 2)
        node = self.graph.create_node("placeholder", source.placeholder_name(), name=source.placeholder_name().lower())
        self.input_order.append((node, source))
        fake = _to_fake(value)
        var = V.TensorVariable(node, fake, value.device, value.requires_grad, source, dyn)
        node.meta["val"] = fake
        node.meta["device"] = value.device
        node.meta["requires_grad"] = value.requires_grad
        for d in dyn:
            sym = self._symbol(sizes[d], self._generate_unique_id("{}.size()[{}]".format(name, d)))
            self.symbols[(name, d)] = sym
            self.symbol_dims.setdefault(sym, []).append((source, d, sizes[d]))
            node.meta.setdefault("sym_sizes", {})[d] = sym
        self.inputs[name] = var
        self.tensor_guards.append((source, value, dyn, tx.guard_comment()))
        return var

    def add_int_input(self, tx, source, value):
        """An int the frame reads that has changed since an earlier compile of the frame
        (automatic dynamic shapes): a SymInt input of the graph instead of a constant, guarded by
        its type only, so every int value runs the same graph."""
        name = source.name()
        if name in self.inputs:
            return self.inputs[name]
        node = self.graph.create_node("placeholder", source.placeholder_name(), name=source.placeholder_name().lower())
        node.meta["val"] = "s{}".format(self._generate_unique_id(name))
        self.input_order.append((node, source))
        var = V.SymNodeVariable(node, value, node.name)
        var.source = source
        self.inputs[name] = var
        if (name, "TYPE_MATCH") not in self.guarded:
            self.guarded.add((name, "TYPE_MATCH"))
            self.guards.append((source, "TYPE_MATCH", int, "___check_type_id({}, {})".format(name, id(int)),
                                tx.guard_comment() + " (HINT: type int)"))
        return var

    def _generate_unique_id(self, source_name):
        """Note [Symbol names]
        As 2.15's ShapeEnv names them: a dynamic size of L['x'].size()[0] is s<n>, n the SHA-256 of
        the source's name modulo 100 (the next free number on a collision), so a symbol keeps its
        name from one compile to the next. Sizes equal when captured share one symbol (duck
        sizing); the shared symbol is the lowest-numbered of theirs, while the graph input that
        binds it keeps the name of the first size's own symbol ("s77: Sym(s17)")."""
        import hashlib
        attempt = int(hashlib.sha256(source_name.encode()).hexdigest(), 16) % 100
        while attempt in self.unique_ids:
            attempt += 1
        self.unique_ids.add(attempt)
        return attempt

    def _symbol(self, hint, sid):
        # Duck sizing: two dynamic sizes equal when captured share a symbol.
        for sym, dims in self.symbol_dims.items():
            if dims[0][2] == hint:
                self.symbol_ids[sym].append(sid)
                return sym
        sym = "s{}".format(sid)
        self.symbol_ids[sym] = [sid]
        return sym

    def symbol_name(self, sym):
        """The name a symbol is printed with (Note [Symbol names])."""
        return "s{}".format(min(self.symbol_ids.get(sym, [int(sym[1:])])))

    def symbol_placeholder(self, sym):
        """The graph input that binds symbol `sym` (s77): a size that is exactly a symbol is read
        from it, as 2.15 reads x.shape[0] of a dynamic x."""
        node = self.sym_placeholders.get(sym)
        if node is None:
            node = self.graph.create_node("placeholder", sym, name=sym)
            node.meta["val"] = sym
            self.sym_placeholders[sym] = node
        return node

    def symbol_for(self, var, dim):
        if var.source is not None:
            return self.symbols.get((var.source.name(), dim))
        return (var.proxy.meta.get("sym_sizes") or {}).get(dim)

    def is_unchanged_input(self, var):
        return var.source is not None and self.inputs.get(var.source.name()) is var

    # ---- recording operations ---------------------------------------------------------------
    def checkpoint(self):
        return (list(self.graph.nodes), set(self.graph._names), dict(self.inputs), list(self.input_order),
                list(self.guards), list(self.tensor_guards), set(self.guarded), dict(self.nn_modules))

    def restore(self, state):
        (nodes, names, self.inputs, self.input_order, self.guards, self.tensor_guards, self.guarded,
         self.nn_modules) = state
        self.graph.nodes, self.graph._names = nodes, names

    def call(self, tx, kind, target, args, kwargs):
        args, kwargs = list(args), dict(kwargs)
        node_args = tuple(_as_arg(a, "node") for a in args)
        node_kwargs = {k: _as_arg(v, "node") for k, v in kwargs.items()}
        fake_args = [_as_arg(a, "fake") for a in args]
        fake_kwargs = {k: _as_arg(v, "fake") for k, v in kwargs.items()}
        tensors = [a for a in args if isinstance(a, V.TensorVariable)]
        try:
            example = run_fake(kind, target, fake_args, fake_kwargs)
        except Exception as e:
            raise _fake_call_error(tx, kind, target, fake_args, fake_kwargs, e) from None
        node = self.graph.create_node(kind, target, node_args, node_kwargs)
        node.meta["stack"] = tx.user_stack_entry()
        device = self._result_device(kind, target, args, kwargs, tensors)
        requires_grad = torch.is_grad_enabled() and any(t.requires_grad for t in tensors)
        if kind == "call_method" and isinstance(target, str) and target.endswith("_") and tensors and \
                tensors[0] is args[0] and isinstance(example, torch.Tensor):
            # An in-place method returns its self: the same value, now written.
            node.meta["val"] = example
            return tensors[0]
        return self._wrap_result(node, example, device, requires_grad, args)

    def call_module(self, tx, module_var, args, kwargs):
        module = module_var.module
        target = module_var.source.placeholder_name() if module_var.source is not None else "mod_{}".format(
            len(self.nn_modules))
        self.nn_modules[target] = module
        node_args = tuple(_as_arg(a, "node") for a in args)
        node_kwargs = {k: _as_arg(v, "node") for k, v in kwargs.items()}
        zeros = [_map(_as_arg(a, "fake"), lambda x: _to_zeros(x) if isinstance(x, torch.Tensor) else x) for a in args]
        with torch.no_grad():
            real = module(*zeros)
        example = _map(real, lambda x: _to_fake(x) if isinstance(x, torch.Tensor) else x)
        node = self.graph.create_node("call_module", target, node_args, node_kwargs, name=target.lower())
        node.meta["stack"] = tx.user_stack_entry()
        tensors = [a for a in args if isinstance(a, V.TensorVariable)]
        requires_grad = torch.is_grad_enabled() and (any(t.requires_grad for t in tensors) or
                                                     any(p.requires_grad for p in module.parameters()))
        device = tensors[0].device if tensors else torch.device("cpu")
        return self._wrap_result(node, example, device, requires_grad, args)

    def _result_device(self, kind, target, args, kwargs, tensors):
        if kind == "call_method" and target in ("cuda", "cpu", "to"):
            if target == "cpu":
                return torch.device("cpu")
            if target == "cuda":
                return torch.device("cuda", 0)
            for a in list(args[1:]) + list(kwargs.values()):
                if a.is_python_constant():
                    c = a.as_python_constant()
                    if isinstance(c, (str, torch.device)):
                        return torch.device(c)
        if "device" in kwargs and kwargs["device"].is_python_constant():
            return torch.device(kwargs["device"].as_python_constant())
        return tensors[0].device if tensors else torch.device("cpu")

    def _wrap_result(self, node, example, device, requires_grad, args):
        if isinstance(example, torch.Tensor):
            node.meta["val"] = example
            node.meta["device"] = device
            syms = self._result_symbols(example, args)
            if syms:
                node.meta["sym_sizes"] = syms
            return V.TensorVariable(node, example, device, requires_grad and example.is_floating_point())
        if isinstance(example, (tuple, list)):
            items = []
            for i, e in enumerate(example):
                item = self.graph.call_function(operator.getitem, (node, i))
                item.meta["stack"] = node.meta.get("stack")
                items.append(self._wrap_result(item, e, device, requires_grad, args))
            node.meta["val"] = example
            return V.TupleVariable(items)
        if isinstance(example, (int, float, bool)):
            node.meta["val"] = example
            return V.SymNodeVariable(node, example, node.name)
        raise Unsupported("result of type {}".format(type(example).__name__))

    def _result_symbols(self, example, args):
        """Which sizes of a result are symbols: those equal to a symbolic size of an input (a
        pointwise op keeps s0 where its input had it)."""
        known = {}
        for a in args:
            if isinstance(a, V.TensorVariable):
                for d, s in enumerate(a.example.size()):
                    sym = self.symbol_for(a, d)
                    if sym:
                        known[s] = sym
        return {d: known[s] for d, s in enumerate(example.size()) if s in known}

    # ---- outputs ----------------------------------------------------------------------------
    def add_graph_output(self, var):
        for i, v in enumerate(self.outputs):
            if v is var:
                return i
        self.outputs.append(var)
        return len(self.outputs) - 1

    def count_calls(self):
        return sum(1 for n in self.graph.nodes if n.op in ("call_function", "call_method", "call_module"))
