"""The symbolic evaluation of a frame's bytecode (CPython 3.11), as TorchDynamo's
InstructionTranslator does it: every instruction acts on trackers (Note [Values during
capture]) instead of values; tensor operations become graph nodes; the user's own functions
are inlined; what cannot be followed raises Unsupported, which the top-level frame turns
into a graph break at a call or a branch (Note [Resume functions])."""
import dis
import linecache
import operator

import torch
from torch._dynamo import user_stack
from torch._dynamo import resume
from torch._dynamo import variables as V
from torch._dynamo.builder import wrap_value
from torch._dynamo.exc import Unsupported, unimplemented
from torch._dynamo.source import GlobalSource, LocalSource

BINARY_OPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "@": operator.matmul, "&": operator.and_, "|": operator.or_,
    "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "@=": operator.imatmul,
    "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
}
COMPARE_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
               "!=": operator.ne}
MAX_INSTRUCTIONS = 200_000  # a loop the capture would unroll forever stops here

_KEEPS_LAZY = {"LOAD_FAST", "LOAD_DEREF", "STORE_FAST", "STORE_DEREF", "POP_TOP", "COPY", "SWAP", "NOP",
               "RESUME", "PUSH_NULL", "LOAD_CONST", "JUMP_FORWARD", "JUMP_BACKWARD", "DELETE_FAST"}


class LazyVariable(V.VariableTracker):
    """A frame argument not read yet: wrapped (and guarded) when the bytecode first loads it."""

    def __init__(self, value, source):
        self.value, self.source = value, source


class BreakGraph(Exception):
    """Raised by the top-level translator to stop at a graph break (kind: 'call', 'jump',
    'format')."""

    def __init__(self, kind, inst, reason):
        self.kind, self.inst, self.reason = kind, inst, reason


class InstructionTranslatorBase:
    def __init__(self, code, f_globals, f_builtins, symbolic_locals, output, parent=None):
        self.code = code
        self.f_globals = f_globals
        self.f_builtins = f_builtins if isinstance(f_builtins, dict) else f_builtins.__dict__
        self.symbolic_locals = symbolic_locals
        self.output = output
        self.parent = parent
        self.instructions = list(dis.get_instructions(code))
        self.index_of = {inst.offset: i for i, inst in enumerate(self.instructions)}
        self.stack = []
        self.ip = 0
        self.kw_names = ()
        self.current = None
        self.count = 0

    # ---- where we are, for guards, graph nodes and break reports ------------------------------
    def lineno(self):
        inst = self.current
        return inst.positions.lineno if inst and inst.positions and inst.positions.lineno else self.code.co_firstlineno

    def source_line(self):
        return linecache.getline(self.code.co_filename, self.lineno()).strip()

    def user_stack_entry(self):
        return (self.code.co_filename, self.lineno(), self.code.co_name, self.source_line())

    def user_stack(self):
        stack = [] if self.parent is None else self.parent.user_stack()
        return stack + [self.user_stack_entry()]

    def user_frames(self):
        """The frames of user_stack() as FrameSummary, with the instructions' positions."""
        stack = [] if self.parent is None else self.parent.user_frames()
        return stack + [user_stack.frame_summary(self.code, self.current)]

    def guard_comment(self):
        root = self
        while root.parent is not None:
            root = root.parent
        f, n, name, line = root.user_stack_entry()
        # The file's name relative to the directory it shares with torch (Note [User stacks]).
        return "  # {}  # {}:{} in {}".format(line, user_stack.shorten_filename(f), n, name)

    # ---- the stack ----------------------------------------------------------------------------
    def push(self, v):
        self.stack.append(v)

    def pop(self):
        return self.stack.pop()

    def popn(self, n):
        if n == 0:
            return []
        items = self.stack[-n:]
        del self.stack[-n:]
        return items

    def realize(self, v):
        if isinstance(v, LazyVariable):
            # Not cached on v: a guard added inside a call that is then rolled back (a graph break
            # in an inlined function) must be added again at the next use.
            return wrap_value(self, v.value, v.source)
        return v

    # ---- the loop -----------------------------------------------------------------------------
    def run(self):
        while True:
            inst = self.instructions[self.ip]
            self.ip += 1
            self.current = inst
            self.count += 1
            if self.count > MAX_INSTRUCTIONS:
                unimplemented("more than {} instructions evaluated (a loop unrolled forever?)".format(MAX_INSTRUCTIONS))
            handler = getattr(self, inst.opname, None)
            if inst.opname not in _KEEPS_LAZY:
                self.stack = [self.realize(v) for v in self.stack]
            if handler is None:
                unimplemented("missing: {}".format(inst.opname))
            if handler(inst) == "return":
                return

    def jump(self, inst):
        self.ip = self.index_of[inst.argval]

    # ---- opcodes ------------------------------------------------------------------------------
    def NOP(self, inst): pass
    RESUME = MAKE_CELL = COPY_FREE_VARS = PRECALL = NOP

    def LOAD_FAST(self, inst):
        name = inst.argval
        if name not in self.symbolic_locals:
            unimplemented("local variable '{}' referenced before assignment".format(name))
        # Still lazy: a value that is only moved around (popped, stored, passed on to a resume
        # function) is never guarded.
        self.push(self.symbolic_locals[name])
    LOAD_DEREF = LOAD_CLOSURE = LOAD_FAST

    def STORE_FAST(self, inst):
        value = self.pop()
        if isinstance(value, V.TensorVariable):
            value.set_name_hint(self.output.graph, inst.argval)
        self.symbolic_locals[inst.argval] = value
    STORE_DEREF = STORE_FAST

    def DELETE_FAST(self, inst):
        self.symbolic_locals.pop(inst.argval, None)

    def LOAD_CONST(self, inst):
        self.push(V.ConstantVariable(inst.argval))

    def PUSH_NULL(self, inst):
        self.push(V.NullVariable())

    def LOAD_GLOBAL(self, inst):
        if inst.arg & 1:
            self.push(V.NullVariable())
        name = inst.argval
        if name in self.f_globals:
            self.push(wrap_value(self, self.f_globals[name], GlobalSource(name) if self.parent is None or
                                 self.f_globals is self.root().f_globals else None))
        elif name in self.f_builtins:
            self.push(wrap_value(self, self.f_builtins[name], self._builtin_source(name)))
        else:
            unimplemented("name '{}' is not defined".format(name))

    def _builtin_source(self, name):
        """Note [Guarding builtins]
        As 2.15 does, a builtin the compiled frame reads is reached through the frame's builtins
        dict, installed in its globals under the compile attempt's unique name
        (__builtins_dict___1), and guarded by identity there: rebinding builtins.print recompiles.
        Builtins read by inlined functions with other globals are not guarded."""
        if self.parent is not None and self.f_globals is not self.root().f_globals:
            return None
        key = getattr(self.output, "builtins_name", None)
        if key is None:
            return None
        if self.f_globals.get(key) is not self.f_builtins:
            self.f_globals[key] = self.f_builtins
        from torch._dynamo.source import DictGetItemSource
        return DictGetItemSource(GlobalSource(key), name)

    def root(self):
        t = self
        while t.parent is not None:
            t = t.parent
        return t

    def LOAD_ATTR(self, inst):
        obj = self.pop()
        self.push(obj.var_getattr(self, inst.argval))

    def LOAD_METHOD(self, inst):
        obj = self.pop()
        self.push(V.NullVariable())
        self.push(obj.var_getattr(self, inst.argval))

    def STORE_ATTR(self, inst):
        unimplemented("STORE_ATTR (a side effect on an object)")

    def KW_NAMES(self, inst):
        # CPython 3.11's dis leaves KW_NAMES' argval unknown: the names are the constant at arg.
        self.kw_names = tuple(self.code.co_consts[inst.arg])

    def CALL(self, inst):
        argc = inst.arg
        items = self.stack[-(argc + 2):]
        kw = self.kw_names
        self.kw_names = ()
        first, fn = items[0], items[1]
        args = list(items[2:])
        if not isinstance(first, V.NullVariable):
            fn, args = first, [items[1]] + args
        kwargs = {}
        if kw:
            kwargs = dict(zip(kw, args[len(args) - len(kw):]))
            args = args[:len(args) - len(kw)]
        result = self.call_function(fn, args, kwargs)
        self.popn(argc + 2)
        self.push(result)

    def call_function(self, fn, args, kwargs):
        return fn.call_function(self, args, kwargs)

    def RETURN_VALUE(self, inst):
        self.return_value = self.pop()
        return "return"

    def POP_TOP(self, inst):
        self.pop()

    def COPY(self, inst):
        self.push(self.stack[-inst.arg])

    def SWAP(self, inst):
        self.stack[-1], self.stack[-inst.arg] = self.stack[-inst.arg], self.stack[-1]

    def BUILD_TUPLE(self, inst):
        self.push(V.TupleVariable(self.popn(inst.arg)))

    def BUILD_LIST(self, inst):
        self.push(V.ListVariable(self.popn(inst.arg)))

    def BUILD_MAP(self, inst):
        items = self.popn(2 * inst.arg)
        self.push(V.DictVariable({items[i].as_python_constant(): items[i + 1] for i in range(0, len(items), 2)}))

    def BUILD_CONST_KEY_MAP(self, inst):
        keys = self.pop().as_python_constant()
        self.push(V.DictVariable(dict(zip(keys, self.popn(inst.arg)))))

    def LIST_EXTEND(self, inst):
        items = self.pop().unpack(self)
        self.stack[-inst.arg].items.extend(items)

    def LIST_APPEND(self, inst):
        v = self.pop()
        self.stack[-inst.arg].items.append(v)

    def LIST_TO_TUPLE(self, inst):
        self.push(V.TupleVariable(self.pop().items))

    def BUILD_SLICE(self, inst):
        self.push(V.SliceVariable(self.popn(inst.arg)))

    def UNPACK_SEQUENCE(self, inst):
        seq = self.pop()
        if isinstance(seq, V.TensorVariable):
            n = seq.example.size(0)
            items = [self.output.call(self, "call_function", operator.getitem, [seq, V.ConstantVariable(i)], {})
                     for i in range(n)]
        else:
            items = seq.unpack(self)
        if len(items) != inst.arg:
            unimplemented("unpacking {} values into {}".format(len(items), inst.arg))
        for v in reversed(items):
            self.push(v)

    def GET_ITER(self, inst):
        seq = self.pop()
        if isinstance(seq, V.IteratorVariable):
            self.push(seq)
            return
        if isinstance(seq, V.TensorVariable):
            n = seq.example.size(0)
            items = [self.output.call(self, "call_function", operator.getitem, [seq, V.ConstantVariable(i)], {})
                     for i in range(n)]
        elif isinstance(seq, V.DictVariable):
            items = [V.ConstantVariable(k) for k in seq.items]
        else:
            items = seq.unpack(self)
        self.push(V.IteratorVariable(items))

    def FOR_ITER(self, inst):
        it = self.stack[-1]
        v = it.next()
        if v is None:
            self.pop()
            self.jump(inst)
        else:
            self.push(v)

    def binary(self, fn, a, b):
        if isinstance(a, (V.TensorVariable, V.SymNodeVariable)) or isinstance(b, (V.TensorVariable, V.SymNodeVariable)):
            return self.output.call(self, "call_function", fn, [a, b], {})
        try:
            return V.ConstantVariable(fn(a.as_python_constant(), b.as_python_constant()))
        except Unsupported:
            raise
        except Exception as e:
            unimplemented("{} on constants raised {}: {}".format(fn.__name__, type(e).__name__, e))

    def BINARY_OP(self, inst):
        b = self.pop()
        a = self.pop()
        if isinstance(a, V.BaseListVariable) and isinstance(b, V.BaseListVariable) and inst.argrepr == "+":
            self.push(type(a)(a.items + b.items))
            return
        self.push(self.binary(BINARY_OPS[inst.argrepr], a, b))

    def COMPARE_OP(self, inst):
        b = self.pop()
        a = self.pop()
        self.push(self.binary(COMPARE_OPS[inst.argval], a, b))

    def BINARY_SUBSCR(self, inst):
        index = self.pop()
        obj = self.pop()
        if isinstance(obj, V.TensorVariable):
            self.push(self.output.call(self, "call_function", operator.getitem, [obj, index], {}))
        elif isinstance(obj, V.DictVariable):
            self.push(obj.items[index.as_python_constant()])
        elif isinstance(obj, (V.BaseListVariable, V.SizeVariable)):
            i = index.as_python_constant()
            r = obj.items[i]
            self.push(V.TupleVariable(r) if isinstance(i, slice) else r)
        else:
            self.push(V.ConstantVariable(obj.as_python_constant()[index.as_python_constant()]))

    def STORE_SUBSCR(self, inst):
        index, obj, value = self.pop(), self.pop(), self.pop()
        if isinstance(obj, V.TensorVariable):
            self.output.call(self, "call_function", operator.setitem, [obj, index, value], {})
        elif isinstance(obj, (V.ListVariable, V.DictVariable)) and obj.source is None:
            obj.items[index.as_python_constant()] = value
        else:
            unimplemented("STORE_SUBSCR on {}".format(type(obj).__name__))

    def unary(self, fn):
        v = self.pop()
        if isinstance(v, (V.TensorVariable, V.SymNodeVariable)):
            self.push(self.output.call(self, "call_function", fn, [v], {}))
        else:
            self.push(V.ConstantVariable(fn(v.as_python_constant())))

    def UNARY_NEGATIVE(self, inst): self.unary(operator.neg)
    def UNARY_POSITIVE(self, inst): self.unary(operator.pos)
    def UNARY_INVERT(self, inst): self.unary(operator.invert)

    def UNARY_NOT(self, inst):
        v = self.pop()
        self.push(V.ConstantVariable(not self.truth(v)))

    def IS_OP(self, inst):
        b, a = self.pop(), self.pop()
        if a.is_python_constant() and b.is_python_constant():
            r = a.as_python_constant() is b.as_python_constant()
        elif b.is_python_constant() and b.as_python_constant() is None:
            r = False  # a tensor, a module, a function is never None
        else:
            r = a is b
        self.push(V.ConstantVariable(r != bool(inst.arg)))

    def CONTAINS_OP(self, inst):
        container, item = self.pop(), self.pop()
        r = item.as_python_constant() in container.as_python_constant()
        self.push(V.ConstantVariable(r != bool(inst.arg)))

    def FORMAT_VALUE(self, inst):
        spec = self.pop().as_python_constant() if inst.arg & 4 else ""
        v = self.pop()
        value = v.as_python_constant()
        conv = {1: str, 2: repr, 3: ascii}.get(inst.arg & 3)
        self.push(V.ConstantVariable(format(conv(value) if conv else value, spec)))

    def BUILD_STRING(self, inst):
        self.push(V.ConstantVariable("".join(p.as_python_constant() for p in self.popn(inst.arg))))

    # ---- control flow -------------------------------------------------------------------------
    def truth(self, v):
        if isinstance(v, (V.TensorVariable, V.SymNodeVariable)):
            unimplemented("generic_jump {}()".format(type(v).__name__))
        if isinstance(v, (V.NNModuleVariable, V.UserFunctionVariable, V.TorchVariable)):
            return True
        if isinstance(v, V.BaseListVariable):
            return bool(v.items)
        return bool(v.as_python_constant())

    def JUMP_FORWARD(self, inst): self.jump(inst)
    JUMP_BACKWARD = JUMP_BACKWARD_NO_INTERRUPT = JUMP_ABSOLUTE = JUMP_FORWARD

    def pop_jump(self, inst, when):
        v = self.stack[-1]
        cond = self.truth(v)
        self.pop()
        if cond == when:
            self.jump(inst)

    def POP_JUMP_FORWARD_IF_TRUE(self, inst): self.pop_jump(inst, True)
    def POP_JUMP_FORWARD_IF_FALSE(self, inst): self.pop_jump(inst, False)
    POP_JUMP_BACKWARD_IF_TRUE = POP_JUMP_FORWARD_IF_TRUE
    POP_JUMP_BACKWARD_IF_FALSE = POP_JUMP_FORWARD_IF_FALSE

    def is_none(self, v):
        return v.is_python_constant() and v.as_python_constant() is None

    def POP_JUMP_FORWARD_IF_NONE(self, inst):
        if self.is_none(self.pop()):
            self.jump(inst)

    def POP_JUMP_FORWARD_IF_NOT_NONE(self, inst):
        if not self.is_none(self.pop()):
            self.jump(inst)
    POP_JUMP_BACKWARD_IF_NONE = POP_JUMP_FORWARD_IF_NONE
    POP_JUMP_BACKWARD_IF_NOT_NONE = POP_JUMP_FORWARD_IF_NOT_NONE

    def JUMP_IF_TRUE_OR_POP(self, inst):
        if self.truth(self.stack[-1]):
            self.jump(inst)
        else:
            self.pop()

    def JUMP_IF_FALSE_OR_POP(self, inst):
        if not self.truth(self.stack[-1]):
            self.jump(inst)
        else:
            self.pop()

    # ---- inlining -----------------------------------------------------------------------------
    def inline_user_function(self, fn, args, kwargs):
        import inspect
        code = fn.__code__
        if code.co_flags & (0x20 | 0x80 | 0x200):
            unimplemented("inlining a generator or coroutine {}".format(fn.__qualname__))
        if getattr(fn, "__module__", "") and (fn.__module__ == "torch" or fn.__module__.startswith("torch.")) and \
                fn.__module__.startswith("torch._dynamo"):
            unimplemented("skip function {} in file {}".format(fn.__name__, code.co_filename))
        depth, t = 0, self
        while t is not None:
            depth, t = depth + 1, t.parent
        if depth > 32:
            unimplemented("inlining depth over 32 (recursion?)")
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs)
        except TypeError as e:
            unimplemented("calling {}: {}".format(fn.__qualname__, e))
        bound.apply_defaults()
        locals_ = {}
        for name, value in bound.arguments.items():
            p = inspect.signature(fn).parameters[name]
            if p.kind == p.VAR_POSITIONAL:
                value = V.TupleVariable(list(value))
            elif p.kind == p.VAR_KEYWORD:
                value = V.DictVariable(dict(value))
            elif not isinstance(value, V.VariableTracker):
                value = V.ConstantVariable(value)
            locals_[name] = value
        if fn.__closure__:
            for name, cell in zip(code.co_freevars, fn.__closure__):
                locals_[name] = wrap_value(self, cell.cell_contents, None, guard=False)
        sub = InliningTranslator(code, fn.__globals__, self.f_builtins, locals_, self.output, self)
        sub.run()
        return sub.return_value


class InliningTranslator(InstructionTranslatorBase):
    def run(self):
        try:
            super().run()
        except Unsupported as e:
            if not getattr(e, "_has_stack", False):
                e.user_stack = self.user_stack()
                e.user_frames = self.user_frames()
                e._has_stack = True
            raise


class InstructionTranslator(InstructionTranslatorBase):
    """The frame being compiled. Stops at RETURN_VALUE or at a graph break (BreakGraph)."""

    def __init__(self, code, f_locals, f_globals, f_builtins, output, fullgraph):
        symbolic_locals = {}
        for name, value in f_locals.items():
            symbolic_locals[name] = LazyVariable(value, LocalSource(name))
        super().__init__(code, f_globals, f_builtins, symbolic_locals, output)
        self.fullgraph = fullgraph
        self.return_value = None
        self.break_info = None

    def _stop(self, kind, inst, e):
        if not getattr(e, "_has_stack", False):
            e.user_stack = self.user_stack()
            e.user_frames = self.user_frames()
            e._has_stack = True
        if self.fullgraph or not resume.can_resume(self.code):
            raise e
        raise BreakGraph(kind, inst, e)

    def CALL(self, inst):
        state = self.output.checkpoint()
        try:
            super().CALL(inst)
        except Unsupported as e:
            self.output.restore(state)
            self._stop("call", inst, e)

    def pop_jump(self, inst, when):
        try:
            self.truth(self.stack[-1])
        except Unsupported as e:
            self._stop("jump", inst, e)
        super().pop_jump(inst, when)

    def FORMAT_VALUE(self, inst):
        v = self.stack[-2] if inst.arg & 4 else self.stack[-1]
        if not v.is_python_constant():
            self._stop("format", inst, Unsupported("f-string formatting of {}".format(type(v).__name__)))
        super().FORMAT_VALUE(inst)
